package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/internal/cli"
)

// TestBadFlagsSayWhatIsWrong: every mode refuses a bad value the same way,
// naming the flag, the value and what is allowed, as a usage error.
func TestBadFlagsSayWhatIsWrong(t *testing.T) {
	cases := []refusal{
		{[]string{"-latency", "250"}, "-latency 250: a duration needs a unit, e.g. 250ms"},
		{[]string{"-ssh-idle", "30"}, "-ssh-idle 30: a duration needs a unit, e.g. 30s"},
		{[]string{"-latency", "soon"}, "-latency soon: not a duration, e.g. 250ms or 1.5s"},
		{[]string{"-move-time", "1.5ms"}, "-move-time 1.5ms: not a whole number of 1ms"},
		{[]string{"-latency", "2s"}, "-latency 2s: out of range (0 to 1s)"},
		{[]string{"-rate", "5000"}, "-rate 5000: out of range (0 to 1000)"},
		{[]string{"-rate", "fast"}, "-rate fast: not a whole number"},
		{[]string{"-bots", "-1"}, "-bots -1: out of range (0 to 65534)"},
		{[]string{"-ssh-per-addr", "0"}, "-ssh-per-addr 0: out of range (1 to "},
		{[]string{"-round", "500ms"}, "-round 500ms: out of range (1s to 24h)"},
		{[]string{"-server", "-round", "3"}, "-round 3: a duration needs a unit, e.g. 3s"},
		{[]string{"-ssh-handshake", "10ms"}, "-ssh-handshake 10ms: out of range (at least 1s)"},
		{[]string{"-server", "-connect", "host:7777"}, "-server and -connect do not go together"},
		{[]string{"-server", "-send-queue", "100"}, "-send-queue 100 must be more than 2048, the most players one area of interest holds"},
		{[]string{"extra"}, `unexpected argument "extra": the commands are play, watch, lobby, serve, teach, lab, scenario, replay, bots, load, version, help`},
		{[]string{"-rate", "3", "extra"}, `unexpected argument "extra"`},
		{[]string{"scenario", "bogus"}, `unexpected argument "bogus"`},
		{[]string{"scenario", "-until", "-1s"}, "-until -1s: out of range (0 or more)"},
		{[]string{"scenario", "-start", "10,10junk"}, "-start 10,10junk: want x,y, e.g. 10,10"},
		{[]string{"scenario", "-start2", "12"}, "-start2 12: want x,y, e.g. 10,10"},
		{[]string{"scenario", "-presses", "right@abc"}, `press "right@abc": "abc" is not a time, e.g. right@100ms`},
		{[]string{"scenario", "-presses", "right@100"}, `press "right@100": "100" needs a unit, e.g. right@100ms`},
		{[]string{"scenario", "-presses", "right@-1s"}, `press "right@-1s": "-1s" is before the start`},
		{[]string{"scenario", "-presses2", "sideways@0ms"}, `press "sideways@0ms": "sideways" is not a direction`},
		{[]string{"scenario", "-presses", "right"}, `press "right": want DIRECTION@TIME, e.g. right@100ms`},
		{[]string{"scenario", "-seed", "x"}, "-seed x: not a whole number"},
		{[]string{"bots", "-connect", "h:1", "-n", "0"}, "-n 0: out of range (1 to 65534)"},
		{[]string{"bots"}, "-connect HOST:PORT is required"},
		{[]string{"version", "x"}, `unexpected argument "x"`},
		{[]string{"-loss", "1.5"}, "-loss 1.5: out of range (0 to 1, or 0% to 100%)"},
		{[]string{"-loss", "lots"}, "-loss lots: not a probability"},
		{[]string{"-server", "-loss", "2%"}, "-loss is the terminal client's"},
		{[]string{"-spectate"}, "-spectate needs -connect HOST:PORT"},
		{[]string{"-connect", "h:1", "-room", " kitchen"}, `-room " kitchen": `},
		{[]string{"-server", "-room", "kitchen"}, "-room is the client's"},
		{[]string{"-connect", "h:1", "-room", "kitchen", "-lobby"}, "-room and -lobby do not go together"},
		{[]string{"-max-rooms", "0"}, "-max-rooms 0: out of range (1 to 1024)"},
		{[]string{"load", "-connect", "h:1", "-n", "10", "-rooms", "20"}, "-rooms 20: more rooms than the 10 players"},
		{[]string{"lab", "-loss2", "101%"}, "-loss2 101%: out of range"},
		{[]string{"lab", "-scale", "-lesson", "1"}, "-scale is a lab of its own: give it without -lesson, -lecture, -record or -wire"},
		{[]string{"lab", "-scale-steps", "10,5"}, "-scale-steps 10,5: steps [10 5]: each must be more than the one before, 1 to 10000"},
		{[]string{"lab", "-scale-steps", "10,many"}, `-scale-steps 10,many: "many" is not a number of bots`},
		{[]string{"lab", "-preset", "awful"}, `-preset awful: link: no preset named "awful" (there are good, average, poor)`},
		{[]string{"lab", "-speed", "2x"}, `-speed 2x: lab: speed "2x": want one of 1x, 1/2, 1/4, 1/10`},
		{[]string{"lab", "-latency2", "2s"}, "-latency2 2s: out of range (0 to 1s)"},
		{[]string{"lab", "-start", "0,0"}, "Player 1's start (0,0) is a wall"},
		{[]string{"lab", "-start2", "10,10"}, "the two players cannot start on the same cell"},
		{[]string{"lab", "extra"}, `unexpected argument "extra"`},
		{[]string{"replay"}, "the recording to replay is missing: gridlag replay FILE"},
		{[]string{"replay", "a.rec", "b.rec"}, `unexpected argument "b.rec": one recording at a time`},
		{[]string{"replay", "a.rec", "-link", "udp"}, `-link udp: want "tcp" or "datagram"`},
		{[]string{"replay", "a.rec", "-latency", "250"}, "-latency 250: a duration needs a unit"},
		{[]string{"replay", "a.rec", "-max-size", "1"}, "-max-size 1: out of range (4KiB to 4GiB)"},
		{[]string{"scenario", "-link", "carrier-pigeon"}, `-link carrier-pigeon: want "tcp" or "datagram"`},
		{[]string{"scenario", "-record-max", "lots"}, "-record-max lots: not a size"},
		{[]string{"-server", "-record", "x.rec"}, "-record and -cast are a player's"},
		{[]string{"-record", "x.rec", "-lobby"}, "-record records one game in one room"},
		{[]string{"-ssh-records", "-1"}, "-ssh-records -1: out of range"},
		{[]string{"-server", "-teachers", "keys"}, "-teachers names teachers by their SSH keys: give -ssh too"},
		{[]string{"-connect", "h:1", "-teach", "kitchen"}, "-teach is for -server"},
		{[]string{"-server", "-ssh", ":0", "-teach", " kitchen"}, `-teach " kitchen": `},
		{[]string{"-server", "-teach", "kitchen", "-log", "-"}, "-log - and -teach do not go together"},
		{[]string{"-server", "-agones", "-teach", "kitchen"}, "-teach and -agones do not go together"},
	}
	// The same checks in every mode: the game's and scenario's flags,
	// and bots'.
	for _, mode := range [][]string{nil, {"scenario"}, {"bots"}} {
		cases = append(cases,
			refusal{append(mode, "-latency", "-5ms"), "-latency -5ms: out of range (0 to 1s)"},
			refusal{append(mode, "-jitter", "-1ms"), "-jitter -1ms: out of range (0 to 1s)"},
			refusal{append(mode, "-jitter", "5"), "-jitter 5: a duration needs a unit, e.g. 5ms"})
	}
	for _, mode := range [][]string{nil, {"scenario"}, {"lab"}} {
		cases = append(cases,
			refusal{append(mode, "-unlag", "2s"), "-unlag 2s: out of range (0 to 1s)"},
			refusal{append(mode, "-unlag", "300"), "-unlag 300: a duration needs a unit, e.g. 300ms"},
			refusal{append(mode, "-protect", "31s"), "-protect 31s: out of range (0 to 30s)"},
			refusal{append(mode, "-protect", "2"), "-protect 2: a duration needs a unit, e.g. 2ms"},
			refusal{append(mode, "-lagcomp=maybe"), "-lagcomp"},
			refusal{append(mode, "-move-time", "0"), "-move-time 0: out of range (1ms to 1m5.535s)"},
			refusal{append(mode, "-move-time", "100"), "-move-time 100: a duration needs a unit, e.g. 100ms"})
	}
	for _, f := range []string{"-latency2", "-until"} {
		cases = append(cases, refusal{[]string{"scenario", f, "1"}, f + " 1: a duration needs a unit, e.g. 1ms"})
	}
	cases = append(cases,
		refusal{[]string{"scenario", "-latency2", "-1ms"}, "-latency2 -1ms: out of range (0 to 1s)"},
		refusal{[]string{"bots", "-duration", "10"}, "-duration 10: a duration needs a unit, e.g. 10ms"})
	checkRefusals(t, cases)
}

