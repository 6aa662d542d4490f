package scenario

import (
	"fmt"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

// sentence puts an event of the world into the timeline's words; names
// names the players by ID.
func sentence(e sim.Event, names func(grid.PlayerID) string) string {
	name := e.Client.Name()
	switch e.Kind {
	case sim.Press:
		switch e.Result {
		case client.Sent:
			return fmt.Sprintf("%s: press %v, sends #%d", name, e.Dir, e.Seq) + predicts(e)
		case client.Deferred:
			return fmt.Sprintf("%s: press %v, held by the speed limit", name, e.Dir)
		}
		return fmt.Sprintf("%s: press %v, ignored", name, e.Dir)
	case sim.HeldSent:
		return fmt.Sprintf("%s: speed limit allows the held press: sends #%d %v", name, e.Seq, e.Dir) + predicts(e)
	case sim.ServerJoin:
		return fmt.Sprintf("server: %s joins at %v", name, e.Pos)
	case sim.ServerInput:
		what := "moves to"
		if !e.Moved {
			what = "stays at"
		}
		return fmt.Sprintf("server: processes #%d %v, %s %v", e.Seq, e.Dir, what, e.Pos)
	case sim.ServerDisconnect:
		return "server: connection closed"
	case sim.StateArrived:
		return stateArrives(e)
	case sim.Zapped:
		if e.Result == client.Sent {
			return fmt.Sprintf("%s: zap %v, sends #%d", name, e.Dir, e.Seq)
		}
		return fmt.Sprintf("%s: zap, ignored", name)
	case sim.ServerZap:
		return zapJudged(e, names)
	case sim.OtherArrived:
		return arrives(e)
	case sim.Closed:
		return fmt.Sprintf("%s: connection closed: %v", name, e.Err)
	case sim.LinkChanged:
		return fmt.Sprintf("%s: network (trace %s): %s", name, e.Trace, e.Step)
	}
	return fmt.Sprintf("%s: event %d", name, e.Kind)
}

// predicts is the end of a sentence about an input sent: where the player
// is predicted to be, if prediction is on.
func predicts(e sim.Event) string {
	if !e.Predict {
		return ""
	}
	return fmt.Sprintf(", predicts %v", e.Pos)
}

// stateArrives says what a State told a client and what it did with it.
func stateArrives(e sim.Event) string {
	s := fmt.Sprintf("%s: state arrives, ack #%d, server says %v", e.Client.Name(), e.Seq, e.Pos)
	if e.Replayed > 0 {
		s += fmt.Sprintf(", replays %d pending", e.Replayed)
	}
	if c := e.Correction; c != nil {
		s += fmt.Sprintf("; CORRECTION %v -> %v (%s)", c.From, c.To, c.Reason)
	}
	return s
}

// arrives says what a message other than a State told a client: the
// zap's result or the tag in the panel's words.
func arrives(e sim.Event) string {
	name := e.Client.Name()
	v := e.Client.ViewLocked()
	switch {
	case e.Message == protocol.TypeZapResult && v.LastZap != nil:
		return fmt.Sprintf("%s: zap result arrives: %s", name, v.LastZap.Line())
	case e.Message == protocol.TypeTagged && v.LastTagged != nil:
		return fmt.Sprintf("%s: %s; frozen", name, v.LastTagged.Line())
	}
	return fmt.Sprintf("%s: %v arrives", name, e.Message)
}

// zapJudged says how the server judged a zap, e.g. "server: processes #3
// zap RIGHT from (10,10): hits rival, rewound 216ms".
func zapJudged(e sim.Event, names func(grid.PlayerID) string) string {
	z := e.Zap
	s := fmt.Sprintf("server: processes #%d zap %v from %v: ", e.Seq, z.Beam.Dir, z.Beam.From)
	switch z.Outcome {
	case protocol.ZapHit:
		s += fmt.Sprintf("hits %s at %v", names(z.Target), z.Seen)
	case protocol.ZapLeft:
		s += fmt.Sprintf("misses, %s had left the line (seen at %v)", names(z.Target), z.Seen)
	case protocol.ZapTagged:
		s += fmt.Sprintf("misses, %s was already tagged (seen at %v)", names(z.Target), z.Seen)
	case protocol.ZapProtected:
		s += fmt.Sprintf("misses, %s was protected (seen at %v)", names(z.Target), z.Seen)
	default:
		s += "misses: " + z.Outcome.String()
	}
	if z.Rewind > 0 {
		s += ", rewound " + client.Millis(z.Rewind)
	} else {
		s += ", not rewound"
	}
	return s
}

// zapLine is the JSON object of a ServerZap event.
func zapLine(e sim.Event, names func(grid.PlayerID) string) *ZapLine {
	z := &ZapLine{Shooter: e.Client.Name(), Hit: e.Zap.Hit(), RewindMS: e.Zap.Rewind.Round(time.Millisecond).Milliseconds(), Seq: e.Seq}
	if z.Hit {
		t := names(e.Zap.Target)
		z.Target = &t
		return z
	}
	switch o := e.Zap.Outcome; o {
	case protocol.ZapLeft, protocol.ZapProtected, protocol.ZapTagged:
		// As the shooter's panel says it (client.ZapResult.Line).
		z.Why = client.ZapResult{Outcome: o, Target: names(e.Zap.Target)}.Line()
		z.Why = strings.TrimPrefix(z.Why, "miss: ")
	default:
		z.Why = o.String()
	}
	return z
}
