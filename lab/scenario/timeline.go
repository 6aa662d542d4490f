package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

// Timeline writes down a simulated world's moments as Lines, as `gridlag
// scenario` prints them: each client's starting line, then every event
// of the world that changed what a client sees, where the server has it
// or what it waits for (and every press, input processed and zap). It
// also keeps every message that crossed a link (Wires), for a sequence
// diagram. The scenario's run and a replay of a lab use it alike.
type Timeline struct {
	w       *sim.World
	start   time.Duration
	clients []*sim.Client
	names   map[grid.PlayerID]string
	last    map[*sim.Client]Line
	// Lines are the moments so far, in time order.
	Lines []Line
	// Wires are the messages that crossed a link so far, in time order
	// of arrival (or of loss, for a datagram lost for good).
	Wires []Wire

	// For the latency budget: each client's finished inputs (Lived),
	// the trips down of its States (StateArrived), and the first
	// client's moves as the last one's screen draws them.
	lives  map[*sim.Client][]client.InputLife
	downs  map[*sim.Client][]time.Duration
	sights sightings
	me     grid.PlayerID // the first client's player
}

// Wire is one message that crossed a player's link, as a sequence
// diagram draws it: times from the timeline's start.
type Wire struct {
	Player string
	Up     bool // from the player to the server
	Label  string
	Sent   time.Duration
	At     time.Duration
	Lost   int // times lost and retransmitted (TCP)
	// Resent is when the copy that got through left: Sent, unless Lost.
	Resent  time.Duration
	Held    bool // held behind a lost message or a lag spike
	Dropped bool // lost for good (a datagram)
	Bytes   int
	// Inputs are the inputs a datagram packet carries, oldest first.
	Inputs []uint32
}

// NewTimeline starts the timeline of clients (ready, on w) at w's time,
// which becomes its time 0: a starting line for each, then, until Stop,
// the world's events. The world's tracers are the timeline's meanwhile.
func NewTimeline(w *sim.World, clients []*sim.Client) *Timeline {
	tl := &Timeline{w: w, start: w.Now(), clients: clients, names: map[grid.PlayerID]string{}, last: map[*sim.Client]Line{},
		lives: map[*sim.Client][]client.InputLife{}, downs: map[*sim.Client][]time.Duration{}}
	if len(clients) > 0 {
		tl.me = clients[0].View().Me
	}
	for _, c := range clients {
		tl.names[c.View().Me] = c.Name()
	}
	for _, c := range clients {
		w.Locked(func() {
			tl.record(tl.start, c, fmt.Sprintf("%s: starts at %v", c.Name(), c.ViewLocked().Predicted), true)
		})
	}
	w.Trace(tl.event)
	w.TraceWire(tl.wire)
	return tl
}

// Start returns the world's time at the timeline's time 0.
func (tl *Timeline) Start() time.Duration { return tl.start }

// Stop stops taking the world's events.
func (tl *Timeline) Stop() {
	tl.w.Trace(nil)
	tl.w.TraceWire(nil)
}

// name names a player by ID, "" for one not of the timeline.
func (tl *Timeline) name(id grid.PlayerID) string { return tl.names[id] }

// known reports whether c is one of the timeline's clients.
func (tl *Timeline) known(c *sim.Client) bool { return slices.Contains(tl.clients, c) }

// event writes down an event of the world.
func (tl *Timeline) event(e sim.Event) {
	if e.Client == nil || !tl.known(e.Client) {
		return
	}
	switch e.Kind {
	case sim.ServerInput:
		if mover, viewer := tl.mover(), tl.viewer(); e.Client == mover && e.Moved && viewer != mover {
			tl.sights.watch(e.T, e.Seq, e.Pos)
		}
	case sim.Lived:
		tl.lives[e.Client] = append(tl.lives[e.Client], *e.Life)
		in := inputLine(e.Client.Name(), e.Life, tl.start, tl.w.Server().Config().Rate > 0)
		tl.record(e.T, e.Client, lifeSentence(e.Client.Name(), in, e.Life), true)
		tl.Lines[len(tl.Lines)-1].Input = in
		return
	case sim.StateArrived:
		tl.downs[e.Client] = append(tl.downs[e.Client], e.T-e.Made)
	}
	if e.Kind == sim.OtherArrived && e.Message != protocol.TypeZapResult && e.Message != protocol.TypeTagged {
		return
	}
	always := e.Kind == sim.Press || e.Kind == sim.HeldSent || e.Kind == sim.ServerInput || e.Kind == sim.Zapped || e.Kind == sim.OtherArrived ||
		e.Kind == sim.LinkChanged
	if e.Kind == sim.ServerZap {
		tl.record(e.T, e.Client, sentence(e, tl.name), true)
		tl.Lines[len(tl.Lines)-1].Zap = zapLine(e, tl.name)
		return
	}
	tl.record(e.T, e.Client, sentence(e, tl.name), always)
	if e.Kind == sim.OtherArrived && e.Message == protocol.TypeTagged {
		if n := e.Client.ViewLocked().LastTagged; n != nil {
			tl.Lines[len(tl.Lines)-1].Tag = &TagLine{By: n.By, Ago: n.Ago}
		}
	}
}