// refusal is a command line gridlag refuses, and what its usage error
// says.
type refusal struct {
	args []string
	want string
}

// checkRefusals runs each command line and fails unless it is refused with
// a usage error saying what it wants, printing nothing but the error.
func checkRefusals(t *testing.T, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		var out bytes.Buffer
		err := run(c.args, &out)
		var ue *cli.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gridlag %s: %v, want a usage error saying %q", strings.Join(c.args, " "), err, c.want)
		}
		if out.Len() > 0 {
			t.Errorf("gridlag %s printed %q; a refusal prints nothing but its error", strings.Join(c.args, " "), out.String())
		}
	}
}

// TestScenarioRefusesWhatItCannotShow: a timeline that would step through
// more states than scenario.MaxStates is refused at once, saying why; far
// presses without update ticks (rate 0) need no such work and run.
func TestScenarioRefusesWhatItCannotShow(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-rate", "1000", "-presses", "right@100h"},
			"a press at 100h at -rate 1000 is 360,000,000 states; at most 1,000,000 (press sooner or lower -rate)"},
		{[]string{"-rate", "1000", "-until", "100h"},
			"-until 100h at -rate 1000 is 360,000,000 states; at most 1,000,000 (shorten -until or lower -rate)"},
		{[]string{"-rate", "20", "-until", "10h", "-presses2", "left@0ms"},
			"-until 10h at -rate 20 is 1,440,000 states"},
	} {
		err := promptly(t, func() error { return scenarioMain(c.args, &bytes.Buffer{}) })
		var ue *cli.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("scenario %v: %v, want %q", c.args, err, c.want)
		}
	}

	var lines []jsonLine
	promptly(t, func() error {
		_, lines = seenX(t, "-presses", "right@100h")
		return nil
	})
	if last := lines[len(lines)-1]; last.TMS != 100*3600*1000+250 || last.Client != [2]int{11, 10} || len(last.Pending) != 0 {
		t.Errorf("rate 0, a press at 100h: the timeline ends with %+v, want the answer at 360000250 ms", last)
	}
}

