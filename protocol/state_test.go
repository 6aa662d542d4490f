package protocol_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestStateHeadSharesThePlayerList: the States of one tick, which differ
// only in Ack, are each a head from AppendStateHead followed by the player
// list of any one of them, byte for byte what Append writes.
func TestStateHeadSharesThePlayerList(t *testing.T) {
	for _, n := range []int{0, 1, 3, 1000} {
		first := bigState(n)
		whole, err := protocol.Append(nil, first)
		if err != nil {
			t.Fatal(err)
		}
		size := protocol.StateSize(n, 0)
		if n == 0 {
			size = protocol.StateHeadLen // nothing changed: the head alone
		}
		if len(whole) != size {
			t.Errorf("%d players: the frame is %d bytes, want %d", n, len(whole), size)
		}
		tail := whole[protocol.StateHeadLen:]
		for _, ack := range []uint32{0, 1, first.Ack, 0xA1B2C3D4, 0xFFFFFFFF} {
			st := *first
			st.Ack = ack
			head, err := protocol.AppendStateHead(nil, &st)
			if err != nil {
				t.Fatal(err)
			}
			if len(head) != protocol.StateHeadLen {
				t.Fatalf("head of %d bytes, want %d", len(head), protocol.StateHeadLen)
			}
			want, err := protocol.Append(nil, &st)
			if err != nil {
				t.Fatal(err)
			}
			if got := append(head, tail...); !bytes.Equal(got, want) {
				t.Fatalf("%d players, ack %#x: head and shared list give\n%x\nAppend gives\n%x", n, ack, got, want)
			}
		}
	}
}

// TestMaxStatePlayers: the largest State fits in one frame, one more
// player does not, and AppendStateHead refuses it too.
func TestMaxStatePlayers(t *testing.T) {
	if protocol.StateSize(protocol.MaxStatePlayers, 0)-protocol.HeaderLen > protocol.MaxFrame {
		t.Fatalf("StateSize(MaxStatePlayers, 0) is %d, more than a frame", protocol.StateSize(protocol.MaxStatePlayers, 0))
	}
	if _, err := protocol.Append(nil, bigState(protocol.MaxStatePlayers)); err != nil {
		t.Errorf("a State with MaxStatePlayers players does not encode: %v", err)
	}
	over := bigState(protocol.MaxStatePlayers + 1)
	if _, err := protocol.Append(nil, over); !errors.Is(err, protocol.ErrTooLarge) {
		t.Errorf("a State with one player too many: %v, want ErrTooLarge", err)
	}
	if b, err := protocol.AppendStateHead(nil, over); !errors.Is(err, protocol.ErrTooLarge) || len(b) != 0 {
		t.Errorf("the head of a State with one player too many: %x, %v; want nothing and ErrTooLarge", b, err)
	}
}

// TestIdleStateIsItsHead: a State that changes nothing (an idle crowd, or
// nobody in view) is the 19-byte head alone, and decodes to the same tick,
// time and acknowledgement with nothing changed.
func TestIdleStateIsItsHead(t *testing.T) {
	st := &protocol.State{Tick: 7, TimeNS: 350e6, Ack: 12}
	b, err := protocol.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != protocol.StateHeadLen || protocol.StateHeadLen != 19 {
		t.Fatalf("an idle State is %d bytes, want the %d-byte head (19)", len(b), protocol.StateHeadLen)
	}
	m, _, err := protocol.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.(*protocol.State); !reflect.DeepEqual(got, st) || !got.Empty() {
		t.Errorf("decoded %+v, want %+v", got, st)
	}
}

