// Package wirecost measures what a move costs the wire on each front end
// (TCP, SSH, the web), on a real game server and real front ends on
// loopback, with a real client of each: a player joins alone, stays idle
// for a while, makes moves one at a time, then walks. What each layer
// carried in each window is the front end's own counters and the
// kernel's (package wire: the same counters the game's wire overlay
// shows); one move's cost is the window of moves less the idle
// window's rate, per move. It backs `gridlag lab -wire`, the lesson's
// figures and docs/wire-cost.md.
package wirecost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/wire"
)

// Options say what to measure, and how long.
type Options struct {
	// Fronts are the front ends measured, in order: wire.FrontTCP,
	// wire.FrontSSH, wire.FrontWeb (all three when empty).
	Fronts []string
	// Moves is how many moves the window of moves makes, one at a time:
	// each acknowledged, then Gap later the next (20, every 300 ms, by
	// default).
	Moves int
	Gap   time.Duration
	// Idle is how long the idle window lasts (2 s by default); Walk how
	// long the player walks, a move every move time (3 s by default).
	Idle, Walk time.Duration
	// Probe, if set, reads the system's own count of what the network
	// carried (Proc, in a network namespace of the run's own) at each
	// reading, beside the counters.
	Probe func() (Probe, error)
	// Term is the terminal type of the SSH and web players (xterm-256color
	// by default), at 80x24.
	Term string
	// OpenSSH, if its Path is set, is a real OpenSSH client (see
	// FindOpenSSH) measured after the others on the same SSH front end,
	// in a terminal of its own: FrontOpenSSH, and FrontOpenSSHNoChaff
	// if it has keystroke-timing chaff to turn off.
	OpenSSH OpenSSH
	// Logger receives the servers' logs; nil discards them.
	Logger *log.Logger
}

func (o Options) withDefaults() Options {
	if len(o.Fronts) == 0 {
		o.Fronts = []string{wire.FrontTCP, wire.FrontSSH, wire.FrontWeb}
		if o.OpenSSH.Path != "" {
			o.Fronts = append(o.Fronts, FrontOpenSSH)
			if o.OpenSSH.Chaffs() {
				o.Fronts = append(o.Fronts, FrontOpenSSHNoChaff)
			}
		}
	}
	if o.Moves <= 0 {
		o.Moves = 20
	}
	if o.Gap <= 0 {
		o.Gap = 300 * time.Millisecond
	}
	if o.Idle <= 0 {
		o.Idle = 2 * time.Second
	}
	if o.Walk <= 0 {
		o.Walk = 3 * time.Second
	}
	if o.Term == "" {
		o.Term = "xterm-256color"
	}
	if o.Logger == nil {
		o.Logger = log.New(io.Discard)
	}
	return o
}

// Probe is the system's count of IP packets sent and their bytes,
// headers included.
type Probe struct {
	Packets, Octets int64
}

// Window is what went through in one window of a run.
type Window struct {
	Span  time.Duration
	Moves int64         // moves the server acknowledged in it
	Wire  wire.Snapshot // the counters' difference
	Probe Probe         // the system's difference (zero without Options.Probe)
}

// Result is one front end's run: its idle window, its window of moves
// one at a time, its walk.
type Result struct {
	Front             string
	Title             string // the front end and its client, as a teacher reads it
	Idle, Moves, Walk Window
}

// player is one measured player: its counters, the game's client of its
// session (where the moves are acknowledged), and how it presses a key.
type player interface {
	meter() *wire.Meter
	session() client.Session // nil until the game welcomed the player
	press(d grid.Dir) error
	close()
}

// hangGuard bounds every wait on the servers and clients: a real socket
// that never answers fails the run, it never hangs it.
const hangGuard = 30 * time.Second

