package server

import (
	"bytes"
	"testing"
)

// TestOutQueueWritesInOrderAndCountsFrames: what a queue gives the writer
// is its frames' bytes in order, each by reference where it lies (an
// encoder's lent frames and the kept ones), until a socket that did not
// take everything makes the writer settle: the lent frames waiting are
// copied in, and no piece points into an encoder's bytes any more, while
// those queued after still go by reference; a frame counts as waiting
// until its last byte is written, however the socket cuts the writes; an
// emptied queue lets go of a burst's memory.
func TestOutQueueWritesInOrderAndCountsFrames(t *testing.T) {
	var q outQueue
	kept := bytes.Repeat([]byte{'k'}, 100)
	var want []byte
	var lent [][]byte
	add := func(f frame) {
		q.add(f)
		want = append(want, f.head...)
		if !f.shared {
			lent = append(lent, f.head)
		}
	}
	for i := range 3 {
		add(frame{head: bytes.Repeat([]byte{byte('a' + i)}, 10)})
	}
	add(frame{head: kept, shared: true})
	add(frame{head: bytes.Repeat([]byte{'x'}, 20), state: true})
	if q.frames() != 5 || q.bytes != 150 || !q.stateWaits() {
		t.Fatalf("queued 5 frames of 150 bytes, a State last: the queue counts %d frames of %d bytes, a State waiting %v", q.frames(), q.bytes, q.stateWaits())
	}
	iov := q.pieces(nil, writeBudget)
	if len(iov) != 5 || &iov[0][0] != &lent[0][0] || &iov[3][0] != &kept[0] {
		t.Fatalf("%d pieces, want 5, each frame by reference where it lies", len(iov))
	}
	aliases := func(iov [][]byte) bool { // a piece points into a lent frame
		for _, p := range iov {
			for _, l := range lent {
				if &p[len(p)-1] == &l[len(l)-1] {
					return true
				}
			}
		}
		return false
	}
	var got []byte
	for i, cut := range []int{25, 5, 60, 45, 15, 10} { // the socket takes what it takes
		iov = q.pieces(iov[:0], writeBudget)
		var all []byte
		for _, b := range iov {
			all = append(all, b...)
		}
		got = append(got, all[:cut]...)
		q.consume(cut)
		wantFrames := framesLeft(len(got))
		if i == 0 {
			wantFrames-- // the last frame is not queued yet
		}
		if q.frames() != wantFrames {
			t.Fatalf("after %d bytes written: %d frames waiting, want %d", len(got), q.frames(), wantFrames)
		}
		if i == 0 { // the socket was full: the writer settles
			q.settle()
			if aliases(q.pieces(nil, writeBudget)) {
				t.Fatal("after settle a piece still points into an encoder's bytes")
			}
			add(frame{head: bytes.Repeat([]byte{'y'}, 10)})
			if p := q.pieces(nil, writeBudget); &p[len(p)-1][0] != &lent[len(lent)-1][0] {
				t.Fatal("a frame queued after settle is copied, want it by reference")
			}
		}
	}
	if !bytes.Equal(got, want) || q.bytes != 0 || q.stateWaits() || q.loans != 0 {
		t.Fatalf("wrote %q (%d bytes left, a State waiting %v, %d lent), want %q", got, q.bytes, q.stateWaits(), q.loans, want)
	}
	q.add(frame{head: make([]byte, 4*queueKeep)})
	q.consume(2 * queueKeep)
	q.settle()
	q.consume(2 * queueKeep)
	if cap(q.own) > queueKeep {
		t.Errorf("an emptied queue keeps %d bytes, want at most %d", cap(q.own), queueKeep)
	}
}

// framesLeft is how many of the test's frames (ending at 10, 20, 30, 130,
// 150 and 160 bytes) are not written whole after n bytes.
func framesLeft(n int) int {
	left := 0
	for _, end := range []int{10, 20, 30, 130, 150, 160} {
		if end > n {
			left++
		}
	}
	return left
}

// TestBehindSkipsStatesUntilAFullPicture: a State is skipped only while
// one queued before it waits behind a full socket (not while the writer
// has yet to come to it); once caught up, the States are skipped until a
// full picture, which is queued, and the stream goes on from it.
func TestBehindSkipsStatesUntilAFullPicture(t *testing.T) {
	c := &conn{shard: newShard(), queueCap: 4096, byteCap: 1 << 20}
	st := func(full bool) frame { return frame{head: make([]byte, 8), state: true, full: full} }
	join := frame{head: make([]byte, 30)}
	for i, step := range []struct {
		f    frame
		want pushed
	}{
		{st(false), queued},
		{st(false), queued}, // the writer has not come: not behind
	} {
		if got := c.push(step.f); got != step.want {
			t.Fatalf("push %d: %v, want %v", i, got, step.want)
		}
	}
	c.wrote(4, true) // the socket took 4 bytes of 16: full
	if c.push(st(false)) != skipped || c.push(join) != queued {
		t.Fatal("behind a full socket: a State was not skipped, or another frame was")
	}
	iov, _ := c.pieces(nil)
	c.wrote(len(iov[0]), false) // it caught up
	if c.push(st(false)) != resync {
		t.Fatal("caught up after a skip: a State that is not a full picture was queued")
	}
	if c.push(st(true)) != queued || c.push(st(false)) != queued {
		t.Fatal("the full picture after a skip, or the State after it, was not queued")
	}
}
