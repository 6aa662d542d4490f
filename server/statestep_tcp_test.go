package server

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestIdleStatesTravelAsStepsOverTCP: on a real connection the server
// sends an idle player's States as steps of a few bytes, and a client's
// Decoder gives back exactly what the server sent: encoding the messages
// it decoded on a stream gives the bytes that came, byte for byte.
func TestIdleStatesTravelAsStepsOverTCP(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: DefaultRate}})
	c := dial(t, ts)
	var raw bytes.Buffer
	c.dec = protocol.NewDecoder(io.TeeReader(c.nc, &raw)) // unbuffered: raw holds whole frames
	got := []protocol.Message{c.join("ann")}
	c.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	idle := 0
	for idle < 10 {
		c.nc.SetReadDeadline(time.Now().Add(wait))
		m, err := c.dec.Decode()
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		got = append(got, m)
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
	for b := raw.Bytes(); len(b) > 0; {
		n := protocol.HeaderLen + int(binary.BigEndian.Uint16(b))
		if protocol.Type(b[protocol.HeaderLen]) == protocol.TypeStateStep {
			steps++
			if n > 9 {
				t.Errorf("a step of %d bytes, want at most 9", n)
			}
		}
		b = b[n:]
	}
	if steps < idle {
		t.Errorf("%d steps for %d idle States", steps, idle)
	}
}
