package server

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
)

// TestTCPVersions: the server serves every protocol version from
// MinVersion to Version, each in its own form. On a big map a version 3
// client reads, after its Welcome, exactly the bytes of MapChunks it read
// before version 4; a client of this version reads MapBits instead; both
// play. A version 3 lobby is answered, and a version outside the range is
// refused, naming the versions served.
func TestTCPVersions(t *testing.T) {
	m, spawn := bigMap(t, 300)
	ts := startServer(t, Options{Config: Config{Map: m, Spawn: spawn, Rate: 50}})

	var chunks []byte
	for _, ch := range protocol.MapChunks(m) {
		chunks = append(chunks, mustFrame(t, ch)...)
	}
	// A version 3 client, byte for byte: the Welcome, then the chunks.
	nc, err := net.Dial("tcp", ts.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(wait))
	if _, err := nc.Write(mustFrame(t, &protocol.Hello{Version: 3, Name: "old"})); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(nc)
	readFrame := func() []byte {
		t.Helper()
		var head [protocol.HeaderLen]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			t.Fatal(err)
		}
		body := make([]byte, binary.BigEndian.Uint16(head[:]))
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		return append(head[:], body...)
	}
	if w := readFrame(); w[protocol.HeaderLen] != byte(protocol.TypeWelcome) {
		t.Fatalf("first frame of type %d, want a Welcome", w[protocol.HeaderLen])
	}
	var got []byte
	for len(got) < len(chunks) {
		got = append(got, readFrame()...)
	}
	if !bytes.Equal(got, chunks) {
		t.Errorf("a version 3 client read %d bytes of map, not the %d bytes of MapChunks of before", len(got), len(chunks))
	}
	if next := readFrame(); next[protocol.HeaderLen] == byte(protocol.TypeMapBits) {
		t.Error("a version 3 client was sent MapBits")
	}
	ts.waitLog(t, "name=old bot=false")
	if !strings.Contains(ts.logs.String(), "version=3") {
		t.Errorf("the join's log line does not give the client's version:\n%s", ts.logs.String())
	}

	// A client of this version gets the map as MapBits, and plays.
	c := dial(t, ts)
	w := c.join("new")
	bits := protocol.NewMapBitsBuffer(w.MapWidth, w.MapHeight)
	var cells []byte
	c.until("the first State", func(msg protocol.Message) bool {
		switch v := msg.(type) {
		case *protocol.MapChunk:
			t.Error("a version 4 client was sent MapChunks")
		case *protocol.MapBits:
			got, err := bits.Add(v)
			if err != nil {
				t.Fatal(err)
			}
			if got != nil {
				cells = got.Cells()
			}
		}
		_, st := msg.(*protocol.State)
		return st
	})
	if !bytes.Equal(cells, m.Cells()) {
		t.Errorf("the MapBits gave %d cells, not the map", len(cells))
	}

	lobby := dial(t, ts)
	lobby.send(&protocol.ListRooms{Version: protocol.MinVersion})
	if msg, err := lobby.recv(); err != nil {
		t.Fatal(err)
	} else if _, ok := msg.(*protocol.Rooms); !ok {
		t.Errorf("a version 3 lobby got %+v, want the rooms", msg)
	}
	for _, v := range []uint16{protocol.MinVersion - 1, protocol.Version + 1} {
		for _, hello := range []protocol.Message{
			&protocol.Hello{Version: v, Name: "x"}, &protocol.Spectate{Version: v, Name: "x"},
			&protocol.ListRooms{Version: v}, &protocol.Resume{Version: v, Token: protocol.Token{1}},
		} {
			c := dial(t, ts)
			c.send(hello)
			e, ok := c.closed().(*protocol.Error)
			if !ok || e.Code != protocol.ErrCodeVersion || !strings.Contains(e.Text, "this server speaks versions 3 to 4") {
				t.Errorf("%v of version %d: %+v, want refused naming the versions served", hello.Type(), v, e)
			}
		}
	}
}

