package server

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
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
type streams map[world.ConnID]*protocol.StateStream

// of returns the stream to connection id.
func (s streams) of(id world.ConnID) *protocol.StateStream {
	if s[id] == nil {
		s[id] = new(protocol.StateStream)
	}
	return s[id]
}

// wholeStates gives no stream: every State is encoded whole.
func wholeStates(world.ConnID) *protocol.StateStream { return nil }

// marshalAll encodes every envelope with the protocol package, each on
// the stream to its connection.
func marshalAll(t testing.TB, out []world.Envelope, to streams) []byte {
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
	c := world.NewCore(world.Config{Rate: 0})
	var enc encoder
	conns, protocolSide := streams{}, streams{}
	check := func(what string) {
		t.Helper()
		out := c.Outbox().Envelopes
		frames := enc.encode(out, conns.of, keptFrames{}, func(env world.Envelope, err error) { t.Fatalf("%s: %v", what, err) })
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
		c.Receive(time.Duration(i)*ms, world.ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: i > 6})
		check("join")
	}
	for k := 1; k <= 200; k++ {
		now := time.Duration(k) * 37 * ms
		id := world.ConnID(k%12 + 1)
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

// busyHub returns a hub whose default room has n players of the server's
// own who have each moved once, on an open map, its outbox drained.
func busyHub(tb testing.TB, n int) *hub.Hub {
	tb.Helper()
	// The longest round: a round's end would add a scoreboard to a tick.
	h := hub.New(0, hub.Options{Config: world.Config{Map: worldtest.OpenMap(tb, 100, 100), Spawn: grid.Pos{X: 50, Y: 50},
		Rate: 20, MaxPlayers: n, Round: world.MaxRound}})
	for i := 1; i <= n; i++ {
		h.Connect(0, world.ConnID(i), hub.Origin{Own: true})
		h.Receive(0, world.ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: i%2 == 0})
		h.Outbox()
	}
	for i := 1; i <= n; i++ {
		h.Receive(time.Second, world.ConnID(i), &protocol.Input{Seq: 1, Dir: grid.Dir(i%4 + 1)})
	}
	h.PingEvery(time.Second, 0) // ticks alone
	h.Outbox()
	if s := h.Stats(); s.Players != n || s.Moves == 0 {
		tb.Fatalf("setup: %+v", s)
	}
	return h
}

// tickAt advances h to its first tick at or after now and returns its
// output.
func tickAt(h *hub.Hub, now time.Duration) (time.Duration, []world.Envelope) {
	for {
		at, _ := h.NextWake()
		at = max(at, now)
		if h.Advance(at) {
			return at, h.Outbox().Envelopes
		}
		h.Outbox()
	}
}

// BenchmarkEncodeTick1000 measures the adapter's encoding of one tick with
// 1,000 players: the hub's tick of its world plus turning its 1,000
// States into frames.
func BenchmarkEncodeTick1000(b *testing.B) {
	const n = 1000
	h := busyHub(b, n)
	var enc encoder
	conns := streams{}
	now, out := tickAt(h, 2*time.Second) // the players meet
	enc.encode(out, conns.of, nil, nil)
	b.ReportAllocs()
	b.ResetTimer()
	bytes := 0
	for i := 0; i < b.N; i++ {
		var out []world.Envelope
		now, out = tickAt(h, now+ms)
		frames := enc.encode(out, conns.of, nil, nil)
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
	h := busyHub(b, n)
	now, _ := tickAt(h, 2*time.Second) // the players meet
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out []world.Envelope
		now, out = tickAt(h, now+ms)
		for _, env := range out {
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
	h := busyHub(t, 11)
	var enc encoder
	conns, clients := streams{}, streams{}
	now, _ := tickAt(h, 2*time.Second) // the players meet
	for k := 1; k <= 10; k++ {
		var out []world.Envelope
		now, out = tickAt(h, now+ms)
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
	m, spawn := worldtest.BigMap(t, 1024)
	share := world.NewMapShare(m)
	c := world.NewSharedCore(world.Config{Map: m, Spawn: spawn, Rate: 20}, share)
	var enc encoder
	kept, err := keepPieces(share) // as the server keeps them when it starts
	if err != nil {
		t.Fatal(err)
	}
	conns := streams{}
	id := world.ConnID(0)
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
					if k := kept[env.Msg]; len(k) == 0 || &k[0] != &frames[i].head[0] {
						t.Errorf("version %d: a frame of the map is not the one kept", version)
					}
				}
			}
		}
		return heads
	}
	for _, version := range []uint16{protocol.Version, protocol.MinVersion} {
		first, second := mapFrames(version), mapFrames(version)
		if len(first) == 0 || len(second) != len(first) {
			t.Fatalf("version %d: %d frames of map to the first, %d to the second", version, len(first), len(second))
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
	m, spawn := worldtest.BigMap(b, 1024)
	for _, version := range []uint16{protocol.Version, protocol.MinVersion} {
		for _, keep := range []bool{true, false} {
			name := fmt.Sprintf("v%d/%s", version, map[bool]string{true: "kept", false: "each"}[keep])
			b.Run(name, func(b *testing.B) {
				share := world.NewMapShare(m)
				c := world.NewSharedCore(world.Config{Map: m, Spawn: spawn, Rate: 20}, share)
				var enc encoder
				kept, err := keepPieces(share)
				if err != nil {
					b.Fatal(err)
				}
				mapBytes := 0
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if !keep {
						kept = keptFrames{}
					}
					id := world.ConnID(i%2 + 1)
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

// TestRoomListEncodedOnce: the hub answers every ListRooms with the same
// list until the rooms change; the adapter encodes it once, however the
// requests interleave with other frames (a list that fits a frame is the
// same for either version; the cut one's two forms are
// hub.TestRoomListFitsAFrame's), and a new list again.
func TestRoomListEncodedOnce(t *testing.T) {
	h := hub.New(0, hub.Options{Config: world.Config{Rate: 20}})
	var enc encoder
	ask := func(id world.ConnID, v uint16) []world.Envelope {
		h.Connect(0, id, hub.Origin{Own: true})
		h.Receive(0, id, &protocol.ListRooms{Version: v})
		return slices.Clone(h.Outbox().Envelopes)
	}
	var out []world.Envelope
	for i := range 6 {
		v := protocol.Version
		if i%2 == 1 {
			v = protocol.MinVersion
		}
		out = append(out, ask(world.ConnID(i+1), v)...)
		out = append(out, world.Envelope{To: world.ConnID(i + 1), Msg: &protocol.Notice{Text: "between"}})
	}
	frames := enc.encode(out, wholeStates, nil, nil)
	var v4, v3 []byte
	for i, env := range out {
		if _, ok := env.Msg.(*protocol.Rooms); !ok {
			continue
		}
		first := &v4
		if i/2%2 == 1 {
			first = &v3
		}
		if *first == nil {
			*first = frames[i].head
		} else if &frames[i].head[0] != &(*first)[0] {
			t.Fatalf("request %d: the room list was encoded again with nothing changed", i/2+1)
		}
	}
	if &v3[0] != &v4[0] {
		t.Fatal("a list that fits a frame was encoded for each version: they are the same bytes")
	}
	h.Connect(0, 100, hub.Origin{Own: true})
	h.Receive(0, 100, &protocol.Hello{Version: protocol.Version, Name: "ann"})
	h.Outbox()
	again := ask(101, protocol.Version)
	if f := enc.encode(again, wholeStates, nil, nil); &f[0].head[0] == &v4[0] {
		t.Error("the list was not encoded again once ann joined")
	}
}
