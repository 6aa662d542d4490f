package scenario

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
)

const ms = time.Millisecond

// seen returns the x the player sees at each t_ms: the last line at that
// moment wins.
func seen(lines []Line) map[int64]int {
	out := map[int64]int{}
	for _, l := range lines {
		if l.Player == "you" {
			out[l.TMS] = l.Client[0]
		}
	}
	return out
}

// xs lists the distinct x values the player sees over time, in order.
func xs(lines []Line) []int {
	var out []int
	var times []int64
	last := map[int64]int{}
	for _, l := range lines {
		if l.Player != "you" {
			continue
		}
		if _, ok := last[l.TMS]; !ok {
			times = append(times, l.TMS)
		}
		last[l.TMS] = l.Client[0]
	}
	for _, t := range times {
		if len(out) == 0 || out[len(out)-1] != last[t] {
			out = append(out, last[t])
		}
	}
	return out
}

func run(t *testing.T, cfg Config) []Line {
	t.Helper()
	lines, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestDefaultIsTheArticle(t *testing.T) {
	lines := run(t, Default())
	s := seen(lines)
	if s[0] != 11 || s[100] != 12 {
		t.Fatalf("sees %d at t=0 and %d at t=100, want 11 and 12", s[0], s[100])
	}
	if got := xs(lines); len(got) != 2 || got[0] != 11 || got[1] != 12 {
		t.Fatalf("x over time %v, want 11 then 12 and never 11 again", got)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, lines); err != nil {
		t.Fatal(err)
	}
	for _, raw := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		if _, ok := m["input"]; ok {
			if len(m) != 1 {
				t.Fatalf("input line %s has more than its input", raw)
			}
			continue
		}
		for _, k := range []string{"t_ms", "event", "client", "server", "pending"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("line %s lacks %q", raw, k)
			}
		}
	}
	last := lines[len(lines)-1]
	if len(last.Pending) != 0 || last.Server != [2]int{12, 10} || last.Corr != 0 {
		t.Fatalf("final line %+v: want nothing pending, server at 12, no correction", last)
	}
}

func TestWithoutReconciliationJumpsBack(t *testing.T) {
	cfg := Default()
	cfg.Reconcile = false
	lines := run(t, cfg)
	s := seen(lines)
	want := map[int64]int{0: 11, 100: 12, 250: 11, 350: 12}
	for tm, x := range want {
		if s[tm] != x {
			t.Errorf("t=%d: sees x=%d, want %d", tm, s[tm], x)
		}
	}
	if got := xs(lines); len(got) != 4 {
		t.Errorf("x over time %v, want 11 12 11 12", got)
	}
}

func TestWithoutPredictionWaits(t *testing.T) {
	cfg := Default()
	cfg.Predict, cfg.Reconcile = false, false
	lines := run(t, cfg)
	for _, l := range lines {
		switch {
		case l.TMS < 250 && l.Client[0] != 10:
			t.Fatalf("t=%d: sees %d before the server answered", l.TMS, l.Client[0])
		}
	}
	s := seen(lines)
	if s[250] != 11 || s[350] != 12 {
		t.Fatalf("sees %d at 250 and %d at 350, want 11 then 12", s[250], s[350])
	}
}

func TestOtherLatencyAndDirection(t *testing.T) {
	cfg := Default()
	cfg.Player.Latency = 300 * ms
	cfg.Player.Presses = []Press{{At: 0, Dir: grid.Up}, {At: 100 * ms, Dir: grid.Left}}
	cfg.Reconcile = false
	lines := run(t, cfg)
	// Up then left from (10,10): (10,9), then (9,9). The first state comes
	// back at 300 ms: without reconciliation the player sees (10,9) again
	// until the second ack at 400 ms.
	s := map[int64][2]int{}
	for _, l := range lines {
		s[l.TMS] = l.Client
	}
	if s[100] != [2]int{9, 9} || s[300] != [2]int{10, 9} || s[400] != [2]int{9, 9} {
		t.Fatalf("without reconciliation sees %v at 100, %v at 300, %v at 400; want (9,9) (10,9) (9,9)", s[100], s[300], s[400])
	}
	cfg.Reconcile = true
	lines = run(t, cfg)
	for _, l := range lines {
		if l.TMS >= 100 && l.Client != [2]int{9, 9} {
			t.Fatalf("t=%d with reconciliation sees %v, want (9,9)", l.TMS, l.Client)
		}
	}
}

