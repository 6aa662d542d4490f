package world

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// stagesTo returns the Stages in out addressed to conn, each with the
// State that follows it to conn (nil if none follows).
func stagesTo(out []Envelope, conn ConnID) (stages []protocol.Stages, states []*protocol.State) {
	for i, e := range out {
		s, ok := e.Msg.(*protocol.Stages)
		if !ok || e.To != conn {
			continue
		}
		var st *protocol.State
		for _, f := range out[i+1:] {
			if f.To == conn {
				if m, ok := f.Msg.(*protocol.State); ok {
					st = flat(m)
				}
				break
			}
		}
		stages = append(stages, protocol.Stages{Inputs: append([]protocol.InputStage(nil), s.Inputs...)})
		states = append(states, st)
	}
	return stages, states
}

// stagesPlay is the timeline of the stages tests: ann at (10,10) and bob
// at (12,10), one move a tick at most (Burst 1), 20 Hz. ann moves right
// at 60 ms; at 170 ms she moves into bob, at 175 ms too fast, and zaps
// him at 190 ms; bob, tagged, tries to move up at 195 ms. The ticks are
// at 50, 100, 150, 200 and 250 ms. It hands each batch of the outbox to
// each, whose messages are valid until it returns.
func stagesPlay(t *testing.T, trace map[ConnID]bool, each func([]Envelope)) {
	c := NewCore(Config{Rate: 20, Burst: 1, Spawn: grid.Pos{X: 10, Y: 10}, Spawns: []grid.Pos{{X: 12, Y: 10}}})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	for conn, on := range trace {
		c.Receive(0, conn, &protocol.Trace{On: on})
	}
	keep := func() { each(c.Outbox().Envelopes) }
	keep()
	for _, step := range []struct {
		at   time.Duration
		conn ConnID
		m    protocol.Message
	}{
		{50 * ms, 0, nil},
		{60 * ms, 1, &protocol.Input{Seq: 1, Dir: grid.Right}},
		{100 * ms, 0, nil},
		{150 * ms, 0, nil},
		{170 * ms, 1, &protocol.Input{Seq: 2, Dir: grid.Right}},
		{175 * ms, 1, &protocol.Input{Seq: 3, Dir: grid.Right}},
		{190 * ms, 1, &protocol.Zap{Seq: 4, RenderNS: uint64(150 * ms)}},
		{195 * ms, 2, &protocol.Input{Seq: 1, Dir: grid.Up}},
		{200 * ms, 0, nil},
		{250 * ms, 0, nil},
	} {
		if step.m == nil {
			c.Tick(step.at)
		} else {
			c.Receive(step.at, step.conn, step.m)
		}
		keep()
	}
}

// TestStagesOfATracingClient: a client that asked (Trace) is told, right
// before the State that acknowledges its inputs, when each arrived, when
// the server applied it and what it did, as offsets back from that
// State's time; those one tick acknowledges come together, and a tick that
// acknowledges nothing new sends none.
func TestStagesOfATracingClient(t *testing.T) {
	var stages []protocol.Stages
	var states []*protocol.State
	bobs := 0
	stagesPlay(t, map[ConnID]bool{1: true, 2: true}, func(b []Envelope) {
		s, st := stagesTo(b, 1)
		stages, states = append(stages, s...), append(states, st...)
		if s, _ := stagesTo(b, 2); len(s) > 0 {
			bobs++
			if s[0].Inputs[0].Outcome != protocol.StageFrozen {
				t.Errorf("bob's stages %+v, want his move refused: frozen", s)
			}
		}
	})
	if bobs != 1 {
		t.Errorf("bob got %d Stages, want 1", bobs)
	}
	want := []protocol.Stages{
		{Inputs: []protocol.InputStage{{Seq: 1, Outcome: protocol.StageMoved, BeforeUS: 40_000}}},
		{Inputs: []protocol.InputStage{
			{Seq: 2, Outcome: protocol.StagePlayer, BeforeUS: 30_000},
			{Seq: 3, Outcome: protocol.StageTooFast, BeforeUS: 25_000},
			{Seq: 4, Outcome: protocol.StageZapped, BeforeUS: 10_000},
		}},
	}
	if !reflect.DeepEqual(stages, want) {
		t.Fatalf("ann's stages %+v, want %+v", stages, want)
	}
	for i, at := range []time.Duration{100 * ms, 200 * ms} {
		if st := states[i]; st == nil || st.TimeNS != uint64(at) || st.Ack != want[i].Inputs[len(want[i].Inputs)-1].Seq {
			t.Errorf("stages %d are followed by %+v, want the State of %v acknowledging them", i, st, at)
		}
	}
}

