package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gridlag/server/admit/admittest"
)

// deployDir holds the image and the manifests of a fleet.
const deployDir = "../../ops/deploy/agones"

// container is what a manifest gives one container: its arguments (after
// the image's entry point), its environment and its memory limit.
type container struct {
	file     string
	args     []string
	env      map[string]string
	memLimit string // resources.limits.memory, "" if none
}

// TestDeployManifestsStartTheServer starts the binary with exactly the
// arguments each container of ops/deploy/agones/*.yaml gets (the Dockerfile's
// entry point, then the manifest's args, parsed from the files) and its
// environment, and checks that it gets past the parsing and the checks of
// its flags to the start of the server: it is made to fail there, at the
// bind of its game port, which the test holds, so that it neither serves
// on every interface nor writes its host key outside the test.
func TestDeployManifestsStartTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	entry := dockerEntrypoint(t)
	containers := manifestContainers(t)
	bin := buildBinary(t)
	for _, c := range containers {
		args := append(append([]string(nil), entry[1:]...), c.args...)
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			addr := flagValue(args, "addr")
			if addr == "" {
				t.Fatalf("%s: no -addr in %q: the test cannot keep the server off its port", c.file, args)
			}
			if ln, err := net.Listen("tcp", addr); err == nil {
				defer ln.Close() // else someone else holds it: as good
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = os.Environ()
			for k, v := range c.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			out, err := runWithin(cmd, 30*time.Second)
			t.Logf("gridlag %s:\n%s", strings.Join(args, " "), out)
			var ee *exec.ExitError
			switch {
			case !errors.As(err, &ee):
				t.Fatalf("gridlag %q: %v, want exit status 1 at the bind of %s", args, err, addr)
			case ee.ExitCode() == 2 || strings.Contains(out, "-help"):
				t.Fatalf("gridlag %q is refused as a usage error: fix the manifest's arguments", args)
			case ee.ExitCode() != 1 || !strings.Contains(out, "address already in use"):
				t.Fatalf("gridlag %q: %v, want exit status 1 at the bind of %s (the test holds it)", args, err, addr)
			}
		})
	}
}

// TestDeployMemoryLimit checks that every container of the manifests sets
// GOMEMLIMIT, in a form the Go runtime takes, below its memory limit with
// room for what the runtime does not count (about a tenth), so that the
// collector works harder before the pod is killed.
func TestDeployMemoryLimit(t *testing.T) {
	for _, c := range manifestContainers(t) {
		limit, err := quantityBytes(c.memLimit)
		if err != nil {
			t.Errorf("%s: resources.limits.memory %q: %v", c.file, c.memLimit, err)
			continue
		}
		gml, ok := c.env["GOMEMLIMIT"]
		if !ok {
			t.Errorf("%s: no GOMEMLIMIT in the container's env (its memory limit is %s)", c.file, c.memLimit)
			continue
		}
		soft, err := goMemLimitBytes(gml)
		if err != nil {
			t.Errorf("%s: GOMEMLIMIT %q: %v", c.file, gml, err)
			continue
		}
		if soft > limit*9/10 || soft < limit/2 {
			t.Errorf("%s: GOMEMLIMIT %s is %.0f%% of the memory limit %s, want 50%% to 90%%", c.file, gml, 100*float64(soft)/float64(limit), c.memLimit)
		}
	}
}

// runWithin runs cmd and returns its output, killing it after d.
func runWithin(cmd *exec.Cmd, d time.Duration) (string, error) {
	var out admittest.Log
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return out.String(), fmt.Errorf("still running after %s", d)
	}
}

// flagValue is the value given to -name (or --name) in args, "" if none.
func flagValue(args []string, name string) string {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// dockerEntrypoint is the Dockerfile's ENTRYPOINT, in its exec (JSON)
// form.
func dockerEntrypoint(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(deployDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var entry []string
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "ENTRYPOINT "); ok {
			if err := json.Unmarshal([]byte(rest), &entry); err != nil {
				t.Fatalf("Dockerfile: ENTRYPOINT %s is not in the exec form: %v", rest, err)
			}
		}
	}
	if len(entry) < 1 || filepath.Base(entry[0]) != "gridlag" {
		t.Fatalf("Dockerfile: ENTRYPOINT %q, want the gridlag binary and its arguments", entry)
	}
	return entry
}

// manifestContainers reads the containers of ops/deploy/agones/*.yaml: a line
// reader for the shapes these manifests use (args as a flow sequence of
// quoted strings, env as name/value pairs, resources.limits.memory), which
// fails on any other shape of args rather than miss them.
func manifestContainers(t *testing.T) []container {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(deployDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", deployDir, err)
	}
	key := regexp.MustCompile(`^(\s*)(- )?([A-Za-z]+):\s*(.*?)\s*$`)
	var all []container
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var (
			cur          *container
			envName      string
			containersAt = -1 // indentation of "containers:", -1 outside the list
			itemAt       = -1 // indentation of its items
			limitsAt     = -1 // indentation of "limits:", -1 outside it
		)
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			m := key.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			indent, item, name, value := len(m[1]), m[2] != "", m[3], strings.Trim(m[4], `"'`)
			if containersAt >= 0 && indent <= containersAt {
				containersAt, itemAt, cur = -1, -1, nil
			}
			if limitsAt >= 0 && indent <= limitsAt {
				limitsAt = -1
			}
			switch {
			case name == "containers":
				containersAt = indent
			case containersAt < 0:
			case item && (itemAt < 0 || indent == itemAt):
				itemAt = indent
				all = append(all, container{file: file, env: map[string]string{}})
				cur = &all[len(all)-1]
			case cur == nil:
			case name == "args":
				if err := json.Unmarshal([]byte(m[4]), &cur.args); err != nil {
					t.Fatalf("%s:%d: args %s: want a flow sequence of double-quoted strings (the test reads them): %v", file, n, m[4], err)
				}
			case name == "name" && item:
				envName = value
			case name == "value" && envName != "":
				cur.env[envName], envName = value, ""
			case name == "limits":
				limitsAt = indent
			case name == "memory" && limitsAt >= 0:
				cur.memLimit = value
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(all) == 0 {
		t.Fatalf("no container in %s/*.yaml", deployDir)
	}
	return all
}

// quantityBytes reads a Kubernetes memory quantity such as 256Mi or 1G.
func quantityBytes(q string) (int64, error) {
	return withSuffix(q, map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "k": 1e3, "M": 1e6, "G": 1e9, "": 1})
}

// goMemLimitBytes reads a GOMEMLIMIT value as the Go runtime does: a
// number of bytes with an optional B, KiB, MiB or GiB.
func goMemLimitBytes(v string) (int64, error) {
	return withSuffix(v, map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "B": 1, "": 1})
}

func withSuffix(v string, units map[string]int64) (int64, error) {
	i := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(v)
	}
	unit, ok := units[v[i:]]
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if !ok || err != nil || i == 0 {
		return 0, fmt.Errorf("not a size: %q", v)
	}
	return n * unit, nil
}
