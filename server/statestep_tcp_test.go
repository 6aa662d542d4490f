package server

import (
	"bytes"
	"io"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestIdleStatesTravelAsStepsOverTCP: on a real connection the server
// sends an idle player's States as steps of a few bytes, and a client's
// Decoder gives back exactly what the server sent: encoding the messages
// it decoded on a stream gives the bytes that came, byte for byte.
func TestIdleStatesTravelAsStepsOverTCP(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: world.DefaultRate}}})
	c := dial(t, ts)
	var raw bytes.Buffer
	c.dec = protocol.NewDecoder(io.TeeReader(c.nc, &raw)) // unbuffered: raw holds whole frames
	got := []protocol.Message{c.join("ann")}
	if c.admission != nil {
		got = append([]protocol.Message{c.admission}, got...) // what came first, before the Welcome
	}
	c.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	idle := 0
	var frames [][]byte // the bytes of each frame after the Welcome, as they came
	for idle < 10 {
		c.nc.SetReadDeadline(time.Now().Add(wait))
		before := raw.Len()
		m, err := c.dec.Decode()
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		got = append(got, m)
		frames = append(frames, bytes.Clone(raw.Bytes()[before:]))
		if st, ok := m.(*protocol.State); ok && st.Ack == 1 && st.Empty() {
			idle++
		}
	}
	var again bytes.Buffer
	enc := protocol.NewEncoder(&again)
	for _, m := range got {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(again.Bytes(), raw.Bytes()) {
		t.Fatalf("the decoded messages encode to\n%x\nthe server sent\n%x", again.Bytes(), raw.Bytes())
	}
	steps := 0
	for _, f := range frames {
		if protocol.Type(f[protocol.HeaderLen]) == protocol.TypeStateStep {
			steps++
			if len(f) > 9 {
				t.Errorf("a step of %d bytes, want at most 9", len(f))
			}
		}
	}
	if steps < idle {
		t.Errorf("%d steps for %d idle States", steps, idle)
	}
}
