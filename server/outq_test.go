package server

import (
	"bytes"
	"testing"
)

// TestOutQueueWritesInOrderAndCountsFrames: what a queue gives the writer
// is its frames' bytes in order, a client's own copied in and a kept
// frame by reference; a frame counts as waiting until its last byte is
// written, however the socket cuts the writes; an emptied queue lets go
// of a burst's memory.
func TestOutQueueWritesInOrderAndCountsFrames(t *testing.T) {
	var q outQueue
	kept := bytes.Repeat([]byte{'k'}, 100)
	var want []byte
	add := func(f frame) {
		q.add(f)
		want = append(want, f.head...)
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
	if len(iov) != 3 || &iov[1][0] != &kept[0] {
		t.Fatalf("pieces %d, the kept frame by reference %v: want 3 (own, kept, own)", len(iov), len(iov) > 1 && &iov[1][0] == &kept[0])
	}
	var got []byte
	for _, cut := range []int{25, 5, 60, 45, 15} { // the socket takes what it takes
		iov = q.pieces(iov[:0], writeBudget)
		var all []byte
		for _, b := range iov {
			all = append(all, b...)
		}
		got = append(got, all[:cut]...)
		q.consume(cut)
		if wantFrames := framesLeft(len(got)); q.frames() != wantFrames {
			t.Fatalf("after %d bytes written: %d frames waiting, want %d", len(got), q.frames(), wantFrames)
		}
	}
	if !bytes.Equal(got, want) || q.bytes != 0 || q.stateWaits() {
		t.Fatalf("wrote %q (%d bytes left, a State waiting %v), want %q", got, q.bytes, q.stateWaits(), want)
	}
	q.add(frame{head: make([]byte, 4*queueKeep)})
	q.consume(4 * queueKeep)
	if cap(q.own) > queueKeep {
		t.Errorf("an emptied queue keeps %d bytes, want at most %d", cap(q.own), queueKeep)
	}
}

// framesLeft is how many of the test's frames (ending at 10, 20, 30, 130
// and 150 bytes) are not written whole after n bytes.
func framesLeft(n int) int {
	left := 0
	for _, end := range []int{10, 20, 30, 130, 150} {
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
