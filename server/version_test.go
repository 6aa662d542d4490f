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
