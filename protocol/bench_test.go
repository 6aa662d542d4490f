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

// mapForms is a generated 1024x1024 map (seed 1, as `-map-gen 1024x1024`)
// and its frames in each form that follows a Welcome: "bits" (MapBits,
// version 4) and "chunks" (MapChunks, version 3).
func mapForms(b *testing.B) (*grid.Map, map[string][]byte) {
	m, err := grid.Generate(1024, 1024, 1)
	if err != nil {
		b.Fatal(err)
	}
	frames := map[string][]byte{}
	for _, p := range protocol.MapBitsOf(m) {
		frames["bits"] = append(frames["bits"], mustMarshal(b, p)...)
	}
	for _, c := range protocol.MapChunks(m) {
		frames["chunks"] = append(frames["chunks"], mustMarshal(b, c)...)
	}
	return m, frames
}

// BenchmarkMapEncode is the server's cost of a big map's form, once per
// map (a room keeps the frames): the bitmap compressed and cut into
// MapBits, or the MapChunks run-length encoded. It reports the bytes on
// the wire ("wire-bytes").
func BenchmarkMapEncode(b *testing.B) {
	m, frames := mapForms(b)
	encode := map[string]func() []byte{
		"bits": func() []byte {
			var out []byte
			for _, p := range protocol.MapBitsOf(m) {
				out, _ = protocol.Append(out, p)
			}
			return out
		},
		"chunks": func() []byte {
			var out []byte
			for _, c := range protocol.MapChunks(m) {
				out, _ = protocol.Append(out, c)
			}
			return out
		},
	}
	for _, form := range []string{"bits", "chunks"} {
		b.Run(form, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := encode[form](); len(got) != len(frames[form]) {
					b.Fatalf("%d bytes, want %d", len(got), len(frames[form]))
				}
			}
			b.ReportMetric(float64(len(frames[form])), "wire-bytes")
		})
	}
}

// BenchmarkMapDecode is a client's cost of a big map, once per join: the
// frames that follow the Welcome read by a Decoder and put together into
// the map, as the client does, from MapBits (decoded once, with the last
// piece) or from MapChunks.
func BenchmarkMapDecode(b *testing.B) {
	m, frames := mapForms(b)
	for _, form := range []string{"bits", "chunks"} {
		b.Run(form, func(b *testing.B) {
			b.SetBytes(int64(len(frames[form])))
			b.ReportAllocs()
			for b.Loop() {
				dec := protocol.NewDecoder(bytes.NewReader(frames[form]))
				bits := protocol.NewMapBitsBuffer(1024, 1024)
				var got *grid.Map
				var cells []byte
				for got == nil {
					msg, err := dec.Decode()
					if err != nil {
						b.Fatal(err)
					}
					switch msg := msg.(type) {
					case *protocol.MapBits:
						if got, err = bits.Add(msg); err != nil {
							b.Fatal(err)
						}
					case *protocol.MapChunk:
						if cells = append(cells, msg.Cells...); len(cells) == 1024*1024 {
							if got, err = grid.NewMapFromCells(1024, 1024, cells); err != nil {
								b.Fatal(err)
							}
						}
					}
				}
				if got.Width() != m.Width() {
					b.Fatal("another map")
				}
			}
		})
	}
}
