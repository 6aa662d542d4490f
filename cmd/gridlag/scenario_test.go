package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

type jsonLine struct {
	TMS     int64    `json:"t_ms"`
	Event   string   `json:"event"`
	Client  [2]int   `json:"client"`
	Server  [2]int   `json:"server"`
	Pending []uint32 `json:"pending"`
	Player  string   `json:"player"`
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
