package sim

import "time"

// Wire is one message between a client and the server, told when it
// arrives: what it was, when it left and arrived, whether it was lost
// and retransmitted or held behind another (TCP), or lost for good (a
// datagram; told when it would have arrived).
type Wire struct {
	Client *Client
	Way    Way
	Flight
}

// TraceWire makes the world call f for every message that arrives at
// either end, or is lost for good, in time order, with the world's lock
// held (see Trace); nil stops it. A sequence diagram is drawn from it.
func (w *World) TraceWire(f func(Wire)) {
	w.mu.Lock()
	w.wire = f
	w.mu.Unlock()
}

// traceWire tells the wire tracer of every message due at t, before the
// step delivers it.
func (w *World) traceWire(t time.Duration) {
	var flights []Flight
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		for _, way := range []Way{Up, Down} {
			flights = c.inFlight(way, t, flights[:0])
			for _, f := range flights {
				if f.At <= t {
					w.wire(Wire{Client: c, Way: way, Flight: f})
				}
			}
		}
	}
}
