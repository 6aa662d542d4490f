package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/internal/link"
	"gridlag/lab"
)

// TestNetGraphShowsTheTrace: in the lab at 80x24 and 160x45, Player 1's link
// following a trace, g opens the net graph with a row of the trace's
// steps: a mark in each second a step came (at 0, 3 and 6 s, three
// columns apart, the latest right), the step in force named beside it
// as it plays (the stall, then the slow stretch), and, where the feet
// fit, under the rows where the trace is and when its next step comes.
// The panel names the trace; Player 2, on no trace, has no such row.
func TestNetGraphShowsTheTrace(t *testing.T) {
	tr, err := link.ParseTrace([]byte("gridlag-trace 1\nname commute\ntitle A test\nlength 10s\nrepeat\n" +
		"at 0s both delay 40ms jitter 0ms loss 0% \"calm\"\n" +
		"at 3s both stall 400ms \"tunnel\"\n" +
		"at 6s both delay 150ms \"crowded cell\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := lab.Default()
	cfg.Players[0].Trace = tr
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		r := newLabRig(t, cfg, size[0], size[1])
		r.mustShow("[trace commute]")
		r.key(tcell.KeyRune, 'g')
		r.pass(3500 * time.Millisecond)
		r.mustShow("trace steps", "now: tunnel")
		r.pass(4 * time.Second) // 7.5 s: the last whole second is 6 to 7 s
		row := r.rowWith("trace steps")
		if !strings.Contains(row, "now: crowded cell") {
			t.Fatalf("%v: the trace's row %q does not name the step in force:\n%s", size, row, r.text())
		}
		marks := []int{}
		for i, c := range []rune(row) {
			if string(c) == "▲" {
				marks = append(marks, i)
			}
		}
		if len(marks) != 3 || marks[1]-marks[0] != 3 || marks[2]-marks[1] != 3 {
			t.Fatalf("%v: marks at columns %v of %q, want three, 3 s apart:\n%s", size, marks, row, r.text())
		}
		if strings.Count(r.text(), "trace steps") != 1 {
			t.Fatalf("%v: Player 2, on no trace, has a trace row too:\n%s", size, r.text())
		}
		if size[0] >= 160 { // room for the graphs' feet, side by side
			r.mustShow("trace commute, every 10.0s: crowded cell (its step at 6.0s), the next in 2.5s")
		}
		// The round trip the link reports follows the trace: 300 ms now.
		if got := r.lab.Players()[0].View().Latency; got != 300*time.Millisecond {
			t.Fatalf("Player 1's round trip %v on the crowded cell, want 300ms", got)
		}
	}
}
