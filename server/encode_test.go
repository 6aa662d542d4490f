package server

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// wire returns what the frames say on the wire.
func wire(frames []frame) []byte {
	var b []byte
	for _, f := range frames {
		b = append(b, f.head...)
	}
	return b
}

// streams is a stream of States per connection, as the server keeps one
// on each conn.
type streams map[ConnID]*protocol.StateStream

// of returns the stream to connection id.
func (s streams) of(id ConnID) *protocol.StateStream {
	if s[id] == nil {
		s[id] = new(protocol.StateStream)
	}
	return s[id]
}

// wholeStates gives no stream: every State is encoded whole.
func wholeStates(ConnID) *protocol.StateStream { return nil }

// marshalAll encodes every envelope with the protocol package, each on
// the stream to its connection.
func marshalAll(t testing.TB, out []Envelope, to streams) []byte {
	var b []byte
	for _, env := range out {
		var err error
		if b, err = to.of(env.To).Append(b, env.Msg); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func TestEncoderMatchesProtocol(t *testing.T) {
	c := NewCore(Config{Rate: 0})
	var enc encoder
	conns, protocolSide := streams{}, streams{}
	check := func(what string) {
		t.Helper()
		out := c.Outbox().Envelopes
		frames := enc.encode(out, conns.of, keptFrames{}, func(env Envelope, err error) { t.Fatalf("%s: %v", what, err) })
		if len(frames) != len(out) {
			t.Fatalf("%s: %d frames for %d envelopes", what, len(frames), len(out))
		}
		for i := range out {
			if frames[i].close != out[i].Close {
				t.Errorf("%s: frame %d close=%v", what, i, frames[i].close)
			}
		}
		if got, want := wire(frames), marshalAll(t, out, protocolSide); !bytes.Equal(got, want) {
			t.Fatalf("%s: encoder wrote\n%x\nprotocol says\n%x", what, got, want)
		}
	}
	for i := 1; i <= 12; i++ {
		c.Receive(time.Duration(i)*ms, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: i > 6})
		check("join")
	}
	for k := 1; k <= 200; k++ {
		now := time.Duration(k) * 37 * ms
		id := ConnID(k%12 + 1)
		// Several broadcasts in one batch, each with its own players.
		c.Receive(now, id, &protocol.Input{Seq: uint32(k), Dir: grid.Dir(k%4 + 1)})
		c.Receive(now, id, &protocol.Ping{Stamp: uint64(k)})
		c.Tick(now)
		check("inputs")
	}
	c.Receive(time.Hour, 3, &protocol.Bye{Reason: "done"})
	c.Receive(time.Hour, 4, &protocol.Welcome{})
	check("leaves")
	// States with ack values that use every byte of the field.
	c.Receive(time.Hour, 5, &protocol.Input{Seq: 0xA1B2C3D4, Dir: grid.Up})
	check("big ack")
}

// BenchmarkEncodeTick1000 measures the adapter's encoding of one tick with
// 1,000 players: the Core's Tick plus turning its 1,000 States into frames.
func BenchmarkEncodeTick1000(b *testing.B) {
	const n = 1000
	c := busyCore(b, n)
	var enc encoder
	conns := streams{}
	now := 2 * time.Second
	b.ReportAllocs()
	b.ResetTimer()
	bytes := 0
	for i := 0; i < b.N; i++ {
		now += 50 * time.Millisecond
		c.Tick(now)
		frames := enc.encode(c.Outbox().Envelopes, conns.of, nil, nil)
		bytes = 0
		for _, f := range frames {
			bytes += len(f.head)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/player-tick")
	b.ReportMetric(float64(bytes), "wire-bytes/tick")
}

// BenchmarkEncodeTick1000Naive is the same tick encoded one State at a
// time with protocol.Append, for comparison.
func BenchmarkEncodeTick1000Naive(b *testing.B) {
	const n = 1000
	c := busyCore(b, n)
	now := 2 * time.Second
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now += 50 * time.Millisecond
		c.Tick(now)
		for _, env := range c.Outbox().Envelopes {
			buf, _ = protocol.Append(buf[:0], env.Msg)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/player-tick")
}

// TestIdleStatesAreSteps: once a connection has had a State, an idle
// tick's State is a step of a few bytes on its stream, and decoding each
// connection's frames gives back the States the Core sent, head for head.
func TestIdleStatesAreSteps(t *testing.T) {
	c, _ := farAndCrowd(t, 10)
	var enc encoder
	conns, clients := streams{}, streams{}
	for k := 1; k <= 10; k++ {
		c.Tick(time.Duration(k) * 50 * time.Millisecond)
		out := c.Outbox().Envelopes
		frames := enc.encode(out, conns.of, keptFrames{}, nil)
		for i, f := range frames {
			if k > 1 && (protocol.Type(f.head[protocol.HeaderLen]) != protocol.TypeStateStep || len(f.head) > 9) {
				t.Fatalf("tick %d: a %d-byte %v frame, want an idle State to be a step of at most 9 bytes", k, len(f.head), protocol.Type(f.head[protocol.HeaderLen]))
			}
			m, _, err := clients.of(out[i].To).Unmarshal(f.head)
			if err != nil {
				t.Fatalf("tick %d: %v", k, err)
			}
			if st := out[i].Msg.(*protocol.State); !sameState(m.(*protocol.State), st) {
				t.Fatalf("tick %d: connection %d decoded %+v, the Core sent %+v", k, out[i].To, m, st)
			}
		}
	}
}

// TestMapEncodedOncePerRoom: on a big map the second join's Welcome is
// followed by the very frames of the first's map, not encoded again: the
// MapBits of this version's clients, and the MapChunks of version 3's.
func TestMapEncodedOncePerRoom(t *testing.T) {
	m, spawn := bigMap(t, 1024)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20})
	var enc encoder
	kept, conns := keptFrames{}, streams{}
	id := ConnID(0)
	mapFrames := func(version uint16) [][]byte {
		id++
		c.Receive(0, id, &protocol.Hello{Version: version, Name: fmt.Sprint("p", id)})
		out := c.Outbox().Envelopes
		frames := enc.encode(out, conns.of, kept, nil)
		var heads [][]byte
		for i, env := range out {
			switch env.Msg.(type) {
			case *protocol.MapChunk, *protocol.MapBits:
				if env.To == id {
					heads = append(heads, frames[i].head)
				}
			}
		}
		return heads
	}
	for _, version := range []uint16{protocol.Version, protocol.MinVersion} {
		before := len(kept)
		first, second := mapFrames(version), mapFrames(version)
		if len(first) == 0 || len(second) != len(first) || len(kept)-before != len(first) {
			t.Fatalf("version %d: %d frames of map to the first, %d to the second, %d kept", version, len(first), len(second), len(kept)-before)
		}
		var cells []byte
		bits := protocol.NewMapBitsBuffer(1024, 1024)
		for i := range first {
			if &first[i][0] != &second[i][0] {
				t.Errorf("version %d: frame %d of the map was encoded again for the second join", version, i)
			}
			msg, _, err := protocol.Unmarshal(second[i])
			if err != nil {
				t.Fatal(err)
			}
			switch msg := msg.(type) {
			case *protocol.MapChunk:
				cells = append(cells, msg.Cells...)
			case *protocol.MapBits:
				if got, err := bits.Add(msg); err != nil {
					t.Fatal(err)
				} else if got != nil {
					cells = got.Cells()
				}
			}
		}
		if !bytes.Equal(cells, m.Cells()) {
			t.Errorf("version %d: the kept frames do not give the map back", version)
		}
	}
}

// sameState reports whether a and b say the same (nil and empty lists
// alike).
func sameState(a, b *protocol.State) bool {
	return a.Tick == b.Tick && a.TimeNS == b.TimeNS && a.Ack == b.Ack && a.Full == b.Full &&
		slices.Equal(a.Players, b.Players) && slices.Equal(a.Gone, b.Gone)
}

// BenchmarkJoinBigMap measures a join on a generated 1024x1024 map: the
// Core's Welcome and the encoding of its output, the map's frames kept
// from join to join as a room keeps them ("kept"), or encoded at each join
// ("each"), for a client of this version (the map as MapBits) and of
// version 3 (MapChunks). It reports the bytes of the map's frames a join
// sends ("map-bytes/join").
func BenchmarkJoinBigMap(b *testing.B) {
	m, spawn := bigMap(b, 1024)
	for _, version := range []uint16{protocol.Version, protocol.MinVersion} {
		for _, keep := range []bool{true, false} {
			name := fmt.Sprintf("v%d/%s", version, map[bool]string{true: "kept", false: "each"}[keep])
			b.Run(name, func(b *testing.B) {
				c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20})
				var enc encoder
				kept := keptFrames{}
				mapBytes := 0
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if !keep {
						kept = keptFrames{}
					}
					id := ConnID(i%2 + 1)
					c.Receive(0, id, &protocol.Hello{Version: version, Name: fmt.Sprint("p", id)})
					out := c.Outbox().Envelopes
					frames := enc.encode(out, wholeStates, kept, nil)
					if i == 0 {
						for j, env := range out {
							switch env.Msg.(type) {
							case *protocol.MapChunk, *protocol.MapBits:
								mapBytes += len(frames[j].head)
							}
						}
					}
					c.Disconnect(0, id, "bench")
					c.Outbox()
				}
				b.ReportMetric(float64(mapBytes), "map-bytes/join")
			})
		}
	}
}