// TestStateDeltaRoundTrip: a delta with moves, arrivals and departures and
// a full picture decode to what was sent; a full picture with departures
// does not encode, and a body that says nothing is refused on decoding.
func TestStateDeltaRoundTrip(t *testing.T) {
	for _, st := range []*protocol.State{
		{Tick: 1, Ack: 2, Players: []grid.PlayerPos{{ID: 3, Pos: grid.Pos{X: 1023, Y: 5}}}, Gone: []grid.PlayerID{4, 900}},
		{Tick: 1, Ack: 2, Gone: []grid.PlayerID{4}},
		{Tick: 1, Ack: 2, Full: true, Players: []grid.PlayerPos{{ID: 3, Pos: grid.Pos{X: 1, Y: 5}}}},
	} {
		b, err := protocol.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != protocol.StateSize(len(st.Players), len(st.Gone)) {
			t.Errorf("%+v: %d bytes, StateSize says %d", st, len(b), protocol.StateSize(len(st.Players), len(st.Gone)))
		}
		m, _, err := protocol.Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m, st) {
			t.Errorf("decoded %+v, want %+v", m, st)
		}
	}
	bad := &protocol.State{Full: true, Players: []grid.PlayerPos{{ID: 1}}, Gone: []grid.PlayerID{2}}
	if _, err := protocol.Marshal(bad); !errors.Is(err, protocol.ErrBadValue) {
		t.Errorf("a full State with a gone player: %v, want ErrBadValue", err)
	}
	head, _ := protocol.Marshal(&protocol.State{Tick: 1})
	silent := append(head, 0, 0, 0, 0, 0)
	silent[1] += 5
	if _, _, err := protocol.Unmarshal(silent); !errors.Is(err, protocol.ErrBadValue) {
		t.Errorf("a body with nothing in it: %v, want ErrBadValue", err)
	}
}

// bigTick is the States of one tick of n players: one per player, each
// with its own Ack, all sharing one player list.
func bigTick(n int) []protocol.State {
	players := bigState(n).Players
	states := make([]protocol.State, n)
	for i := range states {
		states[i] = protocol.State{Tick: 123456, TimeNS: 6172800000000, Ack: uint32(i * 3), Players: players}
	}
	return states
}

// BenchmarkEncodeStateTick1000 encodes one tick of 1,000 players as a
// server does: the player list once, then a head per recipient.
func BenchmarkEncodeStateTick1000(b *testing.B) {
	states := bigTick(1000)
	var list, heads []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if list, err = protocol.Append(list[:0], &states[0]); err != nil {
			b.Fatal(err)
		}
		heads = heads[:0]
		for i := range states[1:] {
			if heads, err = protocol.AppendStateHead(heads, &states[i+1]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestStateLeft: the players that left the game travel after the gone
// ones, flagged, and only when there are some; a flag with no list, an
// empty list or a player 0 does not decode.
func TestStateLeft(t *testing.T) {
	st := &protocol.State{Tick: 3, TimeNS: 150e6, Ack: 2, Left: []grid.PlayerID{7, 4}}
	b, err := protocol.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != protocol.StateSize(0, 0)+2+2*2 {
		t.Errorf("a State with two left is %d bytes, want %d", len(b), protocol.StateSize(0, 0)+6)
	}
	if m, _, err := protocol.Unmarshal(b); err != nil || !reflect.DeepEqual(m, st) {
		t.Fatalf("decoded %+v, %v; want %+v", m, err, st)
	}
	if st.Empty() {
		t.Error("a State with players that left is Empty")
	}
	body := b[protocol.StateHeadLen:] // flags, no players, nobody gone, left
	for name, bad := range map[string][]byte{
		"flag, no list":  {2, 0, 0, 0, 0},
		"an empty list":  {2, 0, 0, 0, 0, 0, 0},
		"player 0":       {2, 0, 0, 0, 0, 0, 1, 0, 0},
		"list, no flag":  append([]byte{0}, body[1:]...),
		"an unknown bit": append([]byte{6}, body[1:]...),
	} {
		frame := append(append([]byte(nil), b[:protocol.StateHeadLen]...), bad...)
		frame[0], frame[1] = byte((len(frame)-2)>>8), byte(len(frame)-2)
		if _, _, err := protocol.Unmarshal(frame); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}
