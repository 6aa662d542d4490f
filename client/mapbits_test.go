package client

import (
	"bytes"
	"compress/zlib"
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestBigMapArrivesAsBits: a generated 1024x1024 map follows the Welcome
// as MapBits (protocol version 4); the client decodes them once, with the
// last piece, and the game starts on the server's map. A stream that
// inflates past the map's size (a decompression bomb), a piece of a map
// of another size and a MapChunk among MapBits end the connection,
// saying why.
func TestBigMapArrivesAsBits(t *testing.T) {
	m, err := grid.Generate(1024, 1024, 7)
	if err != nil {
		t.Fatal(err)
	}
	w := &protocol.Welcome{Player: 1, UpdateRate: 20, MoveTimeMS: 100, Burst: 4, MapWidth: 1024, MapHeight: 1024,
		Players: []protocol.PlayerInfo{{ID: 1, Color: 1, Name: "ada"}}}
	c := NewCore(0, Options{})
	if err := c.Receive(0, roundTrip(t, w)); err != nil {
		t.Fatal(err)
	}
	for _, p := range protocol.MapBitsOf(m) {
		if c.Phase() != Handshaking {
			t.Fatal("playing before the map's last piece")
		}
		if err := c.Receive(0, roundTrip(t, p)); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.View(0).Map; c.Phase() != Joining || got == nil || mapHash(got) != mapHash(m) {
		t.Fatalf("phase %v: the map the client decoded differs from the server's", c.Phase())
	}

	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 10<<20))
	zw.Close()
	bomb := &protocol.MapBits{Width: 1024, Height: 1024, Total: uint32(z.Len()), Data: z.Bytes()}
	other := protocol.MapBitsOf(m)[0]
	other.Height = 1000
	for _, c := range []struct {
		name string
		msgs []protocol.Message
		want string
	}{
		{"a bomb", []protocol.Message{bomb}, "past the map's size"},
		{"another map's bits", []protocol.Message{other}, "a 1024x1000 map, expecting 1024x1024"},
		{"chunks among bits", []protocol.Message{
			&protocol.MapBits{Width: 1024, Height: 1024, Total: 2, Data: []byte{0x78}}, protocol.MapChunks(m)[0],
		}, "unexpected map chunk"},
	} {
		cl := NewCore(0, Options{})
		cl.Receive(0, roundTrip(t, w))
		var err error
		for _, msg := range c.msgs {
			if err = cl.Receive(0, roundTrip(t, msg)); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || cl.Phase() != Closed {
			t.Errorf("%s: %v, phase %v; want the connection ended: %q", c.name, err, cl.Phase(), c.want)
		}
	}
}
