package protocol_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"testing/iotest"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// idleStates is a stream of States as a server sends them at 20 Hz: idle
// ticks, moves, an Ack that steps, a time that is not a whole number of
// microseconds and a clock that goes back.
func idleStates() []*protocol.State {
	const tick = 50 * time.Millisecond
	moved := []grid.PlayerPos{{ID: 2, Pos: grid.Pos{X: 11, Y: 10}}}
	return []*protocol.State{
		{Tick: 100, TimeNS: uint64(100 * tick), Ack: 7},
		{Tick: 101, TimeNS: uint64(101 * tick), Ack: 7},
		{Tick: 102, TimeNS: uint64(102 * tick), Ack: 9},
		{Tick: 103, TimeNS: uint64(103 * tick), Ack: 9, Players: moved},
		{Tick: 104, TimeNS: uint64(104 * tick), Ack: 9, Full: true, Players: moved},
		{Tick: 105, TimeNS: uint64(105 * tick), Ack: 9},
		{Tick: 106, TimeNS: uint64(106*tick) + 1, Ack: 9}, // not whole microseconds
		{Tick: 107, TimeNS: uint64(107*tick) + 1, Ack: 9},
		{Tick: 108, TimeNS: uint64(106 * tick), Ack: 9}, // time went back
		{Tick: 3, TimeNS: uint64(109 * tick), Ack: 9},   // tick went back
		{Tick: 4, TimeNS: uint64(110 * tick), Ack: 8},   // ack went back
		{Tick: 5, TimeNS: uint64(111 * tick), Ack: 1<<32 - 1},
	}
}

// stepped lists which of idleStates travel as steps.
var stepped = []bool{false, true, true, false, false, true, false, true, false, false, false, true}

// TestStateStreamRoundTrip: on one stream an idle State travels as a step
// of a few bytes wherever its head can be told from the one before, else
// as a whole frame, and the other end decodes every one to the State that
// was sent, between other messages, and whatever pieces the bytes come in.
func TestStateStreamRoundTrip(t *testing.T) {
	var enc protocol.StateStream
	var wire []byte
	var sent []protocol.Message
	for i, st := range idleStates() {
		before := len(wire)
		var err error
		if wire, err = enc.Append(wire, st); err != nil {
			t.Fatal(err)
		}
		frame := wire[before:]
		isStep := frame[protocol.HeaderLen] == byte(protocol.TypeStateStep)
		if isStep != stepped[i] {
			t.Errorf("State %d (%+v) travels as a %v frame of %d bytes", i, st, protocol.Type(frame[protocol.HeaderLen]), len(frame))
		}
		if isStep && st.Ack < 1<<20 && len(frame) > 9 {
			t.Errorf("State %d: a step of %d bytes, want at most 9", i, len(frame))
		}
		sent = append(sent, st)
		ping := &protocol.Ping{Stamp: uint64(i)}
		if wire, err = enc.Append(wire, ping); err != nil {
			t.Fatal(err)
		}
		sent = append(sent, ping)
	}
	var dec protocol.StateStream
	rest := wire
	for i, want := range sent {
		m, n, err := dec.Unmarshal(rest)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		rest = rest[n:]
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("frame %d decoded to %#v, want %#v", i, m, want)
		}
	}
	d := protocol.NewDecoder(iotest.OneByteReader(bytes.NewReader(wire)))
	for i, want := range sent {
		if m, err := d.Decode(); err != nil || !reflect.DeepEqual(m, want) {
			t.Fatalf("Decoder, frame %d: %#v, %v; want %#v", i, m, err, want)
		}
	}
}

// TestIdleStateStepIsSmall: an idle client at 20 Hz with a Ping a second
// receives well under 200 bytes a second once the stream has a State.
func TestIdleStateStepIsSmall(t *testing.T) {
	var enc protocol.StateStream
	const rate = 20
	var wire []byte
	for k := range 2 * rate {
		st := &protocol.State{Tick: uint32(1000 + k), TimeNS: uint64(3600*time.Second + time.Duration(k)*time.Second/rate), Ack: 5000}
		wire, _ = enc.AppendState(wire, st)
	}
	step := (len(wire) - protocol.StateHeadLen) / (2*rate - 1)
	ping := mustMarshal(t, &protocol.Ping{Stamp: 1 << 40})
	if perSecond := step*rate + len(ping); perSecond > 200 {
		t.Errorf("an idle client receives %d bytes a second (steps of %d bytes), want at most 200", perSecond, step)
	}
	if protocol.MinStateLen > step {
		t.Errorf("MinStateLen %d is more than a step of %d bytes", protocol.MinStateLen, step)
	}
}