// Run measures each front end of o in turn, on a game server and front
// ends of its own on 127.0.0.1, one player at a time.
func Run(ctx context.Context, o Options) ([]Result, error) {
	o = o.withDefaults()
	st, err := startStack(o)
	if err != nil {
		return nil, err
	}
	defer st.close()
	var out []Result
	for _, front := range o.Fronts {
		p, err := st.open(ctx, front)
		if err != nil {
			return out, fmt.Errorf("%s: %w", front, err)
		}
		r, err := measure(ctx, o, front, p)
		p.close()
		if err != nil {
			return out, fmt.Errorf("%s: %w", front, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// reading is the counters at one moment.
type reading struct {
	at    time.Time
	snap  wire.Snapshot
	acked uint32
	probe Probe
}

func read(o Options, p player) (reading, error) {
	r := reading{at: time.Now(), snap: p.meter().Snapshot()}
	if s := p.session(); s != nil {
		r.acked = s.View().LastAck
	}
	if o.Probe != nil {
		pr, err := o.Probe()
		if err != nil {
			return r, err
		}
		r.probe = pr
	}
	return r, nil
}

func window(a, b reading) Window {
	return Window{Span: b.at.Sub(a.at), Moves: int64(b.acked - a.acked), Wire: b.snap.Sub(a.snap),
		Probe: Probe{Packets: b.probe.Packets - a.probe.Packets, Octets: b.probe.Octets - a.probe.Octets}}
}

// measure runs the three windows of one player.
func measure(ctx context.Context, o Options, front string, p player) (Result, error) {
	res := Result{Front: front, Title: o.title(front)}
	sess, err := joined(ctx, p)
	if err != nil {
		return res, err
	}
	if err := pause(ctx, time.Second); err != nil { // the first screens drawn, the first acks gone
		return res, err
	}
	w := walker{}
	windows := []struct {
		into *Window
		run  func() error
	}{
		{&res.Idle, func() error { return pause(ctx, o.Idle) }},
		{&res.Moves, func() error {
			for range o.Moves {
				if err := w.step(ctx, p, sess, true); err != nil {
					return err
				}
				if err := pause(ctx, o.Gap); err != nil {
					return err
				}
			}
			return nil
		}},
		{&res.Walk, func() error {
			move := sess.View().MoveTime
			for end := time.Now().Add(o.Walk); time.Now().Before(end); {
				if err := w.step(ctx, p, sess, false); err != nil {
					return err
				}
				if err := pause(ctx, move); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, win := range windows {
		a, err := read(o, p)
		if err != nil {
			return res, err
		}
		if err := win.run(); err != nil {
			return res, err
		}
		b, err := read(o, p)
		if err != nil {
			return res, err
		}
		*win.into = window(a, b)
	}
	return res, nil
}

// joined waits for the player's game session to be on the board.
func joined(ctx context.Context, p player) (client.Session, error) {
	deadline := time.Now().Add(hangGuard)
	for {
		if s := p.session(); s != nil && s.View().HasState {
			return s, nil
		}
		if time.Now().After(deadline) {
			return nil, errors.New("the player was not on the board in time")
		}
		if err := pause(ctx, 10*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// pause waits d, or until ctx is done.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// walker moves the player back and forth between two floor cells, so
// that every move moves it.
type walker struct{ last grid.Dir }

// step presses one move; if wait, until the server acknowledged it.
func (w *walker) step(ctx context.Context, p player, s client.Session, wait bool) error {
	v := s.View()
	d := w.next(v.Map, v.Predicted)
	if err := p.press(d); err != nil {
		return err
	}
	w.last = d
	if !wait {
		return nil
	}
	want := v.LastAck + uint32(len(v.Pending)) + 1
	deadline := time.Now().Add(hangGuard)
	for s.View().LastAck < want {
		if time.Now().After(deadline) {
			return fmt.Errorf("move %d was not acknowledged in time", want)
		}
		if err := pause(ctx, 2*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// next is the way back where the last move came from, or else the first
// way to a floor cell.
func (w *walker) next(m *grid.Map, at grid.Pos) grid.Dir {
	if w.last.Valid() && m != nil && !m.Wall(at.Add(w.last.Opposite())) {
		return w.last.Opposite()
	}
	for _, d := range []grid.Dir{grid.Right, grid.Left, grid.Down, grid.Up} {
		if m != nil && !m.Wall(at.Add(d)) {
			return d
		}
	}
	return grid.Right
}
