package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tunnelTrace is a trace with a stall in the middle of a run: 50 ms
// each way, and 700 ms from 350 ms with nothing through either way.
const tunnelTrace = `gridlag-trace 1
# A test: a car enters a tunnel.
name   tunnel
title  A tunnel: 700 ms with nothing through
length 5s
at 0s    both delay 50ms jitter 0ms loss 0%  "open road"
at 350ms both stall 700ms                     "tunnel"
`

// TestScenarioTraceStall: gridlag scenario -trace with a stall mid-run,
// the player pressing RIGHT every 100 ms, on the virtual clock. The
// timeline names each step of the trace when it comes; during the stall
// the server processes nothing while the player's inputs pile up,
// predicted at once; the stall's end releases them in one burst, which
// the server processes at one moment, and their acknowledgements come
// down in one burst too; the burst is more than the server's speed
// limit lets through back to back (6), so it refuses the last, and the
// player sees exactly one correction, of one cell, when that input's
// acknowledgement arrives. Nothing else corrects.
func TestScenarioTraceStall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tunnel.trace")
	if err := os.WriteFile(path, []byte(tunnelTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	var presses []string
	for ms := 0; ms <= 1100; ms += 100 {
		presses = append(presses, "right@"+strconv.Itoa(ms)+"ms")
	}
	_, lines := seenX(t, "-trace", path, "-presses", strings.Join(presses, ","))
	at := func(event string) []int64 {
		var ts []int64
		for _, l := range lines {
			if strings.Contains(l.Event, event) {
				ts = append(ts, l.TMS)
			}
		}
		return ts
	}
	if got := at("network (trace tunnel): open road"); len(got) != 1 || got[0] != 0 {
		t.Errorf("the trace's first step named at %v, want [0]", got)
	}
	if got := at("network (trace tunnel): tunnel"); len(got) != 1 || got[0] != 350 {
		t.Errorf("the stall named at %v, want [350]", got)
	}
	// Held: nothing reaches the server during the stall, the inputs
	// pressed meanwhile pile up, each predicted at once.
	mostPending := 0
	for _, l := range lines {
		if strings.Contains(l.Event, "server: processes") && l.TMS > 350 && l.TMS < 1050 {
			t.Errorf("t=%d: the server processed an input during the stall: %s", l.TMS, l.Event)
		}
		if strings.Contains(l.Event, "press RIGHT") && l.TMS > 350 && l.TMS < 1050 && !strings.Contains(l.Event, "predicts") {
			t.Errorf("t=%d: a press during the stall was not predicted: %s", l.TMS, l.Event)
		}
		if l.TMS < 1050 {
			mostPending = max(mostPending, len(l.Pending))
		}
	}
	if mostPending != 8 {
		t.Errorf("at most %d inputs pending before the stall's end, want the 8 pressed from 300 to 1000 ms", mostPending)
	}
	// Released in a burst: the seven held inputs processed at 1050, their
	// acknowledgements all at 1100.
	if got := at("server: processes"); countAt(got, 1050) != 7 {
		t.Errorf("the server processed inputs at %v, want 7 at once at 1050 (the stall's end)", got)
	}
	if got := at("state arrives, ack #"); countAt(got, 1100) != 7 {
		t.Errorf("acknowledgements arrived at %v, want 7 at once at 1100", got)
	}
	// One correction: the speed limit refused the burst's last input.
	corr := at("CORRECTION")
	if len(corr) != 1 || corr[0] != 1100 {
		t.Fatalf("corrections at %v, want exactly one, at 1100", corr)
	}
	for _, l := range lines {
		if strings.Contains(l.Event, "CORRECTION") && (!strings.Contains(l.Event, "(21,10) -> (20,10)") || !strings.Contains(l.Event, "speed limit")) {
			t.Errorf("the correction: %s, want one cell back, refused by the speed limit", l.Event)
		}
	}
	last := lines[len(lines)-1]
	if last.Corr != 1 || last.Client != last.Server || len(last.Pending) != 0 {
		t.Errorf("at the end: %d corrections, sees %v, server %v, pending %v", last.Corr, last.Client, last.Server, last.Pending)
	}
}

// countAt counts the times in ts equal to t.
func countAt(ts []int64, t int64) int {
	n := 0
	for _, x := range ts {
		if x == t {
			n++
		}
	}
	return n
}

// TestTraceFlagRefuses: -trace refuses a missing file, a file that is
// not a trace (without quoting it), a bad trace with its line, and a
// name that is neither, listing the bundled ones; -trace2 needs a
// second player; the datagram link follows no trace.
func TestTraceFlagRefuses(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	os.WriteFile(secret, []byte("password=hunter2\n"), 0o644)
	bad := filepath.Join(dir, "bad.trace")
	os.WriteFile(bad, []byte(strings.Replace(tunnelTrace, "stall 700ms", "stall 70s", 1)), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-trace", filepath.Join(dir, "none.trace")}, "no such file"},
		{[]string{"-trace", secret}, "not a gridlag trace"},
		{[]string{"-trace", bad}, "bad.trace: line 7: stall 1m10s: more than 0s and at most 30s"},
		{[]string{"-trace", "wi-fi"}, "there are geo-satellite, lte-handover, starlink, wifi-scan"},
		{[]string{"-trace2", "starlink"}, "-trace2 is the second player's"},
		{[]string{"-trace", "starlink", "-link", "datagram"}, "the datagram link follows no trace"},
	} {
		var out bytes.Buffer
		err := scenarioMain(c.args, &out)
		if err == nil || !strings.Contains(err.Error()+out.String(), c.want) {
			t.Errorf("%v: %v %s, want %q", c.args, err, out.String(), c.want)
		}
		if strings.Contains(err.Error()+out.String(), "hunter2") {
			t.Errorf("%v quoted the file: %v", c.args, err)
		}
	}
}

// TestTraceRecordingReplays: a scenario recorded with -trace carries the
// trace, and its replay prints byte for byte what the scenario printed;
// the what-if -trace puts a recording made on a steady link through a
// trace, and the differences say so: the stall holds the inputs.
func TestTraceRecordingReplays(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tunnel.trace")
	os.WriteFile(path, []byte(tunnelTrace), 0o644)
	presses := "right@0ms,right@100ms,right@200ms,right@400ms,right@500ms"
	rec := filepath.Join(dir, "traced.rec")
	want := runScenario(t, "-json", "-trace", path, "-presses", presses, "-record", rec)
	os.Remove(path) // the recording carries the trace: the file is not needed
	if got := runReplay(t, rec, "-json"); got != want {
		t.Fatalf("the scenario printed\n%s\nits replay printed\n%s", want, got)
	}
	if !strings.Contains(want, "network (trace tunnel): tunnel") {
		t.Fatalf("the timeline does not name the trace's stall:\n%s", want)
	}
	steady := filepath.Join(dir, "steady.rec")
	runScenario(t, "-latency", "100ms", "-presses", presses, "-record", steady)
	got := runReplay(t, steady, "-table", "-trace", "lte-handover")
	for _, w := range []string{"network (trace lte-handover): LTE, in a cell", "trace lte-handover"} {
		if !strings.Contains(got, w) {
			t.Fatalf("the what-if -trace lte-handover does not show %q:\n%s", w, got)
		}
	}
}

// TestTraceOnEachCommand: -trace is a flag of every command whose link
// may follow one, and of the old forms that had it: a player's (play,
// watch, lobby; once), the lab's and the scenario's (with -trace2 and
// NAME@TIME), a replay's what-if, and a server's (serve, teach: the
// traces offered to its teachers, again for more).
func TestTraceOnEachCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tunnel.trace")
	if err := os.WriteFile(path, []byte(tunnelTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"play", "-trace", "lte-handover"},
		{"play", "127.0.0.1:7777", "-trace", path},
		{"watch", "127.0.0.1:7777", "-trace", "starlink"},
		{"lobby", "-trace", "wifi-scan"},
		{"-trace", "lte-handover"},
		{"-connect", "127.0.0.1:7777", "-trace", "starlink"},
	} {
		inv, err := parse(args, io.Discard)
		if err != nil {
			t.Fatalf("gridlag %s: %v", strings.Join(args, " "), err)
		}
		if got, want := inv.fs.Lookup("trace").Value.String(), args[len(args)-1]; got != want {
			t.Errorf("gridlag %s: -trace is %q", strings.Join(args, " "), got)
		}
	}
	if _, err := parse([]string{"play", "-trace", "starlink", "-trace", "wifi-scan"}, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "-trace wifi-scan: a second trace (after starlink): a link follows one") {
		t.Errorf("play with two traces: %v", err)
	}
	for _, args := range [][]string{{"teach", "3b", "-trace", path, "-trace", "starlink"}, {"-server", "-teach", "3b", "-trace", path}} {
		inv, err := parse(args, io.Discard)
		if err != nil || inv.cmd != teachCommand {
			t.Fatalf("gridlag %s: %v", strings.Join(args, " "), err)
		}
		if got := inv.fs.Lookup("trace").Value.String(); got != "tunnel" && got != "tunnel,starlink" {
			t.Errorf("gridlag %s: -trace is %q", strings.Join(args, " "), got)
		}
	}
	for _, args := range [][]string{{"serve", "-trace", path, "-trace", "starlink"}, {"-server", "-trace", path}} {
		c := parseGame(t, args...)
		var names []string
		for _, tr := range c.Server.Hub.Traces {
			names = append(names, tr.Name)
		}
		if got := strings.Join(names, " "); got != "geo-satellite lte-handover starlink wifi-scan tunnel" && got != "geo-satellite lte-handover wifi-scan tunnel starlink" {
			t.Errorf("gridlag %s offers the teachers %s, want the bundled traces and tunnel", strings.Join(args, " "), got)
		}
	}
	l, _, err := newLab([]string{"-trace", "lte-handover@14.9s", "-trace2", path}, io.Discard, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Players()[0].Trace() + " " + l.Players()[1].Trace(); got != "lte-handover tunnel" {
		t.Errorf("gridlag lab -trace lte-handover@14.9s -trace2 tunnel: the links follow %q", got)
	}
	if _, _, err := newLab([]string{"-trace", path + "@6s"}, io.Discard, time.Now); err == nil || !strings.Contains(err.Error(), "@6s is not before the trace's length, 5s") {
		t.Errorf("gridlag lab -trace tunnel.trace@6s (a trace of 5 s that does not repeat): %v", err)
	}
}
