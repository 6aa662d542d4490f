package hub

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"gridlag/protocol"
)

// Capacity: admission by measured load. The adapter measures what each
// tick costs it, from the moment the tick was due until the last of its
// frames was handed to the sockets (the rooms' ticks, the encoding, the
// writers and whatever kept them from their cores), and reports it with
// Load. While those costs over the last LoadWindow reach
// Options.TickBudget, or would with the newcomer by a linear estimate,
// a Hello or a Spectate is refused with "server full: at capacity" (an
// Error ErrCodeFull): the players the server has keep their round
// trips, and everyone else is told why at once, instead of every player's
// round trip growing to seconds together. A Resume is let in (its player
// is one of those the server has), and so is a room list.
//
// The cost read is the 90th percentile of the window's ticks: one slow
// tick (a garbage collection, another process on the core) does not shut
// the door, a second's worth of them does. Below half the budget
// everybody is let in; from half of it, newcomers are let in while the
// members (players and spectators, every room's: one tick serves them
// all) are fewer than those that would take the cost to the budget,
// members × budget / cost as measured, so that a crowd joining in the
// second the window lags behind does not carry the server past its
// budget; at the budget nobody new is. Nobody is ever put out: a server
// whose members cost more than its budget (they crowded together, say)
// keeps them, refuses the rest, and says so. Below Options.LoadFloor
// members nobody is refused for load: so few cost a tick next to nothing,
// and ticks over the budget are then another process's doing (or SSH
// sessions drawing in the server's own), which no refusal mends: a
// class of forty is never turned away because the teacher's laptop is
// busy.

// LoadWindow is how far back the costs of the ticks are read.
const LoadWindow = time.Second

// loadSamples is the most ticks' costs kept: a second's worth at up to
// 64 Hz (a faster rate reads fewer ticks than LoadWindow's).
const loadSamples = 64

// minLoadSamples is how many ticks must have been measured in the
// window before any newcomer is refused.
const minLoadSamples = 3

// loadSample is the cost of one tick and the members it served.
type loadSample struct {
	at, cost time.Duration
	members  int
}

// loadMeter keeps the costs of the last ticks (a ring of loadSamples).
type loadMeter struct {
	budget  time.Duration // Options.TickBudget; 0: no admission by load
	floor   int           // Options.LoadFloor
	samples [loadSamples]loadSample
	next    int           // where the next sample goes
	n       int           // samples kept
	window  []loadSample  // LoadAt's, reused
	full    bool          // a NoteCapacity said the server is full, and none since that it is not
	refused time.Duration // when a newcomer was last refused for load
}

// Load reports the measured cost of a tick that was due at or before now:
// from when it was due until its frames were handed to the sockets. The
// adapter calls it once per tick, once that is known (at the next tick,
// say); an adapter that measures nothing never calls it, and then nobody
// is refused for load.
func (h *Hub) Load(now, cost time.Duration) {
	h.begin()
	m := &h.load
	m.samples[m.next] = loadSample{at: now, cost: max(cost, 0), members: h.members()}
	m.next = (m.next + 1) % loadSamples
	m.n = min(m.n+1, loadSamples)
	h.noteCapacity(now)
}

// members counts the connections routed to a room (players and
// spectators, joined or joining) in every room.
func (h *Hub) members() int {
	n := 0
	for _, r := range h.order {
		n += r.conns
	}
	return n - len(h.line.waiting)
}

// LoadNow is what the hub reads of the ticks' costs at now: the cost of
// the last LoadWindow's ticks (their 90th percentile), the members they
// served (their mean), and how many members the budget holds by the
// linear estimate (0 when nothing limits them: no budget, too few ticks
// measured, or costs under half the budget).
type LoadNow struct {
	Cost     time.Duration
	Members  int
	Capacity int
	Budget   time.Duration
	Ticks    int  // ticks measured in the window
	Floor    int  // members below which nobody is refused (Options.LoadFloor)
	Full     bool // a newcomer is refused now
	Line     LineNow
}

// LineNow is the line's part of what the hub reads (line.go): whether
// newcomers wait in line, how many do, the pace the ticks' headroom
// allows, what a join costs as measured apart from the ticks, and the
// line's counters since the start.
type LineNow struct {
	On       bool
	Waiting  int
	Pace     float64       // joins a second the ticks' headroom allowed over the last rateWindow
	JoinCost time.Duration // what one join costs, as measured (DefaultJoinCost before any)
	// Headroom is the places the measured capacity leaves for the line
	// once the server has been at capacity for a LoadWindow (places past
	// it wait for places to free); -1 before, when the pace alone sets
	// the waits.
	Headroom int
	// Entered, Admitted, Refused and Left count those who took a place,
	// were let in from it, were refused a place or put out of it (the
	// wait would pass the bound, the line is full), and left it.
	Entered, Admitted, Refused, Left uint64
}

