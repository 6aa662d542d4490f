package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"gridlag/internal/doctest"
)

type jsonLine struct {
	TMS     int64    `json:"t_ms"`
	Event   string   `json:"event"`
	Client  [2]int   `json:"client"`
	Server  [2]int   `json:"server"`
	Pending []uint32 `json:"pending"`
	Player  string   `json:"player"`
	Corr    int      `json:"corrections"`
}

// seenX runs `gridlag scenario -json ARGS` and returns what the player sees
// (x) at each t_ms, the last line of a moment winning.
func seenX(t *testing.T, args ...string) (map[int64]int, []jsonLine) {
	t.Helper()
	var out bytes.Buffer
	if err := scenarioMain(append([]string{"-json"}, args...), &out); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	var lines []jsonLine
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if bytes.HasPrefix(sc.Bytes(), []byte(`{"input":`)) || bytes.HasPrefix(sc.Bytes(), []byte(`{"budget":`)) {
			continue // an input's life, the budget: see TestScenarioCommandInputs
		}
		var l jsonLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		if l.Pending == nil {
			t.Fatalf("pending must be a list, even empty: %s", sc.Text())
		}
		lines = append(lines, l)
		if l.Player == "you" {
			seen[l.TMS] = l.Client[0]
		}
	}
	return seen, lines
}

func TestScenarioCommandDefaults(t *testing.T) {
	s, _ := seenX(t)
	for tm, want := range map[int64]int{0: 11, 100: 12, 125: 12, 225: 12, 250: 12, 350: 12} {
		if s[tm] != want {
			t.Errorf("t=%d sees %d, want %d", tm, s[tm], want)
		}
	}
	s, _ = seenX(t, "-reconcile=false")
	for tm, want := range map[int64]int{0: 11, 100: 12, 250: 11, 350: 12} {
		if s[tm] != want {
			t.Errorf("-reconcile=false: t=%d sees %d, want %d", tm, s[tm], want)
		}
	}
	s, _ = seenX(t, "-predict=false")
	for tm, want := range map[int64]int{0: 10, 100: 10, 250: 11, 350: 12} {
		if s[tm] != want {
			t.Errorf("-predict=false: t=%d sees %d, want %d", tm, s[tm], want)
		}
	}
}

func TestScenarioCommandFlags(t *testing.T) {
	s, lines := seenX(t, "-latency", "100ms", "-presses", "left@0ms,left@50ms", "-start", "12,10", "-rate", "10")
	if s[0] != 11 || s[50] != 11 || s[100] != 10 {
		t.Fatalf("sees %d at 0, %d at 50 (held by the speed limit), %d at 100; want 11 11 10", s[0], s[50], s[100])
	}
	if last := lines[len(lines)-1]; last.Server != [2]int{10, 10} || len(last.Pending) != 0 {
		t.Fatalf("final line %+v", last)
	}
	var out bytes.Buffer
	for _, bad := range [][]string{{"-presses", "sideways@0ms"}, {"-start", "0,0"}, {"-presses", "right"}} {
		if err := scenarioMain(bad, &out); err == nil {
			t.Errorf("scenario %v: no error", bad)
		}
	}
}

// TestScenarioCommandInputs: -json prints each input's life where it ends
// and the budget last; -inputs shows the lives in the table, which shows
// the budget after the timeline.
func TestScenarioCommandInputs(t *testing.T) {
	var out bytes.Buffer
	if err := scenarioMain([]string{"-json"}, &out); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n"))
	want := `{"input":{"player":"you","n":1,"pressed_ms":0,"sent_ms":0,"arrived_ms":125,"applied_ms":125,"ack_sent_ms":125,"acked_ms":250,"replayed":1,"corrected":false}}`
	if !bytes.Contains(out.Bytes(), []byte(want+"\n")) {
		t.Errorf("-json lacks %s:\n%s", want, out.String())
	}
	var budget struct {
		Budget struct {
			TotalMS int64 `json:"total_ms"`
			Parts   []struct {
				Part string `json:"part"`
				MS   int64  `json:"ms"`
			} `json:"parts"`
		} `json:"budget"`
	}
	if err := json.Unmarshal(lines[len(lines)-1], &budget); err != nil || len(budget.Budget.Parts) != 6 || budget.Budget.TotalMS != 367 {
		t.Errorf("last line %s (%v), want the budget: 6 parts, 367 ms", lines[len(lines)-1], err)
	}
	out.Reset()
	if err := scenarioMain([]string{"-inputs"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"you: #1 RIGHT lived: pressed 0, sent 0, arrived 125, applied 125, ack sent 125, acked 250; replayed 1, predicted right",
		"latency budget: you press, a player with your link sees it (mean of 2 moves)",
		"one-way up               125 ms",
	} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("-inputs lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := scenarioMain(nil, &out); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte("lived:")) {
		t.Errorf("the table shows the lives without -inputs:\n%s", out.String())
	}
}

// TestDocsQuoteTheLossLines: the lines docs/lab.md quotes of the two
// lossy runs are lines gridlag scenario prints (issue 32: which message
// was lost and resent, and a run that ends unacknowledged).
func TestDocsQuoteTheLossLines(t *testing.T) {
	for _, args := range [][]string{{"-loss", "50%", "-seed", "2"}, {"-loss", "0.9", "-seed", "3"}} {
		out := runScenario(t, args...)
		quoted := 0
		for _, l := range strings.Split(out, "\n") {
			f := strings.Fields(l)
			if len(f) < 5 || !strings.Contains(l, " lost at ") && !strings.Contains(l, "never acknowledged") {
				continue
			}
			if doctest.Says(t, strings.Join(f, " ")) || doctest.Says(t, "`"+strings.Join(f[4:], " ")+"`") {
				quoted++
			}
		}
		if quoted == 0 {
			t.Errorf("the docs quote no loss line of gridlag scenario %s, which prints\n%s", strings.Join(args, " "), out)
		}
	}
}
