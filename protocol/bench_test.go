package protocol_test

import (
	"bytes"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// bigState is a State with n players spread over a 1024-wide grid.
func bigState(n int) *protocol.State {
	st := &protocol.State{Tick: 123456, TimeNS: 6172800000000, Ack: 98765, Players: make([]grid.PlayerPos, n)}
	for i := range st.Players {
		st.Players[i] = grid.PlayerPos{ID: grid.PlayerID(i + 1), Pos: grid.Pos{X: i * 7 % 1024, Y: i / 3}}
	}
	return st
}

// BenchmarkEncodeState1000 is the server's hot path: one State of 1,000
// players appended to a reused buffer, as the Encoder does.
func BenchmarkEncodeState1000(b *testing.B) {
	st := bigState(1000)
	buf, err := protocol.Append(nil, st)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = protocol.Append(buf[:0], st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeState1000 is the client's hot path: one State of 1,000
// players read by a Decoder.
func BenchmarkDecodeState1000(b *testing.B) {
	frame, err := protocol.Marshal(bigState(1000))
	if err != nil {
		b.Fatal(err)
	}
	r := bytes.NewReader(frame)
	dec := protocol.NewDecoder(r)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(frame)
		m, err := dec.Decode()
		if err != nil {
			b.Fatal(err)
		}
		if len(m.(*protocol.State).Players) != 1000 {
			b.Fatal("wrong player count")
		}
	}
}

// BenchmarkInputRoundTrip is one key press: encode an Input and decode it.
func BenchmarkInputRoundTrip(b *testing.B) {
	in := &protocol.Input{Seq: 1, Dir: grid.Right}
	var buf []byte
	b.SetBytes(8)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = protocol.Append(buf[:0], in); err != nil {
			b.Fatal(err)
		}
		if _, _, err := protocol.Unmarshal(buf); err != nil {
			b.Fatal(err)
		}
	}
}
