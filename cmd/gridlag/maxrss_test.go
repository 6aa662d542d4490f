package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// measureEnv, set in the environment of the test binary, makes it run the
// command its arguments name and print the command's peak resident set.
const measureEnv = "GRIDLAG_TEST_MEASURE_RSS"

// measureChild runs args[0] with args[1:], its output passed through,
// then writes "maxrss KB" on the last line of stderr and returns the
// command's exit status.
func measureChild(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	fmt.Fprintf(os.Stderr, "maxrss %d\n", cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
	return cmd.ProcessState.ExitCode()
}

// runMeasured runs bin with args and returns its output, exit status and
// peak resident set in kilobytes, as the kernel counts it (rusage's
// maxrss). A child's maxrss starts from the memory of the process that
// started it (Linux keeps the high-water mark of the memory an exec
// leaves): started from this test process, which may be large, the
// figure would be this process's. So the command is started by a fresh
// copy of the test binary, which does nothing else, and the figure is
// the command's own, give or take that small parent's few megabytes.
func runMeasured(t *testing.T, bin string, args ...string) (stdout, stderr string, code int, kb int64) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{bin}, args...)...)
	cmd.Env = append(os.Environ(), measureEnv+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s: %v", bin, err)
	}
	text := strings.TrimSuffix(errb.String(), "\n")
	i := strings.LastIndex(text, "\n") + 1
	n, ok := strings.CutPrefix(text[i:], "maxrss ")
	kb, perr := strconv.ParseInt(n, 10, 64)
	if !ok || perr != nil {
		t.Fatalf("%s %v: no figure of its memory (exit status %d): %s", bin, args, cmd.ProcessState.ExitCode(), errb.String())
	}
	if i > 0 {
		text = text[:i]
	} else {
		text = ""
	}
	return out.String(), text, cmd.ProcessState.ExitCode(), kb
}
