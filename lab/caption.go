package lab

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

// QuietLimit is how much virtual time a step goes through, at most,
// looking for something the screen shows changing: past it, the step
// stops and says nothing visible happened.
const QuietLimit = 10 * time.Second

// look is what the lab's screen shows, as facts a step compares: the
// messages in flight, by identity, and everything else written down
// (positions, acknowledgements, ledgers, the server's board, the zaps'
// news). Where a message is along its trip is not in it: that changes
// with time alone.
type look struct {
	flights map[flightKey]int
	facts   string
	drawn   [2][]client.Other // what each player's board draws of the others
	frozen  [2]bool
}

// flightKey names a message on a link, the same between two looks.
type flightKey struct {
	player   int
	way      sim.Way
	typ      protocol.Type
	seq, ack uint32
	sent     time.Duration
}

// look takes what the screen shows now; the background traffic (pings,
// pongs, the scores, and the round trips measured) only while the strips
// show it.
func (l *Lab) look() look {
	lk := look{flights: map[flightKey]int{}}
	var b strings.Builder
	for i, p := range l.players {
		for _, way := range []sim.Way{sim.Up, sim.Down} {
			for _, f := range p.Client.InFlight(way, nil) {
				if !l.pings && isBackground(f.Type) {
					continue
				}
				lk.flights[flightKey{i, way, f.Type, f.Seq, f.Ack, f.Sent}]++
			}
		}
		v := p.View()
		lk.drawn[i], lk.frozen[i] = v.Others, v.Frozen
		fmt.Fprintf(&b, "%d: %v %v %v ack %d corr %d facing %v %s;", i, v.HasState, v.Predicted, v.Server, v.LastAck, v.Corrections, v.Facing, drawnFacts(&v))
		for _, q := range v.Pending {
			fmt.Fprintf(&b, " #%d", q.Seq)
		}
		if v.LastZap != nil {
			b.WriteString(" " + v.LastZap.Line())
		}
		if v.LastTagged != nil {
			b.WriteString(" " + v.LastTagged.Line())
		}
		if l.pings {
			b.WriteString(" rtt " + client.Millis(v.RTT))
		}
		// The link's knobs the panel shows, and the steps of the trace
		// it follows (the net graph marks each).
		fmt.Fprintf(&b, " link %v %v trace %d", v.Latency, v.Jitter, p.Client.TraceState().Applied)
		b.WriteString("\n")
	}
	for _, p := range l.Overview().Players {
		fmt.Fprintf(&b, "server %d %v ack %d frozen %v;", p.ID, p.Pos, p.Ack, p.Frozen)
		if l.pings && p.HasRTT {
			b.WriteString(" rtt " + client.Millis(p.RTT))
		}
	}
	for _, e := range l.world.Server().Scoreboard(nil) {
		fmt.Fprintf(&b, " score %d %d", e.ID, e.Points)
	}
	lk.facts = b.String()
	return lk
}

// drawnFacts writes what of a player's board changes with time alone,
// between events: where the others are drawn (interpolated), whether the
// player is frozen or protected.
func drawnFacts(v *client.View) string {
	var b strings.Builder
	fmt.Fprintf(&b, "frozen %v safe %v", v.Frozen, v.Protected)
	for _, o := range v.Others {
		fmt.Fprintf(&b, " %d@%v", o.ID, o.Pos)
	}
	return b.String()
}

// timeChange looks for the first moment after now and before until (world
// times, until no later than the world's next event) at which a player's
// board changes with time alone (see drawnFacts), looking every
// probeStep, then to the millisecond. ok is false if there is none.
func (l *Lab) timeChange(until time.Duration) (at time.Duration, ok bool) {
	now := l.world.Now()
	var base [2]string
	for i, p := range l.players {
		v := p.ViewAt(now)
		base[i] = drawnFacts(&v)
	}
	changed := func(t time.Duration) bool {
		for i, p := range l.players {
			if v := p.ViewAt(t); drawnFacts(&v) != base[i] {
				return true
			}
		}
		return false
	}
	const probeStep = 10 * time.Millisecond
	for t := now + probeStep; ; t += probeStep {
		if t >= until {
			t = until - time.Millisecond
		}
		if t <= now {
			return 0, false
		}
		if changed(t) {
			for at = max(t-probeStep, now) + time.Millisecond; at < t && !changed(at); at += time.Millisecond {
			}
			return at, true
		}
		if t >= until-time.Millisecond {
			return 0, false
		}
	}
}

// redrawn says what changed on the players' boards during a step that no
// event told: "Player 2 now draws Player 1 at (12,10)", "Player 2
// thaws".
func (l *Lab) redrawn(before, after look) []string {
	var out []string
	for i, p := range l.players {
		was := map[grid.PlayerID]client.Other{}
		for _, o := range before.drawn[i] {
			was[o.ID] = o
		}
		for _, o := range after.drawn[i] {
			if w, ok := was[o.ID]; !ok || w.Pos != o.Pos {
				out = append(out, fmt.Sprintf("%s now draws %s at %v", p.Name(), o.Name, o.Pos))
			}
		}
		if before.frozen[i] && !after.frozen[i] {
			out = append(out, p.Name()+" thaws")
		}
	}
	return out
}

