package world

import (
	"bytes"
	"fmt"
	"testing"

	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// mapAfter reads the map that follows out[0] (a Welcome or Spectating) to
// conn in out: the cells of the MapChunks a version 3 client gets, or of
// the MapBits the later versions get, decoded, up to the first other
// message to conn; and the form it came in.
func mapAfter(t *testing.T, out []Envelope, conn ConnID, w, h uint16) (cells []byte, form protocol.Type) {
	t.Helper()
	buf := protocol.NewMapBitsBuffer(w, h)
	for _, e := range out[1:] {
		if e.To != conn {
			continue
		}
		switch typ := e.Msg.Type(); {
		case typ != protocol.TypeMapChunk && typ != protocol.TypeMapBits:
			return cells, form
		case form != 0 && typ != form:
			t.Fatalf("%v after %v: one map in two forms", typ, form)
		}
		switch m := e.Msg.(type) {
		case *protocol.MapChunk:
			form = m.Type()
			cells = append(cells, m.Cells...)
		case *protocol.MapBits:
			form = m.Type()
			got, err := buf.Add(m)
			if err != nil {
				t.Fatal(err)
			}
			if got != nil {
				cells = got.Cells()
			}
		}
	}
	return cells, form
}

// TestBigMapFollowsTheWelcome: on a generated 1024x1024 map a newcomer's
// Welcome carries the dimensions only, and the map follows it, before its
// first State, giving the map back cell for cell: as MapBits to a client
// of this version, and as the very MapChunks of before to a version 3
// client.
func TestBigMapFollowsTheWelcome(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 1024)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20})
	w := join(t, c, 0, 1, "ann", false)
	if !w.MapFollows() || len(w.Cells) != 0 || w.MapWidth != 1024 || w.MapHeight != 1024 {
		t.Fatalf("welcome of a 1024x1024 map: %dx%d with %d cells", w.MapWidth, w.MapHeight, len(w.Cells))
	}
	for i, v := range []struct {
		version uint16
		form    protocol.Type
	}{{protocol.Version, protocol.TypeMapBits}, {protocol.MinVersion, protocol.TypeMapChunk}} {
		id := ConnID(2 + i)
		c.Receive(0, id, &protocol.Hello{Version: v.version, Name: fmt.Sprint("bob", i)})
		out := c.Outbox().Envelopes
		if cells, form := mapAfter(t, out, id, 1024, 1024); form != v.form || !bytes.Equal(cells, m.Cells()) {
			t.Errorf("version %d: the map followed as %v, giving %d cells before anything else; want %v giving the map", v.version, form, len(cells), v.form)
		}
		if statesTo(out, id) == nil {
			t.Fatalf("version %d: no State: %s", v.version, describe(out))
		}
		if v.form == protocol.TypeMapChunk {
			var got, want []byte
			for _, e := range out[1:] {
				if ch, ok := e.Msg.(*protocol.MapChunk); ok {
					got = append(got, worldtest.Frame(t, ch)...)
				}
			}
			for _, ch := range protocol.MapChunks(m) {
				want = append(want, worldtest.Frame(t, ch)...)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("a version 3 client's map is %d bytes, want the %d bytes of MapChunks it always had", len(got), len(want))
			}
		}
	}
}

// TestBigMapFollowsTheSpectating: a spectator of a big world gets the map
// right after its Spectating, as a player after its Welcome, in its
// version's form.
func TestBigMapFollowsTheSpectating(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 1024)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20})
	for i, v := range []struct {
		version uint16
		form    protocol.Type
	}{{protocol.Version, protocol.TypeMapBits}, {protocol.MinVersion, protocol.TypeMapChunk}} {
		id := ConnID(1 + i)
		c.Receive(0, id, &protocol.Spectate{Version: v.version, Name: "teacher"})
		out := c.Outbox().Envelopes
		sp, ok := out[0].Msg.(*protocol.Spectating)
		if !ok || !sp.MapFollows() {
			t.Fatalf("first message %s, want a Spectating whose map follows", describe(out))
		}
		if cells, form := mapAfter(t, out, id, 1024, 1024); form != v.form || !bytes.Equal(cells, m.Cells()) {
			t.Errorf("version %d: the map followed as %v, giving %d cells; want %v giving the map", v.version, form, len(cells), v.form)
		}
	}
}
