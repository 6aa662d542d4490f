package protocol

import (
	"encoding/binary"
	"fmt"
	"math"
)

// StagesSince is the first version that may ask for the stage times of its
// inputs (Trace) and is sent them (Stages). A client of an older version
// never sends Trace, so it is sent none: its bytes are its version's.
const StagesSince uint16 = 5

// Trace (since version 5) asks the server to send the client, from now on,
// the server's stages of each of its inputs (On), or to stop (not On). A
// client that draws no waterfall never asks, and is sent no Stages: it
// pays nothing for them. The server forgets it with the connection: a
// resumed client asks again.
type Trace struct {
	On bool
}

// Stages (since version 5) is the server's side of the life of the inputs
// the State that follows it acknowledges, sent only to a client that asked
// (Trace): for each, when it arrived at the server and when the server
// applied it, and what the server did with it. Its times are offsets back
// from that State's time (State.TimeNS, when the State carrying their
// acknowledgement was made), in whole microseconds, so that a few bytes
// say them: the State's time less BeforeUS is the arrival, and ApplyUS
// after the arrival the server applied the input (or refused it).
//
// Inputs are in increasing Seq, at most MaxStages of them: a server that
// processed more between two States of one client tells the latest.
type Stages struct {
	Inputs []InputStage
}

// InputStage is the server's side of one input's life (see Stages).
type InputStage struct {
	Seq      uint32
	Outcome  StageOutcome
	BeforeUS uint32 // the acknowledging State's time less the input's arrival, µs
	ApplyUS  uint32 // from the arrival to when the server applied (or refused) it, µs; at most BeforeUS
}

// MaxStages is the most inputs one Stages carries.
const MaxStages = 64

// StageOutcome is what the server did with an input.
type StageOutcome uint8

// The outcomes of an input at the server. The first four applied it (a move
// that was blocked was still the player's move: it turned to face that
// way); the last three refused it.
const (
	StageMoved    StageOutcome = iota + 1 // a move: the player moved one cell
	StageBlocked                          // a move into a wall or off the map: the player turned only
	StagePlayer                           // a move into a cell another player stands on: the player turned only
	StageZapped                           // a zap, fired and judged (its ZapResult says how)
	StageTooFast                          // refused by the server's speed limit
	StageFrozen                           // refused: the player was frozen by a zap
	StageCooldown                         // a zap refused: too soon after the last
	lastStage     = StageCooldown
)

// Applied reports whether the server applied the input (a move, blocked or
// not, or a zap fired), rather than refused it.
func (o StageOutcome) Applied() bool { return o >= StageMoved && o <= StageZapped }

// String says what the outcome was in a few words.
func (o StageOutcome) String() string {
	switch o {
	case StageMoved:
		return "moved"
	case StageBlocked:
		return "blocked by a wall"
	case StagePlayer:
		return "blocked by another player"
	case StageZapped:
		return "fired"
	case StageTooFast:
		return "refused by the speed limit"
	case StageFrozen:
		return "refused: frozen"
	case StageCooldown:
		return "refused: zap cooling down"
	}
	return fmt.Sprintf("StageOutcome(%d)", uint8(o))
}

// Type implements Message.
func (*Trace) Type() Type { return TypeTrace }

// Type implements Message.
func (*Stages) Type() Type { return TypeStages }

func (m *Trace) appendPayload(b []byte) ([]byte, error) { return appendBool(b, m.On), nil }

func (m *Trace) decodePayload(r *reader) error {
	m.On = r.bool()
	return r.done()
}

// The layout of Stages: a count byte (1 to MaxStages), then for each input
// its Seq as a uvarint (the first whole, each next one as its distance
// from the one before, at least 1), its outcome byte, BeforeUS and
// ApplyUS as uvarints. One input acknowledged a tick is about 10 bytes,
// frame included.
func (m *Stages) appendPayload(b []byte) ([]byte, error) {
	if len(m.Inputs) == 0 || len(m.Inputs) > MaxStages {
		return b, fmt.Errorf("%d inputs, want 1 to %d: %w", len(m.Inputs), MaxStages, ErrBadValue)
	}
	b = append(b, byte(len(m.Inputs)))
	var prev uint32
	for i, in := range m.Inputs {
		if i > 0 && in.Seq <= prev || in.Outcome < StageMoved || in.Outcome > lastStage || in.ApplyUS > in.BeforeUS {
			return b, fmt.Errorf("input %d: #%d after #%d, %v, applied %d µs after arriving %d µs before: %w",
				i, in.Seq, prev, in.Outcome, in.ApplyUS, in.BeforeUS, ErrBadValue)
		}
		b = binary.AppendUvarint(b, uint64(in.Seq-prev))
		b = append(b, byte(in.Outcome))
		b = binary.AppendUvarint(b, uint64(in.BeforeUS))
		b = binary.AppendUvarint(b, uint64(in.ApplyUS))
		prev = in.Seq
	}
	return b, nil
}

func (m *Stages) decodePayload(r *reader) error {
	n := int(r.u8())
	if r.err == nil && (n == 0 || n > MaxStages) {
		r.fail(ErrBadValue)
	}
	m.Inputs = nil
	if r.err == nil {
		m.Inputs = make([]InputStage, 0, n)
	}
	var prev uint64
	for i := 0; i < n && r.err == nil; i++ {
		d := r.uvarint()
		in := InputStage{Outcome: StageOutcome(r.u8())}
		before, apply := r.uvarint(), r.uvarint()
		seq := prev + d
		if r.err == nil && (d == 0 && i > 0 || seq > math.MaxUint32 || in.Outcome < StageMoved || in.Outcome > lastStage ||
			before > math.MaxUint32 || apply > before) {
			r.fail(ErrBadValue)
		}
		in.Seq, in.BeforeUS, in.ApplyUS = uint32(seq), uint32(before), uint32(apply)
		m.Inputs = append(m.Inputs, in)
		prev = seq
	}
	if r.err != nil {
		m.Inputs = nil
	}
	return r.done()
}
