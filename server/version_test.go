package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// TestTCPVersions: the server serves every protocol version from
// MinVersion to Version, each in its own form. On a big map a version 3
// client reads, after its Welcome, exactly the bytes of MapChunks it read
// before version 4; a client of this version reads MapBits instead; both
// play. A version 3 lobby is answered, and a version outside the range is
// refused, naming the versions served.
func TestTCPVersions(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 300)
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Map: m, Spawn: spawn, Rate: 50}}})

	var chunks []byte
	for _, ch := range protocol.MapChunks(m) {
		chunks = append(chunks, worldtest.Frame(t, ch)...)
	}
	// A version 3 client, byte for byte: the Welcome, then the chunks.
	nc, err := net.Dial("tcp", ts.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(wait))
	if _, err := nc.Write(worldtest.Frame(t, &protocol.Hello{Version: 3, Name: "old"})); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	dec := protocol.NewDecoder(io.TeeReader(bufio.NewReader(nc), &raw)) // raw: the bytes of each frame read
	readFrame := func() []byte {
		t.Helper()
		raw.Reset()
		if _, err := dec.Decode(); err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(raw.Bytes())
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
			if !ok || e.Code != protocol.ErrCodeVersion || !strings.Contains(e.Text, fmt.Sprintf("this server speaks versions %d to %d", protocol.MinVersion, protocol.Version)) {
				t.Errorf("%v of version %d: %+v, want refused naming the versions served", hello.Type(), v, e)
			}
		}
	}
}
