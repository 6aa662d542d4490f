package wirecost

import (
	"fmt"
	"time"

	"gridlag/internal/wire"
)

// OneMove is what one move cost each layer, over and above the idle
// traffic: the window of moves less the idle window's rate over as long,
// per move. Its flows are per move, rounded to the byte (or unit).
func (r Result) OneMove() wire.Snapshot {
	n := float64(r.Moves.Moves)
	if n <= 0 || r.Idle.Span <= 0 {
		return wire.Snapshot{Front: r.Front, TCP: wire.TCP{Why: "no moves"}}
	}
	k := r.Moves.Span.Seconds() / r.Idle.Span.Seconds()
	f := func(moves, idle int64) int64 { return int64((float64(moves)-k*float64(idle))/n + 0.5) }
	fl := func(m, i wire.Flow) wire.Flow {
		return wire.Flow{Up: f(m.Up, i.Up), Down: f(m.Down, i.Down), UpOps: f(m.UpOps, i.UpOps), DownOps: f(m.DownOps, i.DownOps)}
	}
	mv, id := r.Moves.Wire, r.Idle.Wire
	s := wire.Snapshot{Front: mv.Front, Game: fl(mv.Game, id.Game), Term: fl(mv.Term, id.Term), Payload: fl(mv.Payload, id.Payload),
		Conn: fl(mv.Conn, id.Conn), Cells: f(mv.Cells, id.Cells), Glyph: f(mv.Glyph, id.Glyph), TCP: mv.TCP}
	if mv.TCP.OK() && id.TCP.OK() {
		s.TCP.Flow = fl(mv.TCP.Flow, id.TCP.Flow)
		s.TCP.UpData, s.TCP.DownData = f(mv.TCP.UpData, id.TCP.UpData), f(mv.TCP.DownData, id.TCP.DownData)
		s.TCP.Retrans = f(mv.TCP.Retrans, id.TCP.Retrans)
	}
	return s
}

// Lines writes r as a teacher shows it: one move's cost layer by layer,
// then a second of idle play and a second of walking.
func (r Result) Lines() []string {
	lines := []string{"== " + r.Title, fmt.Sprintf("   one move (%d moves, less the idle rate), per move:", r.Moves.Moves)}
	lines = append(lines, moveLines(r.OneMove())...)
	lines = append(lines, fmt.Sprintf("   a second of idle play (%.1f s) and of walking (%d moves in %.1f s), per second:",
		r.Idle.Span.Seconds(), r.Walk.Moves, r.Walk.Span.Seconds()))
	idle, walk := r.Idle.Wire.Rows(), r.Walk.Wire.Rows()
	lines = append(lines, fmt.Sprintf("   %-9s %10s %10s %10s %10s", "layer", "idle up", "idle down", "walk up", "walk down"))
	for i := range idle {
		lines = append(lines, fmt.Sprintf("   %-9s %10s %10s %10s %10s", idle[i].Layer,
			rate(idle[i].Flow.Up, r.Idle.Span), rate(idle[i].Flow.Down, r.Idle.Span),
			rate(walk[i].Flow.Up, r.Walk.Span), rate(walk[i].Flow.Down, r.Walk.Span)))
	}
	return lines
}

var frontTitle = map[string]string{wire.FrontTCP: "TCP (gridlag play)", wire.FrontSSH: "SSH (Go's SSH client)", wire.FrontWeb: "the web (a browser)"}

// title is how a teacher reads front: the front end and its client.
func (o Options) title(front string) string {
	switch front {
	case FrontOpenSSH:
		if o.OpenSSH.Chaffs() {
			return "SSH (" + o.OpenSSH.Version + " as it comes: keystroke-timing chaff on)"
		}
		return "SSH (" + o.OpenSSH.Version + ": no keystroke-timing chaff before OpenSSH 9.5)"
	case FrontOpenSSHNoChaff:
		return "SSH (" + o.OpenSSH.Version + " -o ObscureKeystrokeTiming=no)"
	}
	if t, ok := frontTitle[front]; ok {
		return t
	}
	return front
}

