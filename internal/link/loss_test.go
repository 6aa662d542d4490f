package link

import (
	"slices"
	"testing"
	"time"
)

// TestNoLossKeepsTheDelaysOfASeed: with no loss, a seed gives exactly the
// delivery times it gave before loss existed (recorded then), jitter,
// spacing and a change of latency included.
func TestNoLossKeepsTheDelaysOfASeed(t *testing.T) {
	wantUp := []time.Duration{122755904, 159755904, 196755904, 237566231, 274566231, 311566231,
		311566231, 329066231, 366066231, 403066231, 440066231, 505263769}
	wantDown := []time.Duration{122443696, 140821206, 225498432, 267388571, 315097229, 373863659,
		373863659, 412041580, 464852750, 511046049, 533422764, 647341350}
	l := New[int, int](173*ms, 47*ms, 9)
	l.SetLoss(0)
	var up, down []time.Duration
	for i := range 12 {
		if i == 6 {
			l.Set(60*ms, 90*ms)
		}
		up = append(up, l.Up.Send(time.Duration(i)*37*ms, i))
		down = append(down, l.Down.Send(time.Duration(i)*50*ms, i))
	}
	if !slices.Equal(up, wantUp) || !slices.Equal(down, wantDown) {
		t.Fatalf("up %v\ndown %v\nwant up %v\ndown %v", up, down, wantUp, wantDown)
	}
}

// TestLostMessageHoldsBackTheRest: the first input is lost once (seed 6);
// it arrives one RTO (the 200 ms floor) late, every input sent after it
// waits and arrives with it, in order, and inputs sent once it is through
// take their own delay again, though the way up keeps spacing.
func TestLostMessageHoldsBackTheRest(t *testing.T) {
	l := New[int, int](100*ms, 0, 6)
	l.SetLoss(0.5)
	if at := l.Up.Send(0, 0); at != 250*ms {
		t.Fatalf("lost message delivered at %v, want 50ms + one 200ms RTO = 250ms", at)
	}
	l.SetLoss(0)
	for i := 1; i <= 20; i++ {
		now := time.Duration(i) * 20 * ms
		if at := l.Up.Send(now, i); at != max(250*ms, now+50*ms) {
			t.Fatalf("message %d sent at %v is due at %v, want with the lost one or on its own delay", i, now, at)
		}
	}
	if got := l.Up.Receive(249*ms, nil); len(got) != 0 {
		t.Fatalf("delivered %v before the lost message came through", got)
	}
	if got, want := l.Up.Receive(250*ms, nil), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}; !slices.Equal(got, want) {
		t.Fatalf("at 250ms delivered %v, want the backlog %v", got, want)
	}
	for i := 11; i <= 20; i++ {
		due := time.Duration(i)*20*ms + 50*ms
		if got := l.Up.Receive(due-1, nil); len(got) != 0 {
			t.Fatalf("message %d delivered before its own delay", i)
		}
		if got := l.Up.Receive(due, nil); !slices.Equal(got, []int{i}) {
			t.Fatalf("at %v delivered %v, want [%d] on its own delay", due, got, i)
		}
	}
}

// TestRetransmissionBacksOff: a message lost k times arrives
// (2^k − 1) × RTO late, RTO being the round trip plus 4 × jitter but at
// least 200 ms, and never more than MaxTries − 1 losses.
func TestRetransmissionBacksOff(t *testing.T) {
	for _, c := range []struct {
		delay, jitter, rto time.Duration
	}{
		{10 * ms, 0, 200 * ms},        // 20 ms round trip: the floor
		{100 * ms, 50 * ms, 400 * ms}, // 200 + 4 × 50
	} {
		l := NewLine[int](c.delay, c.jitter, 3)
		l.SetLoss(0.5)
		if l.RTO() != c.rto {
			t.Fatalf("delay %v jitter %v: RTO %v, want %v", c.delay, c.jitter, l.RTO(), c.rto)
		}
		for i := range 400 {
			l.Send(time.Duration(i)*100*time.Second, i) // far apart: nothing waits behind
		}
		seen := make([]int, MaxTries)
		for f := range l.InFlight {
			if f.Lost >= MaxTries {
				t.Fatalf("message %d lost %d times, more than MaxTries-1", f.Value, f.Lost)
			}
			seen[f.Lost]++
			late := f.At - f.Sent - c.delay - time.Duration(1<<f.Lost-1)*c.rto
			if late < 0 || late > c.jitter || f.Held {
				t.Fatalf("message %d lost %d times arrives %v after sent, want %v + (2^%d-1) × %v + jitter",
					f.Value, f.Lost, f.At-f.Sent, c.delay, f.Lost, c.rto)
			}
		}
		for k, n := range seen {
			if n == 0 {
				t.Fatalf("rto %v: no message lost exactly %d times in 400 at 50%%: %v", c.rto, k, seen)
			}
		}
	}
	always := NewLine[int](10*ms, 0, 1)
	always.SetLoss(1)
	if at := always.Send(0, 0); at != 10*ms+31*200*ms {
		t.Fatalf("certain loss delivered at %v, want after five retransmissions, 10ms + 31 × 200ms", at)
	}
}

// TestLossRateNearP: over many messages, the share lost at least once is
// close to the loss probability, in both directions of a link.
func TestLossRateNearP(t *testing.T) {
	const n = 20000
	l := New[int, int](0, 0, 5)
	l.SetLoss(0.02)
	for i := range n {
		l.Up.Send(time.Duration(i)*ms, i)
		l.Down.Send(time.Duration(i)*ms, i)
	}
	up, down := 0, 0
	for f := range l.Up.InFlight {
		if f.Lost > 0 {
			up++
		}
	}
	for f := range l.Down.InFlight {
		if f.Lost > 0 {
			down++
		}
	}
	for _, lost := range []int{up, down} {
		if rate := float64(lost) / n; rate < 0.015 || rate > 0.025 {
			t.Fatalf("lost up %d down %d of %d at P=0.02", up, down, n)
		}
	}
	if l.Loss() != 0.02 {
		t.Fatalf("Loss() = %v, want 0.02", l.Loss())
	}
}
