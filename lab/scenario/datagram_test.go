package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/lab/sim"
)

// serverTimes returns when the server processed each input of player,
// by number, from the timeline.
func serverTimes(t *testing.T, lines []Line) map[uint32]time.Duration {
	t.Helper()
	out := map[uint32]time.Duration{}
	for _, l := range lines {
		var seq uint32
		if _, err := fmt.Sscanf(l.Event, "server: processes #%d", &seq); err == nil {
			if _, dup := out[seq]; dup {
				t.Fatalf("input #%d processed twice: %s", seq, l.Event)
			}
			out[seq] = time.Duration(l.T)
		}
	}
	return out
}

// TestDatagramNoInputWaitsBehindALostOne: the article's walk, longer, at
// 20% loss (seed 3) over TCP and over the datagram link. Over TCP some
// inputs wait behind a lost one (held); over datagrams every input
// arrives, each exactly when the first packet carrying it that survived
// arrives (so none waits for another), no State or input is held, and the
// timeline's last line says how many copies were repeated and what the
// link carried.
func TestDatagramNoInputWaitsBehindALostOne(t *testing.T) {
	cfg := Default()
	cfg.Player.Loss, cfg.Seed = 0.2, 3
	cfg.Player.Presses, _ = ParsePresses("right@0ms,right@100ms,right@200ms,right@300ms,down@400ms,down@500ms,left@600ms,left@700ms")
	tcp, err := RunFull(cfg)
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	for _, w := range tcp.Wires {
		if w.Up && strings.HasPrefix(w.Label, "#") && w.Held {
			held++
		}
	}
	if held == 0 {
		t.Fatal("over TCP at 20% loss no input waited behind a lost one: the comparison shows nothing")
	}

	cfg.Link = sim.Datagram
	dg, err := RunFull(cfg)
	if err != nil {
		t.Fatal(err)
	}
	processed := serverTimes(t, dg.Lines)
	first := map[uint32]time.Duration{}
	dropped := 0
	for _, w := range dg.Wires {
		if w.Held {
			t.Fatalf("over datagrams %s was held", w.Label)
		}
		if w.Dropped {
			dropped++
			continue
		}
		for _, seq := range w.Inputs {
			if at, ok := first[seq]; !ok || w.At < at {
				first[seq] = w.At
			}
		}
	}
	for seq := uint32(1); seq <= 8; seq++ {
		at, ok := processed[seq]
		if !ok {
			t.Fatalf("input #%d never reached the server over datagrams", seq)
		}
		if at != first[seq] {
			t.Fatalf("input #%d processed at %v, but its first surviving packet arrived at %v: it waited", seq, at, first[seq])
		}
	}
	if dropped == 0 {
		t.Fatal("nothing was lost at 20%: the test shows nothing")
	}
	last := dg.Lines[len(dg.Lines)-1]
	if l := last.Link; l == nil || l.Transport != "datagram" || l.Inputs != 8 || l.Repeated <= 0 || l.InputPacketsLost == 0 ||
		l.BytesUp <= 0 || !strings.Contains(last.Event, fmt.Sprintf("%d repeated", l.Repeated)) {
		t.Fatalf("the last line %+v (%+v) does not say what the link carried", last, last.Link)
	}
	if !slices.Equal(last.Pending, []uint32{}) || last.Client != [2]int{12, 12} {
		t.Fatalf("the walk ends at %v with %v pending, want (12,12), nothing pending", last.Client, last.Pending)
	}
}
