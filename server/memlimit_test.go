package server

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestMemoryLimit: -memory-limit auto is 3/4 of the cgroup's limit where
// it has one below the machine's (version 2 or 1), else of the machine's;
// a size is that size; off is none; GOMEMLIMIT stands unless the flag was
// given.
func TestMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	saved := memoryFiles
	defer func() { memoryFiles = saved }()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	memoryFiles.meminfo = write("meminfo", "MemTotal:       25165824 kB\nMemFree:         1000 kB\n")
	memoryFiles.cgroupRoot = filepath.Join(dir, "cg")
	for _, c := range []struct {
		name, cgroup, file, limit string
		want                      string
		bytes                     int64
	}{
		{"no cgroup limit", "0::/a\n", "cg/a/memory.max", "max\n", "18GiB (3/4 of the machine's 24GiB)", 18 << 30},
		{"a container", "0::/\n", "cg/memory.max", "1073741824\n", "768MiB (3/4 of the cgroup's 1GiB)", 768 << 20},
		{"cgroup v1", "4:memory:/b\n1:cpu:/b\n", "cg/memory/b/memory.limit_in_bytes", "2147483648\n", "1.5GiB (3/4 of the cgroup's 2GiB)", 3 << 29},
		{"v1, no limit", "4:memory:/b\n", "cg/memory/b/memory.limit_in_bytes", "9223372036854771712\n", "18GiB (3/4 of the machine's 24GiB)", 18 << 30},
	} {
		memoryFiles.cgroup = write(c.name+"/cgroup", c.cgroup)
		os.RemoveAll(memoryFiles.cgroupRoot)
		write(c.file, c.limit)
		if got := (MemoryLimit{Auto: true}).Apply(""); got != c.want || debug.SetMemoryLimit(-1) != c.bytes {
			t.Errorf("%s: %q, limit %d; want %q, %d", c.name, got, debug.SetMemoryLimit(-1), c.want, c.bytes)
		}
	}
	if got := (MemoryLimit{Bytes: 512 << 20, Given: true}).Apply("1GiB"); got != "512MiB" || debug.SetMemoryLimit(-1) != 512<<20 {
		t.Errorf("a size given: %q", got)
	}
	if got := (MemoryLimit{Auto: true}).Apply("1GiB"); got != "512MiB (GOMEMLIMIT)" || debug.SetMemoryLimit(-1) != 512<<20 {
		t.Errorf("GOMEMLIMIT and the default: %q, limit %d (the runtime read GOMEMLIMIT at start: here the last set stands)", got, debug.SetMemoryLimit(-1))
	}
	if got := (MemoryLimit{Off: true, Given: true}).Apply("1GiB"); got != "off" || debug.SetMemoryLimit(-1) < 1<<62 {
		t.Errorf("off given: %q", got)
	}
	memoryFiles.meminfo, memoryFiles.cgroup = filepath.Join(dir, "none"), filepath.Join(dir, "none")
	if got := (MemoryLimit{Auto: true}).Apply(""); got != "off (the machine's memory is not known)" {
		t.Errorf("no memory known: %q", got)
	}
}
