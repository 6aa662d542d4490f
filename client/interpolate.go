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
// The first state rebases the server's clock onto the client's: offset is
// the local arrival time minus the server time, and is lowered whenever a
// state arrives quicker than any before. The delay starts at one update
// interval plus a jitter margin. When a state arrives late (the buffer ran
// dry before it came) the delay grows by InterpStep; after
// interpShrinkAfter states in a row arrive with more than a step to spare it
// shrinks by InterpStep, never below one update interval.
type interpolator struct {
	walker    walker
	interval  time.Duration
	delay     time.Duration
	offset    time.Duration
	hasOffset bool
	onTime    int
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
	ip.hasOffset, ip.onTime, ip.buf = false, 0, nil
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
	if off := now - t; !ip.hasOffset || off < ip.offset {
		ip.offset, ip.hasOffset = off, true
	}
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
	case margin >= ip.interval+2*InterpStep:
		ip.onTime++
		if ip.onTime >= max(3, int(interpShrinkAfter/ip.interval)) && ip.delay-InterpStep >= ip.interval {
			ip.delay -= InterpStep
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