// TestStagesCostNothingUnasked: a client that does not ask is sent
// exactly the frames it was sent before version 5, byte for byte, whether
// or not the others ask: its States keep their size; one that asks gets
// the same States, plus its Stages.
func TestStagesCostNothingUnasked(t *testing.T) {
	// play returns the bytes each of ann and bob is sent, with and
	// without the Stages.
	type sent struct{ all, noStages []byte }
	play := func(trace map[ConnID]bool) (ann, bob sent) {
		var streams [4]protocol.StateStream
		out := [4]*[]byte{&ann.all, &ann.noStages, &bob.all, &bob.noStages}
		stagesPlay(t, trace, func(b []Envelope) {
			for _, e := range b {
				if e.To != 1 && e.To != 2 {
					continue
				}
				for k := 0; k < 2; k++ {
					i := 2*int(e.To-1) + k
					if k == 1 && e.Msg.Type() == protocol.TypeStages {
						continue
					}
					var err error
					if *out[i], err = streams[i].Append(*out[i], e.Msg); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
		return ann, bob
	}
	plainAnn, plainBob := play(nil)
	ann, bob := play(map[ConnID]bool{1: true})
	if !bytes.Equal(plainBob.all, bob.all) {
		t.Errorf("bob, who does not ask, got %d bytes, %d when ann asks: his frames changed", len(plainBob.all), len(bob.all))
	}
	if !bytes.Equal(plainAnn.all, ann.noStages) {
		t.Errorf("ann's frames other than Stages are %d bytes when she asks, %d when not", len(ann.noStages), len(plainAnn.all))
	}
	if extra := len(ann.all) - len(plainAnn.all); extra <= 0 || extra > 2*16 {
		t.Errorf("ann's stages of 4 inputs in two frames cost %d bytes", extra)
	}
	if off, _ := play(map[ConnID]bool{1: false}); !bytes.Equal(plainAnn.all, off.all) {
		t.Errorf("ann, who turned the stages off, got other bytes")
	}
}

// TestTraceOfAnOlderVersionIsAViolation: a client of version 3 or 4
// never sends Trace; one that does broke its version's protocol, as a
// spectator that asks does.
func TestTraceOfAnOlderVersionIsAViolation(t *testing.T) {
	for _, v := range []uint16{3, 4} {
		c := NewCore(Config{Rate: 20})
		joinVersion(t, c, nil, 0, 1, "ann", false, v)
		c.Receive(10*ms, 1, &protocol.Trace{On: true})
		out := c.Outbox().Envelopes
		if len(out) != 1 || !out[0].Close {
			t.Fatalf("version %d: Trace answered %s, want an Error and close", v, describe(out))
		}
		if e, ok := out[0].Msg.(*protocol.Error); !ok || e.Code != protocol.ErrCodeProtocol || !strings.Contains(e.Text, "Trace") {
			t.Errorf("version %d: %+v", v, out[0].Msg)
		}
	}
	c := NewCore(Config{Rate: 20})
	c.Receive(0, 1, &protocol.Spectate{Version: protocol.Version, Name: "teacher"})
	c.Outbox()
	c.Receive(10*ms, 1, &protocol.Trace{On: true})
	if out := c.Outbox().Envelopes; len(out) != 1 || !out[0].Close {
		t.Errorf("a spectator's Trace answered %s, want an Error and close", describe(out))
	}
}

// TestStagesOfAnImmediateServer: at rate 0 the State that acknowledges an
// input goes at once, its stages with it, arrival and State at one time.
func TestStagesOfAnImmediateServer(t *testing.T) {
	c := NewCore(Config{Rate: 0})
	join(t, c, 0, 1, "ann", false)
	c.Receive(0, 1, &protocol.Trace{On: true})
	c.Outbox()
	c.Receive(125*ms, 1, &protocol.Input{Seq: 1, Dir: grid.Right})
	stages, states := stagesTo(c.Outbox().Envelopes, 1)
	if len(stages) != 1 || states[0] == nil || states[0].Ack != 1 || states[0].TimeNS != uint64(125*ms) {
		t.Fatalf("stages %+v, states %+v: want #1 with the State of 125ms", stages, states)
	}
	if in := stages[0].Inputs; len(in) != 1 || in[0] != (protocol.InputStage{Seq: 1, Outcome: protocol.StageMoved}) {
		t.Errorf("stages %+v, want #1 moved, arrived and applied at the State's time", in)
	}
}
