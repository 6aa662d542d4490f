package server

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"gridlag/internal/cli"
)

// MemoryLimit is how a server's soft memory limit is chosen (the
// -memory-limit flag): the bound the Go runtime keeps its memory under by
// collecting more often as it nears it, and by returning freed pages to
// the system (runtime/debug.SetMemoryLimit). Auto, the default, is
// AutoLimitShare of the memory the machine, or the process's cgroup (a
// container's limit), gives; Off is none; else Bytes. A limit in the
// environment (GOMEMLIMIT, as a container's manifest sets it) stands
// unless the flag was given.
type MemoryLimit struct {
	Auto, Off bool
	Bytes     int64
	// Given says the flag was on the command line: it overrides
	// GOMEMLIMIT.
	Given bool
}

// AutoLimitShare is the share of the machine's (or the cgroup's) memory
// an automatic limit allows: room for what is not the heap's (stacks,
// the kernel's socket buffers) and for the collector to catch up.
const AutoLimitShare = 0.75

// memoryFiles are where the machine's and the cgroup's memory are read
// (a variable for the tests).
var memoryFiles = struct {
	meminfo, cgroup, cgroupRoot string
}{"/proc/meminfo", "/proc/self/cgroup", "/sys/fs/cgroup"}

// Apply sets the runtime's memory limit as l says and returns what it set
// and why, for the start line ("18GiB (3/4 of the machine's 24GiB)");
// env is GOMEMLIMIT's value.
func (l MemoryLimit) Apply(env string) string {
	switch {
	case !l.Given && env != "":
		return fmt.Sprintf("%s (GOMEMLIMIT)", showBytes(debug.SetMemoryLimit(-1)))
	case l.Off:
		debug.SetMemoryLimit(math.MaxInt64)
		return "off"
	case !l.Auto:
		debug.SetMemoryLimit(l.Bytes)
		return showBytes(l.Bytes)
	}
	total, from := machineMemory()
	if total <= 0 {
		return "off (the machine's memory is not known)"
	}
	limit := int64(float64(total) * AutoLimitShare)
	debug.SetMemoryLimit(limit)
	return fmt.Sprintf("%s (3/4 of %s's %s)", showBytes(limit), from, showBytes(total))
}

// machineMemory returns the memory the process may use: its cgroup's
// limit (version 2 or 1) if it has one below the machine's, else the
// machine's (MemTotal); 0 if neither can be read (not Linux).
func machineMemory() (int64, string) {
	total := meminfo()
	from := "the machine"
	if c := cgroupLimit(); c > 0 && (total <= 0 || c < total) {
		total, from = c, "the cgroup"
	}
	return total, from
}

// meminfo reads MemTotal, in bytes.
func meminfo() int64 {
	b, err := os.ReadFile(memoryFiles.meminfo)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cgroupLimit reads the memory limit of the process's cgroup: version 2's
// memory.max, or version 1's memory.limit_in_bytes; 0 for none.
func cgroupLimit() int64 {
	b, err := os.ReadFile(memoryFiles.cgroup)
	if err != nil {
		return 0
	}
	var paths []string
	for _, line := range strings.Split(string(b), "\n") {
		// hierarchy-ID:controllers:path; version 2 is "0::/path".
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			paths = append(paths, filepath.Join(memoryFiles.cgroupRoot, f[2], "memory.max"), filepath.Join(memoryFiles.cgroupRoot, "memory.max"))
		case strings.Contains(","+f[1]+",", ",memory,"):
			paths = append(paths, filepath.Join(memoryFiles.cgroupRoot, "memory", f[2], "memory.limit_in_bytes"), filepath.Join(memoryFiles.cgroupRoot, "memory", "memory.limit_in_bytes"))
		}
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n <= 0 || n >= 1<<60 { // "max", or version 1's "none" (a huge number)
			return 0
		}
		return n
	}
	return 0
}

// showBytes writes n in GiB or MiB, with a decimal where it is not
// whole: "18GiB", "1.5GiB", "768MiB".
func showBytes(n int64) string {
	if n >= math.MaxInt64/2 {
		return "off"
	}
	v, unit := float64(n)/(1<<20), "MiB"
	if n >= 1<<30 {
		v, unit = float64(n)/(1<<30), "GiB"
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + unit
}

// memorySize is -memory-limit's range of sizes.
var memorySize = cli.SizeRange{Lo: 64 << 20, Hi: 1 << 40}

// RegisterFlags registers -memory-limit: auto (the default), off, or a
// size. Given is set when the flag is on the command line.
func (l *MemoryLimit) RegisterFlags(fs *cli.FlagSet) {
	*l = MemoryLimit{Auto: true}
	fs.Checked(&memLimitValue{l}, "memory-limit", "the soft memory `limit` the Go runtime keeps the process under (collecting sooner, returning freed memory): auto = 3/4 of the memory the machine or its cgroup gives, off, or a size (64MiB to 1TiB); GOMEMLIMIT, if set, stands unless this is given")
}

// memLimitValue is -memory-limit: auto, off, or a size.
type memLimitValue struct{ p *MemoryLimit }

func (v *memLimitValue) String() string {
	switch {
	case v.p == nil || v.p.Auto:
		return "auto"
	case v.p.Off:
		return "off"
	}
	return cli.ShowSize(v.p.Bytes)
}

// Set reads auto, off or a size of memorySize's range.
func (v *memLimitValue) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		*v.p = MemoryLimit{Auto: true, Given: true}
		return nil
	case "off":
		*v.p = MemoryLimit{Off: true, Given: true}
		return nil
	}
	n, err := cli.ParseSize(s)
	if err == nil && (n < memorySize.Lo || n > memorySize.Hi) {
		err = fmt.Errorf("out of range (%v)", memorySize)
	}
	if err != nil {
		return fmt.Errorf("%v: auto, off or a size", err)
	}
	*v.p = MemoryLimit{Bytes: n, Given: true}
	return nil
}