// full reports whether a newcomer is refused, given the members the
// server has.
func (l LoadNow) full(members int) bool {
	switch {
	case l.Budget <= 0 || l.Ticks < minLoadSamples || members < l.Floor:
		return false
	case l.Cost >= l.Budget:
		return true
	case l.Cost*2 < l.Budget:
		return false
	}
	return members >= l.Capacity
}

// Why says why newcomers are refused, for them and the log.
func (l LoadNow) Why() string {
	return fmt.Sprintf("server full: at capacity: its ticks take %v of their %v budget with %d players and spectators; try again later",
		l.Cost.Round(100*time.Microsecond), l.Budget, l.Members)
}

// LoadAt returns what the hub reads of the ticks' costs at now.
func (h *Hub) LoadAt(now time.Duration) LoadNow {
	m := &h.load
	l := LoadNow{Budget: m.budget, Floor: m.floor, Line: h.lineNow(now)}
	m.window = m.window[:0]
	for _, s := range m.samples[:m.n] {
		if now-s.at <= LoadWindow {
			m.window = append(m.window, s)
		}
	}
	l.Ticks = len(m.window)
	if l.Ticks == 0 {
		return l
	}
	// The tick at the 90th percentile of the costs (nearest rank), and
	// the members it served: the estimate pairs a cost with its members,
	// however many joined within the window.
	slices.SortFunc(m.window, func(a, b loadSample) int { return cmp.Compare(a.cost, b.cost) })
	at := m.window[(l.Ticks*9+9)/10-1]
	l.Cost, l.Members = at.cost, at.members
	if l.Budget > 0 && l.Cost*2 >= l.Budget {
		l.Capacity = int(int64(l.Members) * int64(l.Budget) / int64(max(l.Cost, 1)))
	}
	l.Full = l.full(h.members())
	return l
}

// capacityRefusal refuses m, a connection's first message, if it is a
// Hello or a Spectate and the server is at capacity (see Load).
func (h *Hub) capacityRefusal(now time.Duration, m protocol.Message) *protocol.Error {
	if h.load.budget <= 0 || h.lineOn() {
		return nil // no admission by load, or newcomers wait in line (line.go)
	}
	switch m.(type) {
	case *protocol.Hello, *protocol.Spectate:
	default:
		return nil
	}
	l := h.LoadAt(now)
	if !l.Full {
		return nil
	}
	h.load.refused = now
	h.noteFull(l, true)
	return &protocol.Error{Code: protocol.ErrCodeFull, Text: l.Why()}
}

// noteCapacity notes, after a tick's cost came in, that the server is
// clear of its capacity again if it said it was full: nobody was refused
// for load for a LoadWindow, and its ticks cost under half the budget,
// or its members are a tenth fewer than the estimate holds (a server
// that lets one in for each that leaves, or whose ticks' costs swing
// about the budget while a crowd joins, stays full in the log, not in
// and out of it with every tick).
func (h *Hub) noteCapacity(now time.Duration) {
	if !h.load.full || h.load.budget <= 0 || now-h.load.refused < LoadWindow {
		return
	}
	l := h.LoadAt(now)
	if !l.Full && (l.Capacity == 0 || h.members()*10 < l.Capacity*9) {
		h.noteFull(l, false)
	}
}

// noteFull notes a change of the server's capacity, once: full, it
// refuses newcomers; not, it takes them again.
func (h *Hub) noteFull(l LoadNow, full bool) {
	if h.load.full == full {
		return
	}
	h.load.full = full
	reason := l.Why()
	if h.lineOn() {
		reason = fmt.Sprintf("at capacity: its ticks take %v of their %v budget with %d players and spectators; newcomers wait in line",
			l.Cost.Round(100*time.Microsecond), l.Budget, l.Members)
	}
	if !full {
		reason = fmt.Sprintf("below capacity again: its ticks take %v of their %v budget with %d players and spectators",
			l.Cost.Round(100*time.Microsecond), l.Budget, l.Members)
	}
	h.notes = append(h.notes, Note{Kind: NoteCapacity, Reason: reason, Full: full})
}
