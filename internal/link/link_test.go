package link

import (
	"testing"
	"time"
)

const ms = time.Millisecond

func TestHalfEachWay(t *testing.T) {
	l := New[int, int](250*ms, 0, 1)
	if at := l.Up.Send(0, 1); at != 125*ms {
		t.Fatalf("up delivery at %v, want 125ms", at)
	}
	if at := l.Down.Send(125*ms, 1); at != 250*ms {
		t.Fatalf("down delivery at %v, want 250ms", at)
	}
	if got := l.Up.Receive(124*ms, nil); len(got) != 0 {
		t.Fatal("delivered early")
	}
	if got := l.Up.Receive(125*ms, nil); len(got) != 1 {
		t.Fatal("not delivered on time")
	}
}

func TestJitterNeverReorders(t *testing.T) {
	l := NewLine[int](50*ms, 200*ms, 7)
	var lastAt time.Duration
	jittered := false
	for i := 0; i < 1000; i++ {
		now := time.Duration(i) * 10 * ms
		at := l.Send(now, i)
		if at < lastAt {
			t.Fatalf("message %d delivered at %v before the previous at %v", i, at, lastAt)
		}
		if at < now+50*ms || (at > now+250*ms && at != lastAt) {
			t.Fatalf("message %d sent at %v delivered at %v, outside delay+[0,jitter]", i, now, at)
		}
		if at != now+50*ms {
			jittered = true
		}
		lastAt = at
	}
	got := l.Receive(time.Hour, nil)
	for i, v := range got {
		if v != i {
			t.Fatalf("position %d holds message %d", i, v)
		}
	}
	if !jittered || len(got) != 1000 {
		t.Fatalf("jittered=%v delivered=%d", jittered, len(got))
	}
}

func TestSameSeedSameDelays(t *testing.T) {
	a, b := NewLine[int](0, 100*ms, 3), NewLine[int](0, 100*ms, 3)
	for i := 0; i < 100; i++ {
		now := time.Duration(i) * ms
		if a.Send(now, i) != b.Send(now, i) {
			t.Fatal("same seed gave different delays")
		}
	}
}

func TestLoweringLatencyKeepsOrder(t *testing.T) {
	l := New[int, int](1000*ms, 0, 1)
	first := l.Up.Send(0, 1)
	l.Set(0, 0)
	if second := l.Up.Send(10*ms, 2); second < first {
		t.Fatalf("second message overtook the first: %v < %v", second, first)
	}
}

func TestUpKeepsSpacing(t *testing.T) {
	l := New[int, int](1000*ms, 300*ms, 11)
	var prevAt, prevSent, compressed time.Duration
	for i := 0; i < 200; i++ {
		now := time.Duration(i) * 100 * ms
		if i == 50 {
			l.Set(0, 300*ms) // the latency slider drops from 1000 ms to 0
		}
		at := l.Up.Send(now, i)
		if i > 0 {
			if c := (now - prevSent) - (at - prevAt); c > 0 {
				if i < 50 {
					t.Fatalf("message %d bunched by jitter alone: arrives %v after the previous, sent %v after", i, at-prevAt, now-prevSent)
				}
				compressed += c
			}
		}
		if i == 50 && at-prevAt > now-prevSent {
			t.Fatalf("the lowered latency did not apply to the next message")
		}
		if i > 70 && at-now > 300*ms {
			t.Fatalf("message %d delayed %v with no latency and 300 ms jitter", i, at-now)
		}
		prevAt, prevSent = at, now
	}
	if compressed > 500*ms {
		t.Fatalf("messages bunched by %v in all, more than the 500 ms the latency drop took off", compressed)
	}
	// The way down may bunch (only the client reads it), and does.
	bunched := false
	d := NewLine[int](50*ms, 200*ms, 7)
	prevAt = 0
	for i := 0; i < 100; i++ {
		at := d.Send(time.Duration(i)*50*ms, i)
		if i > 0 && at-prevAt < 50*ms {
			bunched = true
		}
		prevAt = at
	}
	if !bunched {
		t.Fatal("plain line never bunched under jitter")
	}
}
