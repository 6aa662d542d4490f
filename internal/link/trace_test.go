package link

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBundledTracesParse: every bundled trace parses, is called by its
// file's name, has a title, and says where its figures come from (a
// source with its address); each of its stalls is a figure its header
// gives.
func TestBundledTracesParse(t *testing.T) {
	names := BundledTraces()
	if want := []string{"geo-satellite", "lte-handover", "starlink", "wifi-scan"}; !slices.Equal(names, want) {
		t.Fatalf("bundled traces %v, want %v", names, want)
	}
	for _, name := range names {
		tr, err := BundledTrace(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.Name != name || tr.Title == "" || len(tr.Steps) == 0 {
			t.Fatalf("%s: name %q title %q, %d steps", name, tr.Name, tr.Title, len(tr.Steps))
		}
		header := traceHeader(tr)
		if !strings.Contains(header, "https://") || !strings.Contains(header, "Where the figures come from") {
			t.Fatalf("%s: the header cites no source with its address:\n%s", name, header)
		}
		for _, s := range tr.Steps {
			if s.Set&SetStall != 0 && !strings.Contains(header, msText(s.Stall)) {
				t.Errorf("%s line %d: a stall of %s that the header does not give", name, s.Line, msText(s.Stall))
			}
		}
	}
}

// traceHeader is the comments of a trace's file, joined.
func traceHeader(tr *Trace) string {
	var b strings.Builder
	for _, l := range strings.Split(tr.Text, "\n") {
		if c, ok := strings.CutPrefix(l, "#"); ok {
			b.WriteString(strings.TrimSpace(c) + " ")
		}
	}
	return b.String()
}

// msText writes d as a header does: "27.5 ms".
func msText(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", float64(d)/1e6), "0"), ".") + " ms"
}

// TestBundledTracesSayWhatTheyDo checks the figures each bundled trace's
// header gives against its steps: the round trips, stalls and losses it
// promises are those its lines set.
func TestBundledTracesSayWhatTheyDo(t *testing.T) {
	rtts := func(tr *Trace, label string) (out []time.Duration) {
		for _, s := range tr.Steps {
			if s.Label == label || strings.HasPrefix(s.Label, label+" (") {
				out = append(out, 2*s.Delay)
			}
		}
		return out
	}
	star, _ := BundledTrace("starlink")
	levels, spikes := rtts(star, "tracking a satellite"), rtts(star, "satellite handover")
	if want := []time.Duration{30 * ms, 36 * ms, 32 * ms, 40 * ms}; !slices.Equal(levels, want) {
		t.Fatalf("starlink's levels %v, want the header's %v", levels, want)
	}
	var added []time.Duration
	for i, s := range spikes {
		added = append(added, s-levels[i])
	}
	if want := []time.Duration{40 * ms, 40 * ms, 50 * ms, 30 * ms}; !slices.Equal(added, want) || spikes[2] != 82*ms {
		t.Fatalf("starlink's handovers add %v (the third to %v), want the header's %v (to 82ms)", added, spikes[2], want)
	}
	if j := star.Steps[0].Jitter; j != 7*ms || star.Steps[0].Loss != 0.02 || star.Steps[1].Loss != 0.01 {
		t.Fatalf("starlink's jitter %v, losses %v and %v: want the header's 7 ms, 2%% and 1%%", j, star.Steps[0].Loss, star.Steps[1].Loss)
	}
	lte, _ := BundledTrace("lte-handover")
	if s := lte.Steps[0]; 2*s.Delay != 44*ms || 2*(s.Delay+s.Jitter) != 66*ms {
		t.Fatalf("lte-handover's round trips %v to %v, want 44 to 66 ms", 2*s.Delay, 2*(s.Delay+s.Jitter))
	}
	geo, _ := BundledTrace("geo-satellite")
	if s := geo.Steps[0]; 2*s.Delay != 558*ms {
		t.Fatalf("geo-satellite's round trip %v, want RFC 2488's 558 ms", 2*s.Delay)
	}
	wifi, _ := BundledTrace("wifi-scan")
	good, _ := PresetNamed("good")
	if s := wifi.Steps[0]; s.Delay != good.Delay-good.Spread || s.Jitter != good.Jitter() || s.Loss != good.Loss || wifi.Length != 120*time.Second {
		t.Fatalf("wifi-scan's start %+v, want the good preset's delay, jitter and loss, and a scan every 120 s", s)
	}
}

// TestParseTrace: a trace's header and steps, the settings a step names
// alone, labels, and repeat.
func TestParseTrace(t *testing.T) {
	tr, err := ParseTrace([]byte("gridlag-trace 1\r\n# a comment\n\nname   t-1\ntitle  A test\nlength 2s\nrepeat\n" +
		"at 0s both delay 10ms jitter 5ms loss 1.5%\n" +
		"at 0.5s\tup delay 100ms \"slow up\"\n" +
		"at 500ms down stall 1s loss 0%\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{At: 0, Dir: DirBoth, Set: SetDelay | SetJitter | SetLoss, Delay: 10 * ms, Jitter: 5 * ms, Loss: 0.015, Line: 8},
		{At: 500 * ms, Dir: DirUp, Set: SetDelay, Delay: 100 * ms, Label: "slow up", Line: 9},
		{At: 500 * ms, Dir: DirDown, Set: SetStall | SetLoss, Stall: time.Second, Line: 10},
	}
	if tr.Name != "t-1" || tr.Title != "A test" || tr.Length != 2*time.Second || !tr.Repeat || !slices.Equal(tr.Steps, want) {
		t.Fatalf("parsed %+v\nwant steps %+v", tr, want)
	}
	if got := tr.Steps[1].Name(); got != "slow up" {
		t.Fatalf("a labelled step's name %q", got)
	}
	if got := tr.Steps[2].Name(); got != "down loss 0% stall 1s" {
		t.Fatalf("an unlabelled step's name %q", got)
	}
}

// TestParseTraceRefuses: each kind of bad trace is refused with the line
// it is on and what is wrong, and never panics.
func TestParseTraceRefuses(t *testing.T) {
	const head = "gridlag-trace 1\nname t\ntitle T\nlength 10s\n"
	const start = "at 0s both delay 10ms jitter 0ms loss 0%\n"
	for _, c := range []struct{ text, want string }{
		{"", "not a gridlag trace"},
		{"gridlag-trace 2\n", `line 1: gridlag-trace version "2"`},
		{head, "line 4: the trace has no step"},
		{"gridlag-trace 1\ntitle T\nlength 1s\n" + start, "line 4: the trace has no name"},
		{head + "at 0s both delay 10ms\n", "line 5: the start (at 0s) does not set jitter and loss up"},
		{head + "at 0s up delay 1ms jitter 0ms loss 0%\n", "line 5: the start (at 0s) does not set delay, jitter and loss down"},
		{head + "at 1s both delay 10ms jitter 0ms loss 0%\n", "line 5: the first step is at 1s"},
		{head + start + "at 5s both stall 1s\nat 4s up delay 1ms\n", "line 7: at 4s comes before the step above it, at 5s"},
		{head + start + "at 5s both stall 1s\nat 5s up delay 1ms\n", "line 7: up is changed at 5s already, on line 6"},
		{head + start + "at 10s both stall 1s\n", "line 6: at 10s is not before the trace's length, 10s"},
		{head + start + "at 1s both delay 501ms\n", "line 6: delay 501ms: at most 500ms one way"},
		{head + start + "at 1s both jitter 2s\n", "line 6: jitter 2s: at most 500ms"},
		{head + start + "at 1s both stall 31s\n", "line 6: stall 31s: more than 0s and at most 30s"},
		{head + start + "at 1s both stall 0s\n", "line 6: stall 0s"},
		{head + start + "at 1s both loss 101%\n", "line 6: loss: 101%: from 0% to 100%"},
		{head + start + "at 1s both loss 0.5\n", `line 6: loss: "0.5" is not a percentage`},
		{head + start + "at 1s both loss NaN%\n", `line 6: loss: "NaN%" is not a percentage`},
		{head + start + "at 1s both delay -5ms\n", `line 6: delay: "-5ms" is not a duration`},
		{head + start + "at 1s both delay 5\n", `line 6: delay: "5" is not a duration`},
		{head + start + "at 1s sideways delay 5ms\n", `line 6: "sideways" is no direction`},
		{head + start + "at 1s both dealy 5ms\n", `line 6: "dealy" is not a setting`},
		{head + start + "at 1s both delay 5ms delay 6ms\n", "line 6: delay twice"},
		{head + start + "at 1s both delay\n", `line 6: "delay" needs a value`},
		{head + start + "at 1s\n", "line 6: a step is: at TIME"},
		{head + start + "at 1s both\n", "line 6: the step sets nothing"},
		{head + start + "at 1s both \"just a label\"\n", "line 6: the step sets nothing"},
		{head + start + "at 1s both stall 1s \"unterminated\n", "line 6: a label is one quoted text"},
		{head + start + "at 1s both stall 1s \"\"\n", "line 6: a label is 1 to 32 characters"},
		{head + start + "name again\n", "line 6: name comes after the first step"},
		{head + "name twice\n", "line 5: a second name (the first is on line 2)"},
		{head + "repeat now\n", "line 5: repeat takes nothing after it"},
		{"gridlag-trace 1\nname t\ntitle T\nlength 999ms\nrepeat\n" + start, "line 4: length 999ms: a trace that repeats lasts at least 1s"},
		{head + "launch\n", `line 5: "launch" is not a trace line`},
		{"gridlag-trace 1\nname Bad_Name\n", "line 2: a name is 1 to 32 lower-case letters"},
		{"gridlag-trace 1\nlength 2h\n", "line 2: length 2h0m0s: a trace lasts more than 0s and at most 1h0m0s"},
		{"gridlag-trace 1\nname t\ntitle T\nat 0s both delay 1ms\n", "line 4: a step before the length"},
		{head + "# caf\xe9\n", "line 5: not UTF-8 text"},
		{head + "# a bell \a\n", "line 5: a control character"},
		{head + strings.Repeat("#\n", MaxTraceLines), "lines: a trace has at most 2000"},
		{head + strings.Repeat("#", MaxTraceBytes), "more than 65536 bytes"},
	} {
		tr, err := ParseTrace([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v (%v)\nwant an error with %q", c.text, err, tr, c.want)
		}
	}
}

// TestNotATraceIsNotQuoted: a file that is not a trace (a key, a
// password file) is refused without a word of it in the error.
func TestNotATraceIsNotQuoted(t *testing.T) {
	for _, text := range []string{
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n",
		"root:x:0:0:root:/root:/bin/bash\n",
		"gridlag-trace hunter2-is-my-password-and-it-is-long\n",
		"\x00\x01\x02secret",
	} {
		_, err := ParseTrace([]byte(text))
		if err == nil {
			t.Fatalf("%q parsed", text)
		}
		for _, word := range []string{"OPENSSH", "b3Blbn", "root", "bash", "hunter2", "secret"} {
			if strings.Contains(err.Error(), word) {
				t.Fatalf("the error %q quotes the file", err)
			}
		}
	}
}

// TestLoadTrace: a bundled trace by name, a file by path, read at most
// MaxTraceBytes, and a missing one named with the bundled names.
func TestLoadTrace(t *testing.T) {
	open := func(p string) (io.ReadCloser, error) { return os.Open(p) }
	tr, err := LoadTrace("wifi-scan", open)
	if err != nil || tr.Name != "wifi-scan" {
		t.Fatalf("bundled: %v, %v", tr, err)
	}
	dir := t.TempDir()
	path := dir + "/mine.trace"
	os.WriteFile(path, []byte("gridlag-trace 1\nname mine\ntitle Mine\nlength 1s\nat 0s both delay 1ms jitter 0ms loss 0%\n"), 0o644)
	if tr, err := LoadTrace(path, open); err != nil || tr.Name != "mine" {
		t.Fatalf("file: %v, %v", tr, err)
	}
	_, err = LoadTrace("wifi", open)
	if err == nil || !strings.Contains(err.Error(), "starlink") {
		t.Fatalf("a missing name: %v", err)
	}
	big := dir + "/big.trace"
	os.WriteFile(big, bytes.Repeat([]byte("#"), 10<<20), 0o644)
	if _, err := LoadTrace(big, open); err == nil || !strings.Contains(err.Error(), "big.trace: more than 65536 bytes") {
		t.Fatalf("a big file: %v", err)
	}
}

// FuzzParseTrace: ParseTrace never panics; what it takes keeps the
// limits (times within the length and never going back, values in
// range, the start setting everything both ways) and parses the same
// again.
func FuzzParseTrace(f *testing.F) {
	for _, name := range BundledTraces() {
		data, _ := bundled.ReadFile("traces/" + name + ".trace")
		f.Add(data)
	}
	f.Add([]byte("gridlag-trace 1\nname a\ntitle b\nlength 1s\nrepeat\nat 0s both delay 0ms jitter 0ms loss 0%\nat 0.5s up stall 1s \"x\"\n"))
	f.Add([]byte("gridlag-trace 1\nname a\ntitle b\nlength 1s\nat 0s up delay 1ms jitter 1ms loss 1%\nat 0s down delay 1ms jitter 1ms loss 100%\n"))
	f.Add([]byte("gridlag-trace 1\nat 0s both delay 1e3ms\n"))
	f.Add([]byte("gridlag-trace 1\r\nname a\r\nlength 9223372036854775807ns\r\n"))
	f.Add([]byte("not a trace"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseTrace(data)
		if err != nil {
			if tr != nil {
				t.Fatal("a trace and an error")
			}
			return
		}
		if tr.Length <= 0 || tr.Length > MaxTraceLength || len(tr.Steps) == 0 || tr.Steps[0].At != 0 {
			t.Fatalf("length %v, %d steps", tr.Length, len(tr.Steps))
		}
		var set [2]Setting
		for i, s := range tr.Steps {
			if s.At < 0 || s.At >= tr.Length || i > 0 && s.At < tr.Steps[i-1].At {
				t.Fatalf("step %d at %v", i, s.At)
			}
			if s.Delay < 0 || s.Delay > MaxTraceDelay || s.Jitter < 0 || s.Jitter > MaxTraceDelay ||
				s.Stall < 0 || s.Stall > MaxTraceStall || math.IsNaN(s.Loss) || s.Loss < 0 || s.Loss > 1 || s.Set == 0 {
				t.Fatalf("step %d out of range: %+v", i, s)
			}
			if s.At == 0 {
				for j, d := range []Dir{DirUp, DirDown} {
					if s.Dir&d != 0 {
						set[j] |= s.Set
					}
				}
			}
		}
		if set[0]&setAll != setAll || set[1]&setAll != setAll {
			t.Fatalf("the start sets %v %v", set[0], set[1])
		}
		again, err := ParseTrace([]byte(tr.Text))
		if err != nil || !slices.Equal(again.Steps, tr.Steps) {
			t.Fatalf("parses differently again: %v", err)
		}
		// A link follows it without panicking.
		l := New[int, int](0, 0, 1)
		l.Follow(tr, 0)
		for i := range 50 {
			now := time.Duration(i) * tr.Length / 10
			l.Up.Send(now, i)
			l.Down.Send(now, i)
			l.Up.Receive(now, nil)
		}
	})
}

// TestDocsExampleParses: the trace docs/traces.md shows parses, and does
// what the page says of it.
func TestDocsExampleParses(t *testing.T) {
	page, err := os.ReadFile("../../docs/traces.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "## The format\n\n```\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("docs/traces.md has no example under \"The format\"")
	}
	tr, err := ParseTrace([]byte(example))
	if err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	if tr.Name != "tunnel" || !tr.Repeat || len(tr.Steps) != 4 || tr.Steps[1].Stall != 700*ms || tr.Steps[1].Label != "tunnel" {
		t.Fatalf("the example parsed as %+v", tr)
	}
	for _, name := range BundledTraces() {
		if !strings.Contains(string(page), "`"+name+"`") {
			t.Errorf("docs/traces.md does not list the bundled trace %s", name)
		}
	}
}
