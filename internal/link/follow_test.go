package link

import (
	"slices"
	"testing"
	"time"
)

// testTrace parses text, failing the test if it does not.
func testTrace(t *testing.T, text string) *Trace {
	t.Helper()
	tr, err := ParseTrace([]byte("gridlag-trace 1\nname t\ntitle T\n" + text))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestLinkFollowsATrace: each way takes the delay its steps give it, from
// the step's time on, the two ways each their own; what was sent before
// a step keeps its time; RTT, Jitter and Loss report what holds.
func TestLinkFollowsATrace(t *testing.T) {
	tr := testTrace(t, "length 10s\n"+
		"at 0s both delay 50ms jitter 0ms loss 0%\n"+
		"at 1s up delay 300ms\n"+
		"at 1s down delay 10ms jitter 20ms loss 50%\n"+
		"at 2s both delay 100ms jitter 0ms loss 0%\n")
	l := New[int, int](500*ms, 0, 1) // the trace overrides the link's own conditions
	l.Follow(tr, 5*time.Second)      // its time 0 is 5 s on the link's clock
	if at := l.Up.Send(5*time.Second, 1); at != 5050*ms {
		t.Fatalf("sent at the trace's start, due %v, want 50ms later", at)
	}
	if at := l.Up.Send(5999*ms, 2); at != 6049*ms {
		t.Fatalf("sent just before the step, due %v, want its own 50ms", at)
	}
	if at := l.Up.Send(6*time.Second, 3); at != 6300*ms {
		t.Fatalf("sent at the step, due %v, want the step's 300ms", at)
	}
	if l.Up.Delay() != 300*ms || l.Down.Delay() != 10*ms || l.Down.Jitter() != 20*ms || l.Up.Loss() != 0 || l.Down.Loss() != 0.5 {
		t.Fatalf("at 1s: up %v, down %v ± %v, losses %v %v", l.Up.Delay(), l.Down.Delay(), l.Down.Jitter(), l.Up.Loss(), l.Down.Loss())
	}
	if l.RTT() != 310*ms || l.Jitter() != 10*ms || l.Loss() != 0.25 {
		t.Fatalf("the link reports rtt %v jitter %v loss %v, want 310ms, 10ms (the mean) and 0.25", l.RTT(), l.Jitter(), l.Loss())
	}
	// Used again only long after the next step: it was applied at its
	// own time, 7 s.
	l.Down.Receive(8*time.Second, nil)
	if l.RTT() != 200*ms || l.Loss() != 0 {
		t.Fatalf("after the last step rtt %v loss %v", l.RTT(), l.Loss())
	}
	st := l.TraceState()
	if st.Trace != tr || st.Applied != 4 || st.At != 7*time.Second || st.Step.Line != 8 || st.NextOK {
		t.Fatalf("trace state %+v", st)
	}
	// Past its end a trace that does not repeat leaves the last values.
	if at := l.Up.Send(20*time.Second, 4); at != 20100*ms {
		t.Fatalf("after the trace's end, due %v, want its last 100ms", at)
	}
}

// TestTraceStallHoldsEverything: a stall step holds what is on the way
// and what is sent during it until its end, then releases it in order;
// it holds only the way it names.
func TestTraceStallHoldsEverything(t *testing.T) {
	tr := testTrace(t, "length 10s\n"+
		"at 0s both delay 50ms jitter 0ms loss 0%\n"+
		"at 1s up stall 500ms \"tunnel\"\n")
	l := New[int, int](0, 0, 1)
	l.Follow(tr, 0)
	l.Up.Send(980*ms, 1)  // due 1030: caught
	l.Up.Send(1200*ms, 2) // sent during it
	l.Up.Send(1460*ms, 3) // due 1510: after it
	l.Down.Send(1200*ms, 9)
	if got := l.Down.Receive(1250*ms, nil); !slices.Equal(got, []int{9}) {
		t.Fatalf("the way down, not stalled, delivered %v at 1250ms", got)
	}
	if got := l.Up.Receive(1499*ms, nil); len(got) != 0 {
		t.Fatalf("delivered %v during the stall", got)
	}
	if got := l.Up.Receive(1500*ms, nil); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("at the stall's end delivered %v, want [1 2]", got)
	}
	if got := l.Up.Receive(1510*ms, nil); !slices.Equal(got, []int{3}) {
		t.Fatalf("at 1510ms delivered %v, want [3]", got)
	}
	if st := l.TraceState(); st.Step.Label != "tunnel" || st.At != time.Second || st.Step.Name() != "tunnel" {
		t.Fatalf("state %+v", st)
	}
}