// promptly runs f and returns its error, failing the test if f has not
// returned within a generous minute.
func promptly(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatal("still running after a minute")
		return nil
	}
}

// TestBadInputsEndTheProcess runs the binary: a flag error is two lines
// (the error and a pointer to -help, not the whole usage) and exit status
// 2; a map that is a FIFO or a device, and a scenario too long to run, end
// the process at once with a clear error.
func TestBadInputsEndTheProcess(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	bin := buildBinary(t)
	fifo := filepath.Join(t.TempDir(), "fifo.map")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	badTeachers := filepath.Join(t.TempDir(), "teachers")
	if err := os.WriteFile(badTeachers, []byte("# the class of 3B\nnot a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"-latency", "250"}, 2,
			"gridlag play: -latency 250: a duration needs a unit, e.g. 250ms\nRun 'gridlag play -help' for its flags.\n"},
		{[]string{"scenario", "bogus"}, 2,
			"gridlag scenario: unexpected argument \"bogus\"\nRun 'gridlag scenario -help' for its flags.\n"},
		{[]string{"scenario", "-rate", "1000", "-presses", "right@100h"}, 2,
			"gridlag scenario: a press at 100h at -rate 1000 is 360,000,000 states"},
		{[]string{"-server", "-addr", "127.0.0.1:0", "-map", fifo}, 1,
			"gridlag: -map: " + fifo + ": not a regular file (a named pipe)"},
		{[]string{"-server", "-addr", "127.0.0.1:0", "-map", "/dev/zero"}, 1,
			"gridlag: -map: /dev/zero: not a regular file (a device)"},
		{[]string{"-server", "-addr", "127.0.0.1:0", "-ssh", "127.0.0.1:0", "-ssh-key", filepath.Join(t.TempDir(), "host"), "-teachers", badTeachers}, 1,
			"gridlag: -teachers: teachers file " + badTeachers + ", line 2: "},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, bin, c.args...)
		cmd.Env = append(cmd.Environ(), "XDG_STATE_HOME="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		var ee *exec.ExitError
		switch {
		case timedOut:
			t.Errorf("gridlag %v still running after a minute", c.args)
		case !errors.As(err, &ee) || ee.ExitCode() != c.status:
			t.Errorf("gridlag %v: %v, want exit status %d", c.args, err, c.status)
		case !strings.Contains(stderr.String(), c.stderr):
			t.Errorf("gridlag %v wrote %q, want it to say %q", c.args, stderr.String(), c.stderr)
		}
		if c.status == 2 && strings.Count(stderr.String(), "\n") != 2 {
			t.Errorf("gridlag %v wrote %q, want two lines: the error and a pointer to -help", c.args, stderr.String())
		}
	}
}
