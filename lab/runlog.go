package lab

import (
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/lab/sim"
)

// logKind is the kind of a runLog's event.
type logKind uint8

// The events of a run that a lesson's texts can name (see quantities).
const (
	logSent    logKind = iota // a player's input #N left (a move or a zap)
	logArrived                // the server processed input #N
	logAcked                  // the first State acknowledging #N reached its player
	logMoved                  // the player's own cell, as its board draws it, changed
)

// logEvent is one event of a run, at T since the lab's start.
type logEvent struct {
	T      time.Duration
	Player int // 0 for Player 1
	Kind   logKind
	Seq    uint32 // the input (logSent, logArrived, logAcked); the move's number, from 1 (logMoved)
	Pos    grid.Pos
}

// runLog is what happened in a run of the lab, in the terms a lesson's
// texts name: when each player's inputs left, reached the server and were
// acknowledged, and when each player's own cell changed on its board. The
// lab writes it from the world's trace, as it happens.
type runLog struct {
	origin time.Duration // the world's time at the lab's start
	events []logEvent
	full   bool        // maxLogEvents were logged: the rest is not
	cell   [2]grid.Pos // each player's drawn cell, as last seen
	moves  [2]uint32   // how many times it changed
	acked  [2]uint32   // the last input acknowledged to each player
}

// maxLogEvents bounds a run's log: a step left running for hours (a
// "your turn" with no end) stops logging there, and its texts are filled
// from what the lab shows.
const maxLogEvents = 1 << 16

// newRunLog starts the log of lab l from its start.
func newRunLog(l *Lab) *runLog {
	g := &runLog{origin: l.origin}
	for i, p := range l.players {
		g.cell[i] = p.View().Predicted
	}
	return g
}

// take logs world event e of lab l. It runs with the world's lock held.
func (g *runLog) take(l *Lab, e sim.Event) {
	i := slices.IndexFunc(l.players[:], func(p *Player) bool { return p != nil && p.Client == e.Client })
	if i < 0 || g.full {
		return
	}
	if len(g.events) >= maxLogEvents {
		g.full = true
		return
	}
	t := e.T - g.origin
	add := func(k logKind, seq uint32) {
		g.events = append(g.events, logEvent{T: t, Player: i, Kind: k, Seq: seq, Pos: e.Pos})
	}
	switch e.Kind {
	case sim.Press, sim.Zapped, sim.HeldSent:
		if e.Seq > 0 {
			add(logSent, e.Seq)
		}
	case sim.ServerInput, sim.ServerZap:
		add(logArrived, e.Seq)
	case sim.StateArrived:
		for seq := g.acked[i] + 1; seq <= e.Seq; seq++ {
			add(logAcked, seq)
		}
		g.acked[i] = max(g.acked[i], e.Seq)
	}
	if v := e.Client.ViewLocked(); v.Predicted != g.cell[i] {
		g.cell[i] = v.Predicted
		g.moves[i]++
		g.events = append(g.events, logEvent{T: t, Player: i, Kind: logMoved, Seq: g.moves[i], Pos: v.Predicted})
	}
}

// find returns the event of player p of kind k numbered n (an input's
// number, or a move's), if it happened.
func (g *runLog) find(p int, k logKind, n uint32) (logEvent, bool) {
	for _, e := range g.events {
		if e.Player == p && e.Kind == k && e.Seq == n {
			return e, true
		}
	}
	return logEvent{}, false
}

// count returns how many events of player p of kind k happened.
func (g *runLog) count(p int, k logKind) int {
	n := 0
	for _, e := range g.events {
		if e.Player == p && e.Kind == k {
			n++
		}
	}
	return n
}

// sentAny reports whether either player sent an input numbered n.
func (g *runLog) sentAny(n uint32) bool {
	for p := range 2 {
		if _, ok := g.find(p, logSent, n); ok {
			return true
		}
	}
	return false
}

// follows reports whether run g so far is the start of run h: the same
// events at the same times. A lesson's step as rehearsed and as given
// differ only when someone touched the lab.
func (g *runLog) follows(h *runLog) bool {
	return !g.full && len(g.events) <= len(h.events) && slices.Equal(g.events, h.events[:len(g.events)])
}