// TestTraceStallAppliedLate: a stall applied when the link is next used,
// after its time, holds what would have arrived after its time, as if
// applied on the dot: a driver that did not wake at the step loses
// nothing of it.
func TestTraceStallAppliedLate(t *testing.T) {
	tr := testTrace(t, "length 10s\n"+
		"at 0s both delay 100ms jitter 0ms loss 0%\n"+
		"at 1s both stall 1s\n")
	l := New[int, int](0, 0, 1)
	l.Follow(tr, 0)
	l.Up.Send(950*ms, 1) // due 1050, inside the stall
	if at, _ := l.Up.Next(); at != 1050*ms {
		t.Fatalf("before the step, next %v", at)
	}
	if next, ok := l.NextChange(); !ok || next != time.Second {
		t.Fatalf("next change %v %v, want 1s", next, ok)
	}
	// The driver wakes at the message's time, after the step's.
	if got := l.Up.Receive(1050*ms, nil); len(got) != 0 {
		t.Fatalf("delivered %v inside the stall", got)
	}
	if at, _ := l.Up.Next(); at != 2*time.Second {
		t.Fatalf("held until %v, want the stall's end, 2s", at)
	}
}

// TestTraceRepeats: a repeating trace starts again after its length, as
// many times as the clock goes; one far behind catches up without
// replaying every cycle, its conditions those of now.
func TestTraceRepeats(t *testing.T) {
	tr := testTrace(t, "length 2s\nrepeat\n"+
		"at 0s both delay 10ms jitter 0ms loss 0%\n"+
		"at 1s both delay 200ms\n")
	l := New[int, int](0, 0, 1)
	l.Follow(tr, 0)
	for _, c := range []struct {
		now, delay time.Duration
	}{{0, 10 * ms}, {1500 * ms, 200 * ms}, {2 * time.Second, 10 * ms}, {3 * time.Second, 200 * ms}, {10*time.Hour + 500*ms, 10 * ms}, {10*time.Hour + 1500*ms, 200 * ms}} {
		if at := l.Up.Send(c.now, 0); at-c.now != c.delay {
			t.Fatalf("sent at %v: delay %v, want %v", c.now, at-c.now, c.delay)
		}
		l.Up.Receive(c.now+time.Second, nil)
	}
	if st := l.TraceState(); st.Cycle != 18001 || !st.NextOK || st.Next != 10*time.Hour+3*time.Second {
		t.Fatalf("after 10 h: cycle %d, next %v", st.Cycle, st.Next)
	}
	l.Follow(nil, 0)
	if _, ok := l.NextChange(); ok {
		t.Fatal("a link that stopped following still has a change to come")
	}
	if at := l.Up.Send(20*time.Hour, 0); at-20*time.Hour != 10*ms {
		t.Fatalf("after stopping, delay %v, want the last step's (at 10h2s) 10ms kept", at-20*time.Hour)
	}
}

// TestLineFollowsOneWay: a lone line follows the steps of its own
// direction only.
func TestLineFollowsOneWay(t *testing.T) {
	tr := testTrace(t, "length 10s\n"+
		"at 0s both delay 10ms jitter 0ms loss 0%\n"+
		"at 1s down delay 300ms\n"+
		"at 2s up delay 70ms\n")
	up := NewLine[int](0, 0, 1)
	up.Follow(tr, DirUp, 0)
	if at := up.Send(1500*ms, 0); at != 1510*ms {
		t.Fatalf("the way up took the way down's step: due %v", at)
	}
	if at := up.Send(2500*ms, 0); at != 2570*ms {
		t.Fatalf("the way up missed its own step: due %v", at)
	}
}