// same reports whether two looks show the same.
func (a look) same(b look) bool { return a.facts == b.facts && maps.Equal(a.flights, b.flights) }

// isBackground reports whether a message type is the link's background
// traffic, which the strips hide on request: a ping or a pong (every
// second each way, to measure the round trip), the scores (every second
// to everyone), or the instruments' own (a Trace asking for the server's
// stages while a waterfall is open, the Stages that answer).
func isBackground(t protocol.Type) bool {
	switch t {
	case protocol.TypePing, protocol.TypePong, protocol.TypeScores, protocol.TypeRanking, protocol.TypeTrace, protocol.TypeStages:
		return true
	}
	return false
}

// record is the world's trace: in a lesson, the step's run (see runLog);
// while a step runs, what happened, in the caption's words. It runs with
// the world's lock held.
func (l *Lab) record(e sim.Event) {
	if l.log != nil {
		l.log.take(l, e)
	}
	if !l.recording {
		return
	}
	if s := l.say(e); s != "" {
		l.said = append(l.said, s)
	}
}

// say puts an event into a caption's words: "#2 reaches the server and
// moves Player 1 to (12,10)", "ack #1 reaches Player 1: server says
// (11,10), 1 pending input replayed". It is "" for what the caption
// leaves out (a ping while the strips hide them).
func (l *Lab) say(e sim.Event) string {
	name := e.Client.Name()
	switch e.Kind {
	case sim.Press:
		switch e.Result {
		case client.Sent:
			if e.Predict {
				return fmt.Sprintf("%s presses %v: sends #%d, predicted at %v at once", name, e.Dir, e.Seq, e.Pos)
			}
			return fmt.Sprintf("%s presses %v: sends #%d, and waits for the server (no prediction)", name, e.Dir, e.Seq)
		case client.Deferred:
			return fmt.Sprintf("%s presses %v too soon: the speed limit holds it", name, e.Dir)
		}
		return fmt.Sprintf("%s presses %v: ignored", name, e.Dir)
	case sim.HeldSent:
		return fmt.Sprintf("the speed limit lets %s's held press go: sends #%d %v", name, e.Seq, e.Dir)
	case sim.Zapped:
		if e.Result == client.Sent {
			return fmt.Sprintf("%s zaps %v: sends #%d, the beam shows at once", name, e.Dir, e.Seq)
		}
		return fmt.Sprintf("%s zaps: ignored", name)
	case sim.ServerInput:
		if e.Moved {
			return fmt.Sprintf("#%d reaches the server and moves %s to %v", e.Seq, name, e.Pos)
		}
		return fmt.Sprintf("#%d reaches the server: %s stays at %v", e.Seq, name, e.Pos)
	case sim.ServerZap:
		return fmt.Sprintf("zap #%d reaches the server: %s", e.Seq, l.judged(e))
	case sim.StateArrived:
		return stateCaption(e)
	case sim.OtherArrived:
		return l.otherCaption(e)
	case sim.Closed:
		return fmt.Sprintf("%s's connection closes: %v", name, e.Err)
	case sim.ServerDisconnect:
		return fmt.Sprintf("the server closes %s's connection", name)
	case sim.LinkChanged:
		return fmt.Sprintf("%s's network changes (trace %s): %s", name, e.Trace, e.Step)
	}
	return ""
}

// judged says how the server judged a zap.
func (l *Lab) judged(e sim.Event) string {
	z := e.Zap
	target := l.name(z.Target)
	rewind := "not rewound"
	if z.Rewind > 0 {
		rewind = "rewound " + client.Millis(z.Rewind)
	}
	switch z.Outcome {
	case protocol.ZapHit:
		return fmt.Sprintf("hits %s where %s saw it, %v, %s", target, e.Client.Name(), z.Seen, rewind)
	case protocol.ZapLeft:
		return fmt.Sprintf("misses, %s had left the line (seen at %v), %s", target, z.Seen, rewind)
	case protocol.ZapTagged:
		return fmt.Sprintf("misses, %s was already tagged, %s", target, rewind)
	case protocol.ZapProtected:
		return fmt.Sprintf("misses, %s was protected, %s", target, rewind)
	}
	return "misses: " + z.Outcome.String()
}

// stateCaption says what a State told a player and what the player did
// with it.
func stateCaption(e sim.Event) string {
	name := e.Client.Name()
	v := e.Client.ViewLocked()
	s := fmt.Sprintf("ack #%d reaches %s: server says %v", e.Seq, name, e.Pos)
	switch {
	case !v.Predict:
		s += ", shown as it comes (no prediction)"
	case !v.Reconcile && e.Correction != nil:
		s += fmt.Sprintf("; no reconciliation: it jumps from %v to %v", e.Correction.From, e.Correction.To)
	case !v.Reconcile:
		s += ", no reconciliation"
	case e.Replayed == 1:
		s += ", 1 pending input replayed"
	case e.Replayed > 1:
		s += fmt.Sprintf(", %d pending inputs replayed", e.Replayed)
	default:
		s += ", nothing pending"
	}
	if c := e.Correction; c != nil && v.Reconcile {
		s += fmt.Sprintf("; corrected from %v to %v (%s)", c.From, c.To, c.Reason)
	}
	return s
}

