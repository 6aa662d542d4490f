package link

import (
	"slices"
	"testing"
	"time"
)

// TestInFlightShowsTheWire: InFlight lists what is on the line, oldest
// first, with when each message was sent (and sent again), reaches the
// far end and is due, whether it is retransmitted or held behind another
// (and when it would have come had nothing held it up), and how far along
// it is: a lost message waits at the sender for its retransmission, then
// travels; one held behind it travels its own delay and waits at the far
// end, as TCP keeps it in the receiver's buffer. A
// received message is no longer listed, and listing removes nothing.
func TestInFlightShowsTheWire(t *testing.T) {
	l := NewLine[string](100*ms, 0, 6)
	l.SetLoss(0.5)
	l.Send(0, "#1") // lost once (seed 6): due 100 + 200 ms later
	l.SetLoss(0)
	l.Send(50*ms, "#2")  // waits behind #1
	l.Send(300*ms, "#3") // sent after: its own delay
	want := []Flight[string]{
		{Sent: 0, Resent: 200 * ms, Arrive: 300 * ms, At: 300 * ms, Lost: 1, Own: 100 * ms, Value: "#1"},         // held 200 ms: a retransmission
		{Sent: 50 * ms, Resent: 50 * ms, Arrive: 150 * ms, At: 300 * ms, Held: true, Own: 150 * ms, Value: "#2"}, // 150 ms behind #1
		{Sent: 300 * ms, Resent: 300 * ms, Arrive: 400 * ms, At: 400 * ms, Own: 400 * ms, Value: "#3"},
	}
	for range 2 {
		if got := slices.Collect(l.InFlight); !slices.Equal(got, want) {
			t.Fatalf("in flight %+v\nwant %+v", got, want)
		}
	}
	var progress []float64
	var waiting, resending []bool
	for f := range l.InFlight {
		progress = append(progress, f.Progress(100*ms), f.Progress(250*ms))
		waiting = append(waiting, f.Waiting(100*ms), f.Waiting(250*ms))
		resending = append(resending, f.Resending(100*ms), f.Resending(250*ms))
	}
	if want := []float64{0, 0.5, 0.5, 1, 0, 0}; !slices.Equal(progress, want) {
		t.Fatalf("progress at 100ms and 250ms %v, want %v", progress, want)
	}
	if want := []bool{false, false, false, true, false, false}; !slices.Equal(waiting, want) {
		t.Fatalf("waiting at the far end at 100ms and 250ms %v, want %v (#2 from 150ms)", waiting, want)
	}
	if want := []bool{true, false, false, false, true, true}; !slices.Equal(resending, want) {
		t.Fatalf("waiting for a retransmission at 100ms and 250ms %v, want %v", resending, want)
	}
	l.Receive(300*ms, nil)
	if got := slices.Collect(l.InFlight); len(got) != 1 || got[0].Value != "#3" || got[0].Progress(350*ms) != 0.5 {
		t.Fatalf("after the first two arrive, in flight %+v, want #3 halfway at 350ms", got)
	}
	l.Receive(400*ms, nil)
	for f := range l.InFlight {
		t.Fatalf("%+v still in flight once delivered", f)
	}
}

// TestInFlightStopsAndDoesNotAllocate: a viewer can stop early, and
// listing every frame costs no allocation.
func TestInFlightStopsAndDoesNotAllocate(t *testing.T) {
	l := NewLine[int](time.Second, 0, 1)
	for i := range 10 {
		l.Send(time.Duration(i)*ms, i)
	}
	n := 0
	for range l.InFlight {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("listed %d after stopping at 3", n)
	}
	var sum time.Duration
	if allocs := testing.AllocsPerRun(100, func() {
		for f := range l.InFlight {
			sum += f.At
		}
	}); allocs != 0 {
		t.Fatalf("listing allocates %v times", allocs)
	}
	if sum == 0 || l.Len() != 10 {
		t.Fatalf("listing saw nothing (%v) or removed messages (%d left)", sum, l.Len())
	}
}
