package client

import (
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// Interpolation numbers.
const (
	// InterpStep is how much the interpolation delay grows when the buffer
	// runs dry and shrinks when states arrive on time: one frame at 60 Hz.
	InterpStep = time.Second / 60
	// interpShrinkAfter is how long states must keep arriving in a row with
	// room to spare before the delay shrinks by one step (at least 3 states).
	interpShrinkAfter = 500 * time.Millisecond
	// interpMaxDelay bounds the delay.
	interpMaxDelay = 2 * time.Second
	// interpFloorWindow is how long a rise in the states' trip must last
	// before it is taken as the link's new latency, not as jitter: the
	// clock is rebased on the quickest trip of this long (and of at least
	// interpFloorStates states), and of the last state before it.
	interpFloorWindow = time.Second
	interpFloorStates = 3
	// interpKeep bounds the buffered states.
	interpKeep = 256
)

type snapshot struct {
	t       time.Duration    // server time
	players []grid.PlayerPos // everyone but the player, sorted by ID
	walks   walks            // from the state before, found as they are drawn
}

// interpolator buffers the server's states and draws the other players at
// render time = now - delay on the server's clock, between the two buffered
// states around that time (netcode-notes section 6, Gambetta part III),
// each on the walk the walker finds between the two.
//
// Two numbers place the render time, and they answer different things.
// The offset rebases the server's clock onto the client's: it is the
// quickest trip (local arrival time minus server time) of the states of
// the last interpFloorWindow, so it follows the link's latency, whatever
// it is. The delay is how far behind that the others are drawn: one
// update interval, so that the next state is there before it is needed,
// and a margin for arrivals that spread (jitter, a resent segment). It
// starts at one update interval plus a frame (or the jitter the link is
// known to have). When a state arrives late (the buffer ran dry before it
// came) the delay grows by InterpStep; after interpShrinkAfter of states
// in a row arriving with a step to spare (a step less would still have
// had each in time) it shrinks by InterpStep, never below one update
// interval and a frame.
//
// A step in latency is not jitter. A fall lowers the offset at once (the
// others jump ahead by the fall: the states are simply quicker). A rise
// first looks like late states, and grows the delay; once every state of
// a whole window comes that much later, the offset takes the rise and
// the delay gives back as much, down to an update interval and a frame:
// the render time does not move, and the delay is back to what the
// link's spread needs, whatever the round trip.
type interpolator struct {
	walker    walker
	interval  time.Duration
	delay     time.Duration
	offset    time.Duration
	hasOffset bool
	onTime    int
	trips     []trip // the states' trips, oldest first, for the offset
	buf       []snapshot
	grew      int // times the delay grew
	shrank    int // times the delay shrank
}

// reset starts over for the game a Welcome describes, on its map m.
func (ip *interpolator) reset(w *protocol.Welcome, m *grid.Map, jitter time.Duration) {
	ip.walker = newWalker(w, m)
	ip.interval = 100 * time.Millisecond
	if w.UpdateRate > 0 {
		ip.interval = time.Second / time.Duration(w.UpdateRate)
	}
	ip.delay = ip.interval + max(jitter, InterpStep)
	ip.hasOffset, ip.onTime, ip.buf, ip.trips = false, 0, nil, ip.trips[:0]
}

// trip is one state's trip: when it arrived on the local clock, and the
// local arrival time minus its server time (the one-way latency plus the
// clocks' difference).
type trip struct{ at, d time.Duration }

// minDelay is the least delay: an update interval and a frame.
func (ip *interpolator) minDelay() time.Duration { return ip.interval + InterpStep }

// rebase takes the trip d of a state arriving at now into the offset: a
// quicker trip than the offset lowers it at once; when the quickest trip
// of the window (see interpFloorWindow) is slower than the offset, the
// latency rose: the offset rises by as much and the delay falls by as
// much (not below minDelay), so that the render time stays where it is.
func (ip *interpolator) rebase(now, d time.Duration) {
	ip.trips = append(ip.trips, trip{at: now, d: d})
	if !ip.hasOffset || d < ip.offset {
		ip.offset, ip.hasOffset = d, true
		return
	}
	window := max(interpFloorWindow, interpFloorStates*ip.interval)
	// Keep the trips of the window, and the last one before it: a burst
	// after a stall is all late, but the state before the stall was not.
	keep := 0
	for keep+1 < len(ip.trips) && ip.trips[keep+1].at <= now-window {
		keep++
	}
	if keep > 0 {
		ip.trips = append(ip.trips[:0], ip.trips[keep:]...)
	}
	if ip.trips[0].at > now-window || len(ip.trips) <= interpFloorStates {
		return // not a whole window of trips yet
	}
	floor := ip.trips[0].d
	for _, t := range ip.trips[1:] {
		floor = min(floor, t.d)
	}
	if rise := floor - ip.offset; rise > 0 {
		ip.offset += rise
		ip.delay = max(ip.delay-rise, min(ip.delay, ip.minDelay()))
	}
}

// renderTime is the server time at which others are drawn at local time now.
func (ip *interpolator) renderTime(now time.Duration) time.Duration {
	return now - ip.offset - ip.delay
}

// latest returns the server time of the latest buffered state (0 if none).
func (ip *interpolator) latest() time.Duration {
	if len(ip.buf) == 0 {
		return 0
	}
	return ip.buf[len(ip.buf)-1].t
}

func (ip *interpolator) add(now time.Duration, s *protocol.State, me grid.PlayerID) {
	t := time.Duration(s.TimeNS)
	ip.rebase(now, now-t)
	// How far ahead of the render time this state arrived. Below one
	// interval, the render time had already passed the previous state:
	// the buffer ran dry.
	margin := t - ip.renderTime(now)
	switch {
	case margin < ip.interval:
		if ip.delay+InterpStep <= interpMaxDelay {
			ip.delay += InterpStep
			ip.grew++
		}
		ip.onTime = 0
	case margin >= ip.interval+InterpStep && ip.delay > ip.minDelay():
		// A step less would still have had this state in time.
		ip.onTime++
		if ip.onTime >= max(3, int(interpShrinkAfter/ip.interval)) {
			ip.delay = max(ip.delay-InterpStep, ip.minDelay())
			ip.shrank++
			ip.onTime = 0
		}
	default:
		ip.onTime = 0
	}
	n := len(ip.buf)
	if n > 0 && t < ip.buf[n-1].t {
		return // older than what we have: nothing to interpolate towards
	}
	snap := snapshot{t: t, players: make([]grid.PlayerPos, 0, len(s.Players))}
	for _, p := range s.Players {
		if p.ID != me {
			snap.players = append(snap.players, p)
		}
	}
	if n > 0 && t == ip.buf[n-1].t {
		ip.buf[n-1] = snap // the same moment, later word: it replaces
		return
	}
	ip.buf = append(ip.buf, snap)
	// Drop states the render time has left well behind.
	rt := ip.renderTime(now) - interpMaxDelay
	drop := 0
	for drop+2 < len(ip.buf) && (ip.buf[drop+1].t <= rt || len(ip.buf)-drop > interpKeep) {
		drop++
	}
	if drop > 0 {
		ip.buf = append(ip.buf[:0], ip.buf[drop:]...)
	}
}

// forget removes a player who left from every buffered state.
func (ip *interpolator) forget(id grid.PlayerID) {
	for i := range ip.buf {
		ip.buf[i].players = slices.DeleteFunc(ip.buf[i].players, func(p grid.PlayerPos) bool { return p.ID == id })
		delete(ip.buf[i].walks, id)
	}
}

// at returns the other players as drawn at local time now.
func (ip *interpolator) at(now time.Duration) []grid.PlayerPos {
	if len(ip.buf) == 0 {
		return nil
	}
	rt := ip.renderTime(now)
	i := len(ip.buf) - 1
	for i >= 0 && ip.buf[i].t > rt {
		i--
	}
	switch {
	case i < 0:
		return ip.buf[0].players // render time before every state: the oldest
	case i == len(ip.buf)-1:
		return ip.buf[i].players // the buffer ran dry: hold the latest
	}
	return ip.between(ip.buf[i], &ip.buf[i+1], rt)
}

// between draws the players at server time rt between states a and b, the
// state after a in the buffer. A player in both is drawn on their walk
// from a to b (see walker.at): for a one-cell move that is the cell of a
// until the midpoint, then the cell of b; a several-cell move (a slow
// update rate) walks cell by cell, round corners, never through a wall. A
// player who appears or disappears between the two states does so at the
// midpoint.
func (ip *interpolator) between(a snapshot, b *snapshot, rt time.Duration) []grid.PlayerPos {
	num, den := int64(rt-a.t), int64(b.t-a.t)
	late := 2*num >= den
	out := make([]grid.PlayerPos, 0, len(b.players))
	i, j := 0, 0
	for i < len(a.players) || j < len(b.players) {
		switch {
		case j == len(b.players) || (i < len(a.players) && a.players[i].ID < b.players[j].ID):
			if !late {
				out = append(out, a.players[i])
			}
			i++
		case i == len(a.players) || b.players[j].ID < a.players[i].ID:
			if late {
				out = append(out, b.players[j])
			}
			j++
		default:
			id := b.players[j].ID
			p := ip.walker.at(&b.walks, id, a.players[i].Pos, b.players[j].Pos, b.t-a.t, num, den)
			out = append(out, grid.PlayerPos{ID: id, Pos: p})
			i++
			j++
		}
	}
	return out
}