// ChaffLines compare the real OpenSSH client's walk with its chaff on
// and off, per second: what the chaff adds on the SSH connection and in
// packets. Nothing when res has not both runs.
func ChaffLines(res []Result) []string {
	var on, off *Result
	for i := range res {
		switch res[i].Front {
		case FrontOpenSSH:
			on = &res[i]
		case FrontOpenSSHNoChaff:
			off = &res[i]
		}
	}
	if on == nil || off == nil {
		return nil
	}
	c := CompareChaff(*on, *off)
	return []string{"== What the OpenSSH client's keystroke-timing chaff adds to a second of walking:",
		fmt.Sprintf("   %-12s %12s %12s %14s %12s", "", "ssh up", "ssh down", "TCP packets", "TCP/IP"),
		fmt.Sprintf("   %-12s %8.0f B/s %8.0f B/s %12.0f/s %8.0f B/s", "with chaff", c.On.ConnUp, c.On.ConnDown, c.On.Packets, c.On.Wire),
		fmt.Sprintf("   %-12s %8.0f B/s %8.0f B/s %12.0f/s %8.0f B/s", "without", c.Off.ConnUp, c.Off.ConnDown, c.Off.Packets, c.Off.Wire),
		"   The server advertises ping@openssh.com (golang.org/x/crypto always does)",
		"   and answers each ping. Chaff also holds each key up to 20 ms (to a tick).",
		"   Turn it off in the client: ssh -o ObscureKeystrokeTiming=no -p 2222 HOST"}
}

// Rates are one walk's figures per second.
type Rates struct {
	ConnUp, ConnDown float64 // the SSH connection's bytes (wire.Meter's Conn)
	Packets, Wire    float64 // TCP segments and their bytes both ways, headers included
}

// Chaff is a walk's rates with the chaff on and off.
type Chaff struct{ On, Off Rates }

// CompareChaff is the walks of on and off, per second.
func CompareChaff(on, off Result) Chaff {
	rates := func(w Window) Rates {
		s := w.Span.Seconds()
		if s <= 0 {
			return Rates{}
		}
		t := w.Wire.TCP
		return Rates{ConnUp: float64(w.Wire.Conn.Up) / s, ConnDown: float64(w.Wire.Conn.Down) / s,
			Packets: float64(t.UpOps+t.DownOps) / s, Wire: float64(t.Wire().Bytes()) / s}
	}
	return Chaff{On: rates(on.Walk), Off: rates(off.Walk)}
}

// rate is n bytes over span as bytes a second.
func rate(n int64, span time.Duration) string {
	if span <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f B/s", float64(n)/span.Seconds())
}

// moveLines is one move's layers: bytes each way and what each layer
// added.
func moveLines(s wire.Snapshot) []string {
	lines := []string{fmt.Sprintf("   %-9s %7s %7s  %s", "layer", "up", "down", "adds")}
	noisy := false
	for _, r := range s.Rows() {
		if r.Layer == "tcp/ip" && !s.TCP.OK() {
			lines = append(lines, "   tcp/ip    "+r.Note)
			continue
		}
		if r.Flow.Up < 0 || r.Flow.Down < 0 || r.Added.Up < 0 || r.Added.Down < 0 {
			// Less than nothing is what the idle traffic's own
			// variation left: no figure, rather than a false one.
			noisy = true
			lines = append(lines, fmt.Sprintf("   %-9s %7s %7s  %s", r.Layer, aboutNothing(r.Flow.Up), aboutNothing(r.Flow.Down), "within the idle traffic's variation"))
			continue
		}
		add := ""
		switch {
		case r.Layer == "tcp/ip":
			ua, da := s.TCP.Acks()
			add = fmt.Sprintf("+%d/+%d B: %d+%d segments of %d B (%d+%d acks)", r.Added.Up, r.Added.Down,
				s.TCP.UpOps, s.TCP.DownOps, s.TCP.Header, ua, da)
		case r.Layer == "terminal":
			add = fmt.Sprintf("%d cells drawn in %d B, %d B of escapes", s.Cells, s.Glyph, s.Term.Down-s.Glyph)
		case r.Added != (wire.Flow{}):
			add = fmt.Sprintf("%+d/%+d B", r.Added.Up, r.Added.Down)
		default:
			add = r.Note
		}
		lines = append(lines, fmt.Sprintf("   %-9s %5d B %5d B  %s", r.Layer, r.Flow.Up, r.Flow.Down, add))
	}
	if noisy {
		lines = append(lines, "   ~: the idle traffic varied by more than a move costs in this run; the rows per second below are whole")
	}
	return lines
}

// aboutNothing is a move's bytes one way, or "~" where subtracting the
// idle rate left less than nothing.
func aboutNothing(n int64) string {
	if n < 0 {
		return "~"
	}
	return fmt.Sprintf("%d B", n)
}