// Points returns the points the server counts for each client of the
// timeline now, by name.
func (tl *Timeline) Points() map[string]int {
	out := map[string]int{}
	for _, c := range tl.clients {
		if p, ok := tl.w.Points(c); ok {
			out[c.Name()] = p
		}
	}
	return out
}

// record writes down client c's moment at world time t, unless nothing
// it shows changed since its last line and always is false.
func (tl *Timeline) record(t time.Duration, c *sim.Client, event string, always bool) {
	v := c.ViewLocked()
	sp, _ := tl.w.PositionLocked(c)
	l := Line{TMS: int64((t - tl.start) / time.Millisecond), T: int64(t - tl.start), Player: c.Name(), Event: event,
		Client: [2]int{v.Predicted.X, v.Predicted.Y}, Server: [2]int{sp.X, sp.Y},
		Pending: []uint32{}, Ack: v.LastAck, Corr: v.Corrections}
	for _, p := range v.Pending {
		l.Pending = append(l.Pending, p.Seq)
	}
	prev, seen := tl.last[c]
	if !always && seen && prev.Client == l.Client && prev.Server == l.Server && slices.Equal(prev.Pending, l.Pending) && prev.Ack == l.Ack {
		return
	}
	tl.last[c] = l
	tl.Lines = append(tl.Lines, l)
}

// wire writes down a message that crossed a link.
func (tl *Timeline) wire(m sim.Wire) {
	if !tl.known(m.Client) {
		return
	}
	tl.Wires = append(tl.Wires, Wire{Player: m.Client.Name(), Up: m.Way == sim.Up, Label: FlightLabel(m.Flight),
		Sent: m.Sent - tl.start, Resent: m.Resent - tl.start, At: m.At - tl.start, Lost: m.Lost, Held: m.Held, Dropped: m.Dropped, Bytes: m.Bytes, Inputs: m.Inputs})
}

// FlightLabel is how a diagram labels a message: "#2 RIGHT", "#3 zap",
// "#1,#2" for a datagram packet of inputs, "state ack #2", "ping".
func FlightLabel(f sim.Flight) string {
	switch f.Type {
	case protocol.TypeInput:
		if len(f.Inputs) > 1 {
			s := ""
			for i, seq := range f.Inputs {
				if i > 0 {
					s += ","
				}
				s += fmt.Sprintf("#%d", seq)
			}
			return s
		}
		return fmt.Sprintf("#%d %v", f.Seq, f.Dir)
	case protocol.TypeZap:
		return fmt.Sprintf("#%d zap", f.Seq)
	case protocol.TypeState, protocol.TypeStateStep:
		return fmt.Sprintf("state ack #%d", f.Ack)
	case 0:
		return "end"
	}
	return strings.ToLower(f.Type.String())
}

// mover is the client whose inputs the latency budget measures: the
// first; viewer the one whose screen it watches them on: the last.
func (tl *Timeline) mover() *sim.Client  { return tl.clients[0] }
func (tl *Timeline) viewer() *sim.Client { return tl.clients[len(tl.clients)-1] }

// advanceTo moves the world to t, a millisecond at a time while a move of
// the mover's is watched for on the viewer's screen.
func (tl *Timeline) advanceTo(t time.Duration) {
	tl.sights.advance(tl.w, tl.viewer(), tl.me, t)
}

// look marks the moves the viewer's screen shows now, if any is watched
// for.
func (tl *Timeline) look() {
	if now := tl.w.Now(); tl.sights.watching(now) {
		tl.sights.look(now, tl.viewer().View(), tl.me)
	}
}

// budget is the latency budget of the mover's inputs so far, from its
// press to the viewer seeing it, the knobs named as cfg's flags; nil if
// the server staged none.
func (tl *Timeline) budget(cfg Config) *BudgetReport {
	mover, viewer := tl.mover(), tl.viewer()
	var down time.Duration
	for _, d := range tl.downs[viewer] {
		down += d
	}
	if n := len(tl.downs[viewer]); n > 0 {
		down /= time.Duration(n)
	}
	b := budgetReport(cfg, tl.lives[mover], mover, viewer, down)
	if b != nil {
		b.Seen = tl.sights.delays(tl.lives[mover])
	}
	return b
}
