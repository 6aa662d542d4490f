package world

import (
	"slices"
	"testing"
	"time"

	"gridlag/protocol"
)

// run advances c at every NextWake up to until and returns the times it
// was advanced at and the times it ticked at.
func run(c *Core, until time.Duration) (wakes, ticks []time.Duration) {
	for {
		at, ok := c.NextWake()
		if !ok || at > until {
			return wakes, ticks
		}
		wakes = append(wakes, at)
		if c.Advance(at) {
			ticks = append(ticks, at)
		}
		c.Outbox()
	}
}

// TestTicksFallOnTheRatesMultiples: a world ticks at its rate on the
// multiples of the interval from its first Advance, whenever it opened,
// so that the worlds of one clock tick together; a late Advance ticks
// once and skips the beats it missed; SetRate puts the next tick one new
// interval later.
func TestTicksFallOnTheRatesMultiples(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	if _, ok := c.NextWake(); ok {
		t.Fatal("a world never advanced has a wake")
	}
	c.Advance(1234 * ms) // opened between two beats
	_, ticks := run(c, 1400*ms)
	if want := []time.Duration{1250 * ms, 1300 * ms, 1350 * ms, 1400 * ms}; !slices.Equal(ticks, want) {
		t.Fatalf("ticks at %v, want %v", ticks, want)
	}
	if !c.Advance(1573 * ms) { // late: the beats at 1450 to 1550 are missed
		t.Fatal("a late Advance did not tick")
	}
	if c.Advance(1573*ms) || c.Stats().Ticks != 5 {
		t.Fatalf("%d ticks after a late Advance and again at once, want one more", c.Stats().Ticks)
	}
	if at, _ := c.NextWake(); at != 1600*ms {
		t.Fatalf("after a late tick at 1573ms the next is due at %v, want 1600ms", at)
	}
	c.SetRate(1610*ms, 4)
	if at, _ := c.NextWake(); at != 1860*ms {
		t.Fatalf("after SetRate(4) at 1610ms the next tick is due at %v, want 1860ms", at)
	}
	c.SetRate(1700*ms, 0)
	if at, ok := c.NextWake(); ok {
		t.Fatalf("a world in immediate mode without pings wakes at %v", at)
	}
}

// TestPingsAsScheduled: SetPings pings the players from its first time
// on, every interval; a world is not pinged before.
func TestPingsAsScheduled(t *testing.T) {
	c := NewCore(Config{})
	join(t, c, 0, 1, "ann", false)
	c.Advance(0)
	if _, ok := c.NextWake(); ok {
		t.Fatal("a world in immediate mode told of no pings has a wake")
	}
	c.SetPings(700*ms, time.Second)
	var pinged []time.Duration
	for {
		at, ok := c.NextWake()
		if !ok || at > 3*time.Second {
			break
		}
		c.Advance(at)
		for _, e := range c.Outbox().Envelopes {
			if _, ok := e.Msg.(*protocol.Ping); ok {
				pinged = append(pinged, at)
				c.Receive(at, 1, &protocol.Pong{Stamp: e.Msg.(*protocol.Ping).Stamp})
			}
		}
	}
	if want := []time.Duration{700 * ms, 1700 * ms, 2700 * ms}; !slices.Equal(pinged, want) {
		t.Errorf("pinged at %v, want %v", pinged, want)
	}
}

// TestAwayWindowEndsOnTime: a player kept for resume leaves when its
// window ends, at the world's wake, with no message, tick or ping.
func TestAwayWindowEndsOnTime(t *testing.T) {
	c := NewCore(Config{Resume: 2 * time.Second})
	join(t, c, 0, 1, "ann", false)
	c.Advance(0)
	c.Drop(500*ms, 1, "blip")
	c.Outbox()
	at, ok := c.NextWake()
	if !ok || at != 2500*ms {
		t.Fatalf("with ann away since 500ms the world wakes at %v (%v), want 2.5s", at, ok)
	}
	c.Advance(at)
	if ev := c.Outbox().Events; len(ev) != 1 || ev[0].Kind != EventLeave || c.Stats().Players != 0 {
		t.Fatalf("at the window's end: events %+v, %d players; want ann's leave", ev, c.Stats().Players)
	}
	if at, ok := c.NextWake(); ok {
		t.Errorf("a world with nobody away, in immediate mode, wakes at %v", at)
	}
}

// TestThawWaitsForABeat: a frozen player respawns at the world's first
// tick or ping at or after its thaw, not between them: what players see
// changes with the world's beats.
func TestThawWaitsForABeat(t *testing.T) {
	c := partFour(t, Config{Rate: 2, LagComp: true, Unlag: DefaultUnlag})
	c.Advance(time.Second)
	zapAt(t, c, 1100*ms, 600*ms, 1) // bob is tagged where ann saw him, frozen until 3.1s
	bob := c.cl(2)
	if bob.frozenUntil != 3100*ms {
		t.Fatalf("bob frozen until %v, want 3.1s", bob.frozenUntil)
	}
	wakes, _ := run(c, 3400*ms)
	for _, w := range wakes {
		if w%(500*ms) != 0 {
			t.Fatalf("woken at %v, between two ticks", w)
		}
	}
	if bob.frozenUntil == 0 {
		t.Fatal("bob thawed before the first tick after his thaw")
	}
	run(c, 3500*ms)
	if bob.frozenUntil != 0 || c.Stats().Respawns != 1 {
		t.Fatalf("bob frozen until %v after the tick at 3.5s (%d respawns), want him respawned", bob.frozenUntil, c.Stats().Respawns)
	}
}
