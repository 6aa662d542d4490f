package world

import (
	"fmt"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// The life of an input, the server's side (issue 22): a client of
// protocol version 5 that asks (protocol.Trace) is told, just before each
// State that acknowledges inputs, when each of them arrived, when it was
// applied (or refused) and what it did (protocol.Stages), as offsets back
// from that State's time. A client that never asks is sent nothing more,
// and the Core keeps nothing for it.

// staged is one input processed for a tracing client, until the State
// that acknowledges it.
type staged struct {
	seq              uint32
	outcome          protocol.StageOutcome
	arrived, applied time.Duration
}

// setTrace turns the stages of cl's inputs on or off. A client of a
// version before protocol.StagesSince cannot ask: it broke the protocol.
func (c *Core) setTrace(now time.Duration, cl *client, on bool) {
	if cl.phase != phaseJoined {
		c.violation(now, cl, "a spectator has no inputs to trace: Trace refused")
		return
	}
	if cl.version < protocol.StagesSince {
		c.violation(now, cl, fmt.Sprintf("unexpected %v from a client of protocol version %d", protocol.TypeTrace, cl.version))
		return
	}
	cl.trace = on
	if !on {
		cl.staged = cl.staged[:0]
	}
}

// stage records, for a tracing client, that input seq arrived at now and
// was applied (or refused) at once with outcome o. It keeps the latest
// protocol.MaxStages until the next State.
func (c *Core) stage(now time.Duration, cl *client, seq uint32, o protocol.StageOutcome) {
	if !cl.trace {
		return
	}
	if len(cl.staged) == protocol.MaxStages {
		cl.staged = append(cl.staged[:0], cl.staged[1:]...)
	}
	cl.staged = append(cl.staged, staged{seq: seq, outcome: o, arrived: now, applied: now})
}

// moveStage is the stage outcome of a move that grid.World.Apply judged.
func moveStage(o grid.Outcome) protocol.StageOutcome {
	switch o {
	case grid.Moved:
		return protocol.StageMoved
	case grid.BlockedPlayer:
		return protocol.StagePlayer
	case grid.TooFast:
		return protocol.StageTooFast
	}
	return protocol.StageBlocked
}

// sendStages sends cl, if it traces, the stages of the inputs the State
// about to go at now acknowledges: every one processed since its last
// State.
func (c *Core) sendStages(now time.Duration, cl *client) {
	if !cl.trace || len(cl.staged) == 0 {
		return
	}
	stateUS := uint64(max(now, 0) / time.Microsecond) // the State's TimeNS, in whole µs
	start := len(c.stageBuf)
	for _, s := range cl.staged {
		arrived := uint64(max(s.arrived, 0) / time.Microsecond)
		applied := uint64(max(s.applied, 0) / time.Microsecond)
		before := min(stateUS-min(arrived, stateUS), 1<<32-1)
		c.stageBuf = append(c.stageBuf, protocol.InputStage{
			Seq: s.seq, Outcome: s.outcome, BeforeUS: uint32(before), ApplyUS: uint32(min(applied-min(arrived, applied), before)),
		})
	}
	m := c.stages.get()
	m.Inputs = c.stageBuf[start:len(c.stageBuf):len(c.stageBuf)]
	cl.staged = cl.staged[:0]
	c.send(cl.conn, m)
}
