package server

// outQueue is what waits for one client's socket, in order: frames lent
// by an encoder (a tick's States, Joins, Pings: queued by reference,
// with no copy, in the loop's serial part or a shard's), frames shared by
// many clients and kept for the server's life (a big map's pieces:
// keptFrames), also by reference, and the queue's own bytes. The writer
// writes what waits in one system call (writev) straight from where it
// lies; a lent frame the socket did not take in the writer's pass is
// copied into the queue's own bytes then (settle), so that a client that
// reads slowly never holds an encoder's chunk (and the other clients'
// frames in it) alive past that pass. The own bytes are bounded by the
// connection's byte cap. Guarded by the shard's mu: the loop (or the
// goroutine queuing a shard's share of a flush) adds, the writer takes
// pieces, writes them without the lock, consumes what the socket took
// and settles the rest. What the writer is writing is never moved:
// adding only appends, and only the writer settles and compacts.
type outQueue struct {
	own  []byte // own[off:] are the own frames' bytes not written yet
	off  int
	segs []seg // the frames, in order: segs[first:] are not written whole
	// first is the index of the first frame not written whole.
	first int
	bytes int // bytes not written, own, lent and shared
	loans int // lent frames among segs[first:]
	// sent counts the bytes ever written; a State queued last ends at
	// stateEnd of them (see stateWaits).
	sent, stateEnd int64
}

// seg is a frame of a queue: n of its own bytes not written (shared
// nil), or what is left to write of a frame queued by reference, lent
// by an encoder (loan) or kept for the server's life. The own frames
// come before every lent one: only settle makes own frames, of all the
// lent ones waiting.
type seg struct {
	shared []byte
	n      int
	loan   bool
}

// frames returns how many frames are not written whole.
func (q *outQueue) frames() int { return len(q.segs) - q.first }

// add queues f by reference: lent by its encoder unless it is kept for
// the server's life (shared).
func (q *outQueue) add(f frame) {
	b := f.head
	q.bytes += len(b)
	if f.state {
		q.stateEnd = q.sent + int64(q.bytes)
	}
	q.segs = append(q.segs, seg{shared: b, loan: !f.shared})
	if !f.shared {
		q.loans++
	}
}

// settle copies the lent frames still waiting, whole or what is left of
// them, into the queue's own bytes: the writer calls it when the socket
// did not take everything, and the encoders' chunks are free of this
// client once it returns. The lent frames all come after the own ones,
// so their bytes go at the end of own, in order.
func (q *outQueue) settle() {
	if q.loans == 0 {
		return
	}
	for i := q.first; i < len(q.segs); i++ {
		if s := &q.segs[i]; s.loan {
			q.own = append(q.own, s.shared...)
			*s = seg{n: len(s.shared)}
		}
	}
	q.loans = 0
}

// stateWaits reports whether a State queued is not written whole yet.
func (q *outQueue) stateWaits() bool { return q.sent < q.stateEnd }

// maxPieces bounds the pieces of one write: far below the system's
// IOV_MAX (1024 on Linux).
const maxPieces = 64

// pieces appends to dst the bytes waiting, from the first, as at most
// maxPieces slices of at most about limit bytes in all (at least one
// piece when something waits): the own bytes of frames in a row are
// one slice, a frame by reference one each. The slices stay valid while
// the writer writes them without the lock: nothing else moves the bytes.
func (q *outQueue) pieces(dst [][]byte, limit int) [][]byte {
	pos, size, run := q.off, 0, 0 // run: own bytes of the piece being gathered
	for _, s := range q.segs[q.first:] {
		if size+run >= limit {
			break
		}
		if s.shared == nil {
			run += s.n
			continue
		}
		if run > 0 {
			dst = append(dst, q.own[pos:pos+run])
			pos, size, run = pos+run, size+run, 0
		}
		if len(dst) == maxPieces-1 {
			break
		}
		b := s.shared
		if room := limit - size; len(b) > room && size > 0 {
			b = b[:room]
		}
		dst = append(dst, b)
		size += len(b)
	}
	if run > 0 {
		dst = append(dst, q.own[pos:pos+run])
	}
	return dst
}

// consume takes off the n bytes the socket took, from the front.
func (q *outQueue) consume(n int) {
	q.bytes -= n
	q.sent += int64(n)
	for n > 0 {
		s := &q.segs[q.first]
		if s.shared != nil {
			k := min(n, len(s.shared))
			s.shared = s.shared[k:]
			n -= k
			if len(s.shared) > 0 {
				break
			}
		} else {
			k := min(n, s.n)
			s.n -= k
			q.off += k
			n -= k
			if s.n > 0 {
				break
			}
		}
		if s.loan {
			q.loans--
		}
		*s = seg{}
		q.first++
	}
	q.compact()
}

// queueKeep is the most memory an empty queue keeps for the next bytes:
// a burst's (a newcomer's Joins) is let go once written.
const queueKeep = 16 << 10

// compact lets go of what was written: the buffer is reused from its
// start once empty (or let go if a burst grew it), the written bytes of
// a long one are moved out once they are most of it.
func (q *outQueue) compact() {
	if q.first == len(q.segs) {
		if cap(q.own) > queueKeep {
			q.own = nil
		}
		if cap(q.segs) > maxPieces {
			q.segs = nil
		}
		q.own, q.off, q.segs, q.first = q.own[:0], 0, q.segs[:0], 0
		return
	}
	if q.first >= maxPieces && q.first > len(q.segs)/2 {
		n := copy(q.segs, q.segs[q.first:])
		clear(q.segs[n:])
		q.segs, q.first = q.segs[:n], 0
	}
	if q.off >= queueKeep && q.off > len(q.own)/2 {
		n := copy(q.own, q.own[q.off:])
		q.own, q.off = q.own[:n], 0
	}
}
