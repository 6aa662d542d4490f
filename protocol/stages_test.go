package protocol_test

import (
	"errors"
	"testing"

	"gridlag/protocol"
)

// TestStagesAreSmall: the stage times of one input acknowledged in a tick
// cost about ten bytes beside its State, a few more for a second input,
// and a Trace is four bytes: a client that asks pays little, one that
// does not pays nothing (the States are untouched).
func TestStagesAreSmall(t *testing.T) {
	one := &protocol.Stages{Inputs: []protocol.InputStage{{Seq: 1234, Outcome: protocol.StageMoved, BeforeUS: 37_000, ApplyUS: 0}}}
	if b := mustMarshal(t, one); len(b) > 11 {
		t.Errorf("one input's stages are a %d-byte frame, want at most 11", len(b))
	}
	two := &protocol.Stages{Inputs: append(one.Inputs, protocol.InputStage{Seq: 1235, Outcome: protocol.StageTooFast, BeforeUS: 1_000, ApplyUS: 0})}
	if b := mustMarshal(t, two); len(b) > 17 {
		t.Errorf("two inputs' stages are a %d-byte frame, want at most 17", len(b))
	}
	if b := mustMarshal(t, &protocol.Trace{On: true}); len(b) != 4 {
		t.Errorf("Trace is a %d-byte frame, want 4", len(b))
	}
}

// TestStagesRefuseWhatTheyCannotMean: the encoder refuses what no server
// would say (no input, too many, numbers not rising, an unknown outcome,
// an input applied before it arrived), as the decoder does.
func TestStagesRefuseWhatTheyCannotMean(t *testing.T) {
	in := func(seq uint32, o protocol.StageOutcome, before, apply uint32) protocol.InputStage {
		return protocol.InputStage{Seq: seq, Outcome: o, BeforeUS: before, ApplyUS: apply}
	}
	many := make([]protocol.InputStage, protocol.MaxStages+1)
	for i := range many {
		many[i] = in(uint32(i+1), protocol.StageMoved, 1, 0)
	}
	for name, st := range map[string]*protocol.Stages{
		"none":            {},
		"too many":        {Inputs: many},
		"not rising":      {Inputs: []protocol.InputStage{in(5, protocol.StageMoved, 1, 0), in(5, protocol.StageMoved, 1, 0)}},
		"unknown outcome": {Inputs: []protocol.InputStage{in(5, 0, 1, 0)}},
		"past the last":   {Inputs: []protocol.InputStage{in(5, protocol.StageCooldown+1, 1, 0)}},
		"applied first":   {Inputs: []protocol.InputStage{in(5, protocol.StageMoved, 1, 2)}},
	} {
		if _, err := protocol.Marshal(st); !errors.Is(err, protocol.ErrBadValue) {
			t.Errorf("%s: Marshal = %v, want ErrBadValue", name, err)
		}
	}
	ok := &protocol.Stages{Inputs: many[:protocol.MaxStages]}
	b := mustMarshal(t, ok)
	if m, _, err := protocol.Unmarshal(b); err != nil || len(m.(*protocol.Stages).Inputs) != protocol.MaxStages {
		t.Errorf("MaxStages inputs: %v, %v", m, err)
	}
}

// TestStageOutcomes: the first four outcomes applied the input, the rest
// refused it, and each says so in words.
func TestStageOutcomes(t *testing.T) {
	for o := protocol.StageMoved; o <= protocol.StageCooldown; o++ {
		want := o <= protocol.StageZapped
		if o.Applied() != want {
			t.Errorf("%v.Applied() = %v", o, o.Applied())
		}
		if o.String() == "" || o.String()[0] == 'S' {
			t.Errorf("outcome %d says %q", o, o.String())
		}
	}
}
