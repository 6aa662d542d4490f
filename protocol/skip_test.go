package protocol_test

import (
	"bytes"
	"reflect"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestDecoderSkipsAndReadsHeads: a reader with no use for a map's chunks
// passes over them and gets the message after them; one that wants only
// acknowledgements gets States' heads, and the steps after them still
// decode.
func TestDecoderSkipsAndReadsHeads(t *testing.T) {
	full := &protocol.State{Tick: 1, TimeNS: 50e6, Ack: 0, Full: true,
		Players: []grid.PlayerPos{{ID: 1, Pos: grid.Pos{X: 3, Y: 4}}, {ID: 2, Pos: grid.Pos{X: 5, Y: 4}}}}
	moved := &protocol.State{Tick: 2, TimeNS: 100e6, Ack: 3, Players: []grid.PlayerPos{{ID: 2, Pos: grid.Pos{X: 6, Y: 4}}}}
	idle := &protocol.State{Tick: 3, TimeNS: 150e6, Ack: 4}
	stream := encodeAll(t,
		&protocol.MapChunk{Y: 0, Width: 2, Cells: []byte("#..#")},
		&protocol.MapChunk{Y: 2, Width: 2, Cells: []byte("..")},
		full, moved, idle, &protocol.Ping{Stamp: 9})
	dec := protocol.NewDecoder(bytes.NewReader(stream))
	for i := range 2 {
		if m, skipped, err := dec.Skip(protocol.TypeMapChunk); !skipped || m != nil || err != nil {
			t.Fatalf("chunk %d: Skip = %v, %v, %v; want it skipped", i, m, skipped, err)
		}
	}
	m, skipped, err := dec.Skip(protocol.TypeMapChunk)
	if skipped || err != nil || !reflect.DeepEqual(m, full) {
		t.Fatalf("after the chunks: Skip = %+v, %v, %v; want the full State", m, skipped, err)
	}
	dec.HeadsOnly = true
	want := []protocol.Message{
		&protocol.State{Tick: 2, TimeNS: 100e6, Ack: 3},
		&protocol.State{Tick: 3, TimeNS: 150e6, Ack: 4}, // a step, from the head before
		&protocol.Ping{Stamp: 9},
	}
	for i, w := range want {
		if m, err := dec.Decode(); err != nil || !reflect.DeepEqual(m, w) {
			t.Errorf("frame %d: %+v, %v; want %+v", i, m, err, w)
		}
	}
	if dec.BytesRead != int64(len(stream)) {
		t.Errorf("BytesRead %d of %d", dec.BytesRead, len(stream))
	}
}