// TestResumeInItsOwnVersion: a player who joined with this version and
// comes back with a version 3 client gets the map as MapChunks, and the
// other way round: the map follows in the form of the connection that
// resumes.
func TestResumeInItsOwnVersion(t *testing.T) {
	m, spawn := bigMap(t, 300)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20, Resume: 30 * time.Second})
	token := join(t, c, 0, 1, "ann", false).Token
	conn := ConnID(1)
	for i, v := range []struct {
		version uint16
		form    protocol.Type
	}{{protocol.MinVersion, protocol.TypeMapChunk}, {protocol.Version, protocol.TypeMapBits}} {
		now := time.Duration(i+1) * time.Second
		c.Drop(now, conn, "read: EOF")
		c.Outbox()
		conn++
		c.Receive(now, conn, &protocol.Resume{Version: v.version, Token: token})
		out := c.Outbox().Envelopes
		w, ok := out[0].Msg.(*protocol.Welcome)
		if !ok {
			t.Fatalf("version %d: resume answered %s: %+v", v.version, describe(out), out[0].Msg)
		}
		token = w.Token
		if cells, form := mapAfter(t, out, conn, 300, 300); form != v.form || !bytes.Equal(cells, m.Cells()) {
			t.Errorf("resumed with version %d: the map followed as %v, %d cells; want %v giving the map", v.version, form, len(cells), v.form)
		}
	}
}

// version3Types are the messages a server of protocol version 3 sent.
var version3Types = map[protocol.Type]bool{
	protocol.TypeWelcome: true, protocol.TypeError: true, protocol.TypeState: true, protocol.TypePing: true,
	protocol.TypePong: true, protocol.TypeBye: true, protocol.TypeJoin: true, protocol.TypeLeave: true,
	protocol.TypeSpectating: true, protocol.TypeOverview: true, protocol.TypeNotice: true,
	protocol.TypeZapResult: true, protocol.TypeTagged: true, protocol.TypeScores: true, protocol.TypeMapChunk: true,
	protocol.TypeRooms: true,
}

// TestVersion3ClientsGetVersion3: with spawn protection on, tags, misses
// on frozen and protected players, respawns and a round's end, a client
// of version 3 is sent only what a server of version 3 sent (Scores, no
// Ranking nor Protect, no zap outcome it cannot decode), while one of
// version 4 beside it gets the new messages.
func TestVersion3ClientsGetVersion3(t *testing.T) {
	cfg := Config{LagComp: true, Unlag: time.Second, Protect: 2 * time.Second, Round: 6 * time.Second}
	old := map[ConnID]uint16{liveAnn: 3, liveBob: 3, liveEve: 3}
	c := livenessCore(t, cfg, 2500*ms, 4800*ms, old)
	got := map[protocol.Type]int{}
	check := func(out []Envelope) {
		for _, e := range out {
			if _, isOld := old[e.To]; !isOld {
				got[e.Msg.Type()]++
				continue
			}
			if !version3Types[e.Msg.Type()] {
				t.Errorf("%v sent to a version-3 client", e.Msg.Type())
			}
			if z, ok := e.Msg.(*protocol.ZapResult); ok && z.Outcome > protocol.ZapFrozen {
				t.Errorf("zap outcome %v sent to a version-3 client", z.Outcome)
			}
		}
	}
	// eve sees bob frozen where he was tagged, then protected: ZapTagged,
	// ZapProtected; ann tags him again after his protection.
	for _, z := range []struct {
		now, seen time.Duration
		from      ConnID
		seq       uint32
	}{{4800 * ms, 4400 * ms, liveEve, 2}, {5000 * ms, 4800 * ms, liveDan, 2}, {7 * time.Second, 6800 * ms, liveDan, 3}} {
		c.Receive(z.now, z.from, &protocol.Zap{Seq: z.seq, RenderNS: uint64(z.seen)})
		check(c.Outbox().Envelopes)
	}
	for now := 7 * time.Second; now < 10*time.Second; now += 100 * ms {
		c.Ping(now)
		check(c.Outbox().Envelopes)
	}
	if c.Stats().Rounds == 0 || c.Stats().Tags < 2 {
		t.Errorf("stats %+v: the test needs a round's end and two tags", c.Stats())
	}
	if got[protocol.TypeProtect] == 0 || got[protocol.TypeRanking] == 0 {
		t.Errorf("the version-4 client got %v, want Protect and Ranking", got)
	}
}