// otherCaption says what a message other than a State told a player.
func (l *Lab) otherCaption(e sim.Event) string {
	name := e.Client.Name()
	v := e.Client.ViewLocked()
	switch {
	case e.Message == protocol.TypeZapResult && v.LastZap != nil:
		return fmt.Sprintf("%s reads the server's word: %s", name, v.LastZap.Line())
	case e.Message == protocol.TypeTagged && v.LastTagged != nil:
		return fmt.Sprintf("%s reads: %s; frozen", name, v.LastTagged.Line())
	case isBackground(e.Message) && !l.pings:
		return ""
	case e.Message == protocol.TypePing:
		return fmt.Sprintf("a ping reaches %s, which answers with a pong", name)
	case e.Message == protocol.TypePong:
		return fmt.Sprintf("a pong reaches %s: its round trip is measured", name)
	}
	return fmt.Sprintf("%s reaches %s", typeWords(e.Message), name)
}

// typeWords names a message type in a caption: "a state", "the scores".
func typeWords(t protocol.Type) string {
	switch t {
	case protocol.TypeState:
		return "a state"
	case protocol.TypeZapResult:
		return "a zap result"
	case protocol.TypeTagged:
		return "a tag"
	case protocol.TypeScores, protocol.TypeRanking:
		return "the scores"
	case protocol.TypeProtect:
		return "a protection"
	case protocol.TypeTrace:
		return "a trace request"
	case protocol.TypeStages:
		return "a stage report"
	case protocol.TypeQueued:
		return "a place in line"
	case protocol.TypeAdmission:
		return "the rules of admission"
	}
	return "a " + strings.ToLower(t.String())
}

// sends says what no event told of a step, from the messages in flight
// before and after it: what reached the server without changing the world
// ("a ping from Player 1 reaches the server, which answers with a pong"),
// what the server sent ("the server sends a state to Player 1 (ack #1)
// and Player 2 (ack #0)") and the pings the players sent.
func (l *Lab) sends(before, after look) []string {
	var out []string
	answered := map[int]bool{} // players whose ping the server answered
	for _, k := range slices.SortedFunc(maps.Keys(before.flights), compareFlights) {
		if before.flights[k] <= after.flights[k] || k.way != sim.Up {
			continue
		}
		name := l.players[k.player].Name()
		switch k.typ {
		case protocol.TypePing:
			answered[k.player] = true
			out = append(out, fmt.Sprintf("a ping from %s reaches the server, which answers with a pong", name))
		case protocol.TypePong:
			out = append(out, fmt.Sprintf("a pong from %s reaches the server: its round trip is measured", name))
		}
	}
	var states []string
	others := map[string][]string{}
	var kinds []string
	for _, k := range slices.SortedFunc(maps.Keys(after.flights), compareFlights) {
		if after.flights[k] <= before.flights[k] {
			continue
		}
		name := l.players[k.player].Name()
		switch {
		case k.way == sim.Up && k.typ == protocol.TypePing:
			out = append(out, fmt.Sprintf("%s pings the server", name))
			continue
		case k.way == sim.Up, k.typ == protocol.TypePong && answered[k.player]:
			continue // an input or a zap (its press said so), a pong (the ping's arrival said so)
		case k.typ == protocol.TypePing:
			out = append(out, fmt.Sprintf("the server pings %s", name))
			continue
		}
		if k.typ == protocol.TypeState {
			states = append(states, fmt.Sprintf("%s (ack #%d)", name, k.ack))
			continue
		}
		w := typeWords(k.typ)
		if _, ok := others[w]; !ok {
			kinds = append(kinds, w)
		}
		others[w] = append(others[w], name)
	}
	if len(states) > 0 {
		out = append(out, "the server sends a state to "+andList(states))
	}
	for _, w := range kinds {
		out = append(out, fmt.Sprintf("the server sends %s to %s", w, andList(others[w])))
	}
	return out
}

// compareFlights orders flight keys by player, way, send time and type.
func compareFlights(a, b flightKey) int {
	switch {
	case a.player != b.player:
		return a.player - b.player
	case a.way != b.way:
		return int(a.way) - int(b.way)
	case a.sent != b.sent:
		return int(a.sent - b.sent)
	}
	return int(a.typ) - int(b.typ)
}

// andList joins "a", "b" and "c" as "a, b and c".
func andList(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Caption says in a line what the last step did (see Step), "" before
// any step and once the clock runs again.
func (l *Lab) Caption() string { return l.caption }
