package scenario

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestLossHoldsBackWhatFollows: with loss as TCP has it, a lost input is
// retransmitted after the RTO (here the 250 ms round trip) and the input
// sent after it waits behind it, so the server processes both at the
// same moment (head-of-line blocking), and the timeline runs long enough
// to show both acknowledged.
func TestLossHoldsBackWhatFollows(t *testing.T) {
	cfg := Default()
	cfg.Player.Loss = 0.5
	cfg.Seed = 3 // a seed that loses input #1 once, and nothing else on the way up
	lines, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	processed := map[string]int64{}
	for _, l := range lines {
		for _, n := range []string{"#1", "#2"} {
			if strings.HasPrefix(l.Event, "server: processes "+n+" ") {
				processed[n] = l.TMS
			}
		}
	}
	if processed["#1"] != 375 || processed["#2"] != 375 {
		t.Errorf("server processed #1 at %d ms and #2 at %d ms; want both at 375 (125 + a 250 ms RTO, #2 held behind #1)", processed["#1"], processed["#2"])
	}
	last := lines[len(lines)-1]
	if len(last.Pending) != 0 || last.Ack != 2 {
		t.Errorf("the timeline ends with ack #%d, pending %v: want every press acknowledged", last.Ack, last.Pending)
	}
}

// TestEachLossIsNamed: with loss as TCP has it, every message that was
// lost on the way has a line of its own, at the moment it was first
// lost, that names it and says when each copy was lost and when the one
// that got through was resent, the retransmission timeout doubling after
// each loss: the article's presses at 50 % loss (seed 2) lose #2 once on
// the way up, resent one timeout (the 250 ms round trip) later.
func TestEachLossIsNamed(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		cfg := Default()
		cfg.Player.Loss = 0.5
		cfg.Seed = seed
		r, err := RunFull(cfg)
		if err != nil {
			t.Fatal(err)
		}
		named := 0
		for i, l := range r.Lines {
			if l.Loss == nil {
				continue
			}
			if l.Loss.DeliverMS != nil {
				named++ // delivered in the run: a wire (the others are still on their way)
			}
			if i > 0 && r.Lines[i-1].T > l.T {
				t.Errorf("seed %d: the loss line %q comes after a later line", seed, l.Event)
			}
			if ll := l.Loss; ll.ResentMS != nil {
				// Each copy leaves a timeout after the one before, doubled after
				// each loss: the tries are at sent + (2^i - 1) × RTO.
				lost := ll.LostMS
				rto := (*ll.ResentMS - lost[0]) / (1<<len(lost) - 1)
				for k, at := range lost {
					if want := lost[0] + rto*(1<<k-1); at != want {
						t.Errorf("seed %d: %q: copy %d lost at %d ms, want %d (RTO %d ms)", seed, l.Event, k, at, want, rto)
					}
				}
				if rto < 200 {
					t.Errorf("seed %d: %q: a retransmission timeout of %d ms, under TCP's 200", seed, l.Event, rto)
				}
			}
		}
		lostWires := 0
		for i, w := range r.Wires {
			if w.Lost > 0 && (i == 0 || !sameFate(r.Wires[i-1], w)) {
				lostWires++
			}
		}
		if named != lostWires {
			t.Errorf("seed %d: %d loss lines for %d messages (or bursts) lost and delivered", seed, named, lostWires)
		}
		if seed != 2 {
			continue
		}
		const want = "you: #2's segment lost at 100 ms, resent at 350 ms (retransmission timeout)"
		found := false
		for _, l := range r.Lines {
			if l.Event == want {
				found = l.TMS == 100 && l.Loss.Way == "up" && *l.Loss.DeliverMS == 475 && slices.Equal(l.Pending, []uint32{1, 2})
			}
		}
		if !found {
			t.Errorf("seed 2: no line at 100 ms (pending #1,#2) %q:\n%s", want, table(t, r.Lines))
		}
	}
}

// sameFate reports whether two messages were sent together and lost
// alike: one line names both.
func sameFate(a, b Wire) bool {
	return a.Player == b.Player && a.Up == b.Up && a.Sent == b.Sent && a.Resent == b.Resent && a.At == b.At && a.Lost == b.Lost && a.Held == b.Held
}

// TestUnacknowledgedInputsAreSaidSo: at 90 % loss (seed 3) neither press
// is acknowledged before the run ends; its last line says so, which
// inputs, and how long after the last resend the run ended (the segment
// with #1, lost at 0, 250, 750 and 1,750 ms, the next copy at 3,750).
func TestUnacknowledgedInputsAreSaidSo(t *testing.T) {
	cfg := Default()
	cfg.Player.Loss = 0.9
	cfg.Seed = 3
	r, err := RunFull(cfg)
	if err != nil {
		t.Fatal(err)
	}
	last := r.Lines[len(r.Lines)-1]
	const want = "you: nothing acknowledged in the whole run: 2 inputs never acknowledged (#1, #2): the run ended 650 ms after the last one was resent (the segment with the ping and #1 RIGHT, at 1,750 ms); the next copy would leave at 3,750 ms"
	if last.Event != want || !slices.Equal(last.Unacked, []uint32{1, 2}) || last.T != int64(r.End) {
		t.Fatalf("the timeline ends\n%s\nwant its last line at %v:\n%s", table(t, r.Lines), r.End, want)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, r.Lines[len(r.Lines)-1:]); err != nil || !strings.Contains(b.String(), `"unacknowledged":[1,2]`) {
		t.Errorf("the JSON's last line: %s (%v)", b.String(), err)
	}
	// Every press acknowledged: no such line.
	for _, l := range run(t, Default()) {
		if l.Unacked != nil || l.Loss != nil {
			t.Errorf("a lossless run says %q", l.Event)
		}
	}
}

// table is lines as gridlag scenario prints them.
func table(t *testing.T, lines []Line) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTable(&b, lines); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
