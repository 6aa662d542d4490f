package hub

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"gridlag/protocol"
)

// StopNotice is what every client is told while the server drains, with
// left to go before it closes: "server stopping in 6 s", the seconds
// rounded to the nearest; "server stopping now" once none is left.
func StopNotice(left time.Duration) string {
	if n := secondsLeft(left); n > 0 {
		return fmt.Sprintf("server stopping in %d s", n)
	}
	return "server stopping now"
}

// secondsLeft is left in whole seconds, rounded to the nearest.
func secondsLeft(left time.Duration) int {
	return int((left + time.Second/2) / time.Second)
}

// drainCount is the countdown of a drain.
type drainCount struct {
	end      time.Duration // when the server stops
	told     string        // the Notice every connection got last, "" before a drain
	next     time.Duration // the countdown's next beat, while counting
	counting bool
}

// Drain begins the server's stop at now, left before it closes: every
// connection (player, spectator or lobby) is told StopNotice at once and
// again each second as it counts down, and so is each connection that
// comes meanwhile. The game goes on; refusing newcomers and the end are
// the adapter's. A second Drain sets a new time left.
func (h *Hub) Drain(now, left time.Duration) {
	h.begin()
	h.drain.end = now + left
	h.countDown(now)
}

// countDown tells every connection the StopNotice of now and sets the
// countdown's next beat for the next whole second left, if any: when n-1
// seconds are left, measured from the end, so that a late beat does not
// delay the ones after it.
func (h *Hub) countDown(now time.Duration) {
	left := h.drain.end - now
	h.drain.told = StopNotice(left)
	notice := &protocol.Notice{Text: h.drain.told} // one for all: encoded once
	for _, id := range slices.Sorted(maps.Keys(h.conns)) {
		h.send(id, notice)
	}
	h.drain.counting = false
	if n := secondsLeft(left); n > 0 {
		h.drain.next, h.drain.counting = h.drain.end-time.Duration(n-1)*time.Second, true
	}
}