func TestWallInTheWay(t *testing.T) {
	cfg := Default()
	// (17,10) is floor and (18,10) too; (18,8) is the room's wall: start
	// below it and press UP twice.
	cfg.Player.Start = grid.Pos{X: 18, Y: 9}
	cfg.Player.Presses = []Press{{At: 0, Dir: grid.Up}, {At: 100 * ms, Dir: grid.Up}}
	lines := run(t, cfg)
	for _, l := range lines {
		if l.Client != [2]int{18, 9} || l.Server != [2]int{18, 9} {
			t.Fatalf("t=%d: moved through a wall: sees %v, server %v", l.TMS, l.Client, l.Server)
		}
	}
	if last := lines[len(lines)-1]; len(last.Pending) != 0 || last.Ack != 2 || last.Corr != 0 {
		t.Fatalf("final %+v: want both inputs acknowledged, no correction", last)
	}
}

func TestPressOverTheSpeedLimitIsHeld(t *testing.T) {
	cfg := Default()
	cfg.Player.Presses = []Press{{At: 0, Dir: grid.Right}, {At: 30 * ms, Dir: grid.Right}}
	lines := run(t, cfg)
	s := seen(lines)
	if s[30] != 11 {
		t.Fatalf("t=30: sees %d, want 11 (the second press waits for the speed limit)", s[30])
	}
	if s[100] != 12 {
		t.Fatalf("t=100: sees %d, want 12 (the held press goes out at the limit)", s[100])
	}
	held := false
	for _, l := range lines {
		if l.TMS == 30 && strings.Contains(l.Event, "speed limit") {
			held = true
		}
	}
	if !held {
		t.Fatal("no line says the press at 30 ms was held by the speed limit")
	}
	if last := lines[len(lines)-1]; last.Corr != 0 || last.Server != [2]int{12, 10} {
		t.Fatalf("final %+v: want server at 12 and no correction", last)
	}
}

func TestBatchedRate(t *testing.T) {
	cfg := Default()
	cfg.Rate = 20
	lines := run(t, cfg)
	if got := xs(lines); len(got) != 2 {
		t.Fatalf("x over time %v at 20 Hz with reconciliation, want 11 12", got)
	}
	if last := lines[len(lines)-1]; len(last.Pending) != 0 {
		t.Fatalf("final %+v: inputs left pending", last)
	}
}

func TestCollisionTimeline(t *testing.T) {
	cfg := Default()
	cfg.Player.Presses = []Press{{At: 0, Dir: grid.Right}}
	cfg.Second = &Player{Start: grid.Pos{X: 12, Y: 10}, Latency: 20 * ms, Presses: []Press{{At: 0, Dir: grid.Left}}}
	lines := run(t, cfg)
	var you, rival Line
	for _, l := range lines {
		switch l.Player {
		case "you":
			you = l
		case "rival":
			rival = l
		}
	}
	if you.Corr != 1 || you.Client != [2]int{10, 10} || you.Server != [2]int{10, 10} {
		t.Errorf("loser ends %+v: want one correction, back at (10,10)", you)
	}
	if rival.Corr != 0 || rival.Client != [2]int{11, 10} {
		t.Errorf("winner ends %+v: want no correction, at (11,10)", rival)
	}
	found := false
	for _, l := range lines {
		if l.Player == "you" && strings.Contains(l.Event, "CORRECTION") && strings.Contains(l.Event, "blocked by another player") {
			found = true
		}
	}
	if !found {
		t.Error("no line shows the correction and its reason")
	}
}
