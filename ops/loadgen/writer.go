package loadgen

import (
	"math/rand"
	"time"

	"gridlag/protocol"
)

// writeTick is how often a writer looks for inputs that are due: an input
// leaves at most this late, and the average spacing stays the move time.
const writeTick = 5 * time.Millisecond

// writer sends the inputs of its share of the players, on one ticker.
type writer struct {
	add     chan *player // players welcomed, to take on
	players []*player
	rng     *rand.Rand
	buf     []byte
}

// run sends inputs until stop is closed.
func (w *writer) run(r *run, stop <-chan struct{}) {
	t := time.NewTicker(writeTick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		w.takeNew()
		now := r.since()
		keep := w.players[:0]
		for _, p := range w.players {
			if p.dead.Load() {
				continue
			}
			keep = append(keep, p)
			if now >= p.next {
				w.send(p, now)
			}
		}
		clear(w.players[len(keep):])
		w.players = keep
	}
}

// takeNew takes on the players welcomed since the last tick.
func (w *writer) takeNew() {
	for {
		select {
		case p := <-w.add:
			w.players = append(w.players, p)
		default:
			return
		}
	}
}

// send writes p's next input, unless it waits for acknowledgements, and
// schedules the one after. A player the writer fell behind for catches up
// by one input at most: two inputs close together, well within the
// server's burst.
func (w *writer) send(p *player, now time.Duration) {
	p.next += p.moveTime
	if p.next < now {
		p.next = now
	}
	p.mu.Lock()
	if p.seq-p.acked >= window {
		p.mu.Unlock()
		return
	}
	p.seq++
	in := protocol.Input{Seq: p.seq, Dir: p.step(w.rng)}
	p.sentAt[p.seq%window] = now
	p.mu.Unlock()
	w.buf, _ = protocol.Append(w.buf[:0], &in)
	p.write(w.buf)
}
