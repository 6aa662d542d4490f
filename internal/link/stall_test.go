package link

import (
	"slices"
	"testing"
	"time"
)

// TestStallHoldsAndReleasesInOrder: a lag spike from 120 to 320 ms delivers
// nothing in between; what was due then, and what is sent meanwhile,
// arrives at 320 ms in order; what was delivered before and what is due
// after is untouched. A stalled message is stuck on the way, not waiting
// at the far end: it arrives when the stall ends.
func TestStallHoldsAndReleasesInOrder(t *testing.T) {
	l := NewLine[int](100*ms, 0, 1)
	l.Send(0, 0)     // due 100
	l.Send(30*ms, 1) // due 130
	l.Send(60*ms, 2) // due 160
	if got := l.Receive(100*ms, nil); !slices.Equal(got, []int{0}) {
		t.Fatalf("before the stall delivered %v, want [0]", got)
	}
	l.Stall(120*ms, 200*ms)
	if at := l.Send(150*ms, 3); at != 320*ms {
		t.Fatalf("sent during the stall, due %v, want 320ms", at)
	}
	if at := l.Send(250*ms, 4); at != 350*ms {
		t.Fatalf("due after the stall at %v, want its own 350ms", at)
	}
	var held []int
	for f := range l.InFlight {
		if f.Held {
			held = append(held, f.Value)
		}
		if f.Held && (f.Arrive != 320*ms || f.Waiting(300*ms)) {
			t.Fatalf("%+v: held by the stall, it should arrive at its end, 320ms, and not wait before", f)
		}
	}
	if !slices.Equal(held, []int{1, 2, 3}) {
		t.Fatalf("held %v, want [1 2 3]", held)
	}
	if got := l.Receive(319*ms, nil); len(got) != 0 {
		t.Fatalf("delivered %v during the stall", got)
	}
	if got := l.Receive(320*ms, nil); !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("at the end of the stall delivered %v, want [1 2 3]", got)
	}
	if got := l.Receive(349*ms, nil); len(got) != 0 {
		t.Fatalf("delivered %v before its own delay", got)
	}
	if got := l.Receive(350*ms, nil); !slices.Equal(got, []int{4}) {
		t.Fatalf("delivered %v at 350ms, want [4]", got)
	}
}

// TestLinkStallsBothWays: a stall of the link holds both directions, and a
// stall of no length holds nothing.
func TestLinkStallsBothWays(t *testing.T) {
	l := New[int, int](100*ms, 0, 1)
	l.Up.Send(0, 1)
	l.Down.Send(0, 2)
	l.Stall(10*ms, 0)
	if at, _ := l.Next(); at != 50*ms {
		t.Fatalf("an empty stall moved the next delivery to %v", at)
	}
	l.Stall(10*ms, time.Second)
	if up, _ := l.Up.Next(); up != 1010*ms {
		t.Fatalf("up delivered at %v, want at the end of the stall, 1010ms", up)
	}
	if down, _ := l.Down.Next(); down != 1010*ms {
		t.Fatalf("down delivered at %v, want at the end of the stall, 1010ms", down)
	}
}
