package world

import "time"

// The world's own times. A world ticks at its Rate, its ticks on the
// multiples of 1/Rate of its clock (the worlds of a hub share its clock,
// so they tick together) from its first Advance; SetRate puts them one
// interval of the new rate apart from then. Its round begins with its
// first call with a time. It pings its players as
// SetPings says, to measure their round trips. An away player's window
// ends at its time. A frozen player's thaw and the end of a round happen
// at the first tick, ping or message at or after their time: what every
// player sees changes with the world's beats, so in immediate mode (Rate
// 0) within a ping interval. NextWake says when the next of these is
// due, and Advance does it.

// NextWake returns when Advance next has something to do: a tick, a
// Ping, the end of an away player's window. ok is false when nothing is
// scheduled: a world in immediate mode, without Pings, keeping nobody
// for resume (or one never given a time).
func (c *Core) NextWake() (at time.Duration, ok bool) {
	consider := func(t time.Duration) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	if c.cfg.Rate > 0 && c.ticking {
		consider(c.nextTick)
	}
	if c.pingEvery > 0 {
		consider(c.nextPing)
	}
	if c.awayN > 0 {
		consider(c.awayDue)
	}
	return at, ok
}

// NextTick returns when the next tick is due; ok is false while the world
// does not tick (immediate mode, or never given a time).
func (c *Core) NextTick() (at time.Duration, ok bool) {
	return c.nextTick, c.cfg.Rate > 0 && c.ticking
}

// Advance does what is due at now: the tick (Tick), the Pings (Ping) and
// the end of the away players' windows, and reports whether it ticked.
// The first call starts the ticks: the first is due at the first
// multiple of the update interval after now. A driver calls it when the
// world opens and then at NextWake, or calls Tick and Ping on a schedule
// of its own.
func (c *Core) Advance(now time.Duration) (ticked bool) {
	c.begin()
	c.startTicks(now)
	if c.cfg.Rate > 0 && now >= c.nextTick {
		c.Tick(now)
		c.nextTick = after(c.nextTick, time.Second/time.Duration(c.cfg.Rate), now)
		ticked = true
	}
	if c.pingEvery > 0 && now >= c.nextPing {
		c.Ping(now)
		c.nextPing = after(c.nextPing, c.pingEvery, now)
	}
	c.expire(now)
	return ticked
}

// startTicks schedules the ticks, the first time it is called: the
// first is due at the first multiple of the update interval after now.
func (c *Core) startTicks(now time.Duration) {
	if c.ticking {
		return
	}
	c.ticking = true
	if c.cfg.Rate > 0 {
		c.nextTick = after(0, time.Second/time.Duration(c.cfg.Rate), now)
	}
}

// after returns the first of next, next+every, next+2*every... that is
// later than now: a beat that came late skips those it missed rather
// than catching up in a burst.
func after(next, every, now time.Duration) time.Duration {
	if next > now {
		return next
	}
	return next + every*((now-next)/every+1)
}

// SetRate changes the update rate to hz (0 = immediate mode, at most
// MaxRate) at now: the next tick comes one interval of the new rate
// later. Clients keep the rate their Welcome gave them.
func (c *Core) SetRate(now time.Duration, hz int) {
	c.cfg.Rate = hz
	c.ticking = true
	if hz > 0 {
		c.nextTick = now + time.Second/time.Duration(hz)
	}
}

// SetPings schedules the world's Pings (see Ping): the first at next,
// then one every every; every 0 stops them. A world is not pinged until
// told to.
func (c *Core) SetPings(next, every time.Duration) {
	c.pingEvery, c.nextPing = every, next
}
