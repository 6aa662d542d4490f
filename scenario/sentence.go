package scenario

import (
	"fmt"

	"gridlag/client"
	"gridlag/sim"
)

// sentence puts an event of the world into the timeline's words.
func sentence(e sim.Event) string {
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
	case sim.OtherArrived:
		return fmt.Sprintf("%s: %v arrives", name, e.Message)
	case sim.Closed:
		return fmt.Sprintf("%s: connection closed: %v", name, e.Err)
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
