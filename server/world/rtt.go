package world

import (
	"time"

	"gridlag/protocol"
)

// rttMeter measures one player's round trip with the server's own Pings:
// one Ping at a time, stamped with the Core's time, and a smoothed round
// trip (as TCP smooths its own: each sample moves the estimate an eighth of
// the way, the first sample sets it).
type rttMeter struct {
	sent     time.Duration // when the Ping in flight was sent
	waiting  bool          // a Ping is in flight
	smoothed time.Duration
	measured bool // smoothed holds at least one sample
}

// ping records a Ping sent at now and returns its stamp. It reports false,
// and nothing is to be sent, while an earlier Ping is unanswered.
func (m *rttMeter) ping(now time.Duration) (stamp uint64, ok bool) {
	if m.waiting {
		return 0, false
	}
	m.sent, m.waiting = now, true
	return uint64(now), true
}

// pong takes a Pong received at now. One that answers no Ping in flight is
// ignored: the round trip shown is the server's measure, not the client's
// word.
func (m *rttMeter) pong(now time.Duration, stamp uint64) {
	if !m.waiting || stamp != uint64(m.sent) || now < m.sent {
		return
	}
	m.waiting = false
	sample := now - m.sent
	if !m.measured {
		m.smoothed, m.measured = sample, true
		return
	}
	m.smoothed += (sample - m.smoothed) / 8
}

// rtt returns the smoothed round trip; ok is false until measured.
func (m *rttMeter) rtt() (time.Duration, bool) { return m.smoothed, m.measured }

// Ping sends a Ping to every player who has answered the last one (or was
// never pinged), to measure their round trips, which spectators are shown.
// The adapter calls it every Options.PingInterval; the clients answer with
// a Pong, which Receive takes.
func (c *Core) Ping(now time.Duration) {
	c.begin()
	c.expire(now)
	c.periodic(now)
	for _, cl := range c.slots {
		if cl == nil || cl.away {
			continue
		}
		if stamp, ok := cl.rtt.ping(now); ok {
			p := c.pings.get()
			p.Stamp = stamp
			c.stats.Pings++
			c.send(cl.conn, p)
		}
	}
}

// rttMS is a round trip as an Overview carries it: whole milliseconds,
// rounded, or protocol.NoRTT when not measured.
func rttMS(rtt time.Duration, ok bool) uint16 {
	if !ok {
		return protocol.NoRTT
	}
	return uint16(min(rtt.Round(time.Millisecond)/time.Millisecond, protocol.NoRTT-1))
}