// TestStepNeedsTheStateBefore: a step first on a stream, or decoded
// alone, is an error naming the reason, not a panic; the stream goes on.
func TestStepNeedsTheStateBefore(t *testing.T) {
	var enc protocol.StateStream
	states := idleStates()
	full, _ := enc.AppendState(nil, states[0])
	step, _ := enc.AppendState(nil, states[1])
	if _, _, err := protocol.Unmarshal(step); !errors.Is(err, protocol.ErrNoBase) {
		t.Errorf("Unmarshal(a step) = %v, want ErrNoBase", err)
	}
	if _, err := protocol.DecodeBody(step[protocol.HeaderLen:]); !errors.Is(err, protocol.ErrNoBase) {
		t.Errorf("DecodeBody(a step) = %v, want ErrNoBase", err)
	}
	d := protocol.NewDecoder(bytes.NewReader(cat(step, full, step)))
	if m, err := d.Decode(); !errors.Is(err, protocol.ErrNoBase) || m != nil {
		t.Errorf("Decode(a step first on the stream) = %#v, %v; want ErrNoBase", m, err)
	}
	if m, err := d.Decode(); err != nil || !reflect.DeepEqual(m, states[0]) {
		t.Fatalf("Decode(the State after) = %#v, %v", m, err)
	}
	if m, err := d.Decode(); err != nil || !reflect.DeepEqual(m, states[1]) {
		t.Errorf("Decode(the step after it) = %#v, %v; want %#v", m, err, states[1])
	}
}

// TestBadSteps: a step whose numbers do not fit the State, or are not in
// their shortest form, is refused with the sentinel that says why.
func TestBadSteps(t *testing.T) {
	base := &protocol.State{Tick: 1<<32 - 10, TimeNS: 1<<64 - 5000, Ack: 1<<32 - 3}
	step := func(parts ...[]byte) []byte { return frame(byte(protocol.TypeStateStep), parts...) }
	for _, tc := range []struct {
		name string
		step []byte
		want error
	}{
		{"tick past 32 bits", step(uv(10), uv(0), uv(0)), protocol.ErrBadValue},
		{"ack past 32 bits", step(uv(0), uv(0), uv(3)), protocol.ErrBadValue},
		{"time past 64 bits", step(uv(0), uv(5), uv(0)), protocol.ErrBadValue},
		{"overlong uvarint", step([]byte{0x80, 0x00}, uv(0), uv(0)), protocol.ErrBadValue},
		{"uvarint past 64 bits", step(bytes.Repeat([]byte{0xff}, 10), []byte{1}, uv(0), uv(0)), protocol.ErrBadValue},
		{"short", step(uv(1), uv(1)), protocol.ErrShort},
		{"trailing", step(uv(1), uv(1), uv(1), []byte{0}), protocol.ErrTrailing},
	} {
		var dec protocol.StateStream
		if _, _, err := dec.Unmarshal(mustMarshal(t, base)); err != nil {
			t.Fatal(err)
		}
		if m, _, err := dec.Unmarshal(tc.step); !errors.Is(err, tc.want) || m != nil {
			t.Errorf("%s: %#v, %v; want %v", tc.name, m, err, tc.want)
		}
		ok := step(uv(9), uv(4), uv(2))
		if m, _, err := dec.Unmarshal(ok); err != nil || !reflect.DeepEqual(m, &protocol.State{Tick: 1<<32 - 1, TimeNS: 1<<64 - 1000, Ack: 1<<32 - 1}) {
			t.Errorf("%s, then a step to the last values: %#v, %v", tc.name, m, err)
		}
	}
}
