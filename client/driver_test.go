package client

import (
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

func frames(t *testing.T, msgs ...protocol.Message) []byte {
	t.Helper()
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = protocol.Append(b, m); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestDriverStreamInPieces: the server's bytes may come in any pieces, a
// frame split across reads or several in one; each reaches the core half
// the round trip after its last byte was read, and the bytes are counted.
func TestDriverStreamInPieces(t *testing.T) {
	d := NewDriver(0, Options{Name: "ada", Latency: 100 * ms})
	if out, _, _ := d.Step(0); len(out) != 0 {
		t.Fatalf("the Hello went out at once despite the latency: %d frames", len(out))
	}
	out, _, _ := d.Step(50 * ms)
	if len(out) != 1 {
		t.Fatalf("%d frames due at 50ms, want the Hello", len(out))
	}
	if m, _, err := protocol.Unmarshal(out[0]); err != nil || m.Type() != protocol.TypeHello {
		t.Fatalf("first frame %v, %v; want a Hello", m, err)
	}
	stream := frames(t, welcome(), state(0, 0, at(1, 10, 10)))
	cut := len(stream) - 3 // the State is split
	d.Deliver(60*ms, stream[:cut])
	d.Deliver(70*ms, stream[cut:])
	d.Step(110 * ms)
	if v := d.View(110 * ms); !v.Connected || v.HasState {
		t.Fatalf("at 110ms: connected %v, has state %v; want the Welcome only", v.Connected, v.HasState)
	}
	d.Step(120 * ms)
	if v := d.View(120 * ms); !v.HasState || v.Predicted != (grid.Pos{X: 10, Y: 10}) || v.Latency != 100*ms {
		t.Fatalf("at 120ms: %+v; want the State delivered, at (10,10), latency 100ms", v)
	}
	if in, out := d.Bytes(); in != int64(len(stream)) || out == 0 {
		t.Fatalf("bytes in %d (want %d), out %d", in, len(stream), out)
	}
}

// TestDriverHangup: the end of the stream reaches the core after what came
// before it, ends the connection with a reason, and is noted once, after
// the notes of the messages and of the phases they brought.
func TestDriverHangup(t *testing.T) {
	d := NewDriver(0, Options{Name: "ada", Latency: 100 * ms})
	var notes []Note
	d.Observe(func(n Note) { notes = append(notes, n) })
	d.Deliver(10*ms, frames(t, welcome(), state(0, 0, at(1, 10, 10))))
	d.Hangup(20*ms, nil)
	d.Step(60 * ms)
	want := []Note{{Kind: Arrived}, {Kind: Entered, Phase: Joining}, {Kind: Arrived}, {Kind: Entered, Phase: Playing}}
	if d.Phase() == Closed || !sameNotes(notes, want) {
		t.Fatalf("at 60ms: phase %v, notes %v; want two messages, the game joined, and still open", d.Phase(), notes)
	}
	if notes[0].Msg.Type() != protocol.TypeWelcome || notes[2].Msg.Type() != protocol.TypeState {
		t.Fatalf("noted %v then %v, want the Welcome then the State", notes[0].Msg.Type(), notes[2].Msg.Type())
	}
	d.Step(70 * ms)
	if d.Phase() != Closed || !strings.Contains(d.View(70*ms).Err.Error(), "server closed") {
		t.Fatalf("at 70ms: phase %v, err %v", d.Phase(), d.View(70*ms).Err)
	}
	want = append(want, Note{Kind: Entered, Phase: Closed})
	if !sameNotes(notes, want) || notes[4].Err != d.Err() {
		t.Fatalf("notes %v, want %v ending with the reason", notes, want)
	}
	d.Step(80 * ms)
	if len(notes) != len(want) {
		t.Fatalf("noted again after the end: %v", notes[len(want):])
	}
	if bye := d.Close(); len(bye) != 0 {
		t.Fatal("a closed driver said Bye")
	}
}

// sameNotes reports whether got has the kinds and phases of want.
func sameNotes(got, want []Note) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Kind == Entered && got[i].Phase != want[i].Phase {
			return false
		}
	}
	return true
}

// TestDriverCloseSaysBye: Close returns the Bye at once, whatever the
// latency.
func TestDriverCloseSaysBye(t *testing.T) {
	d := NewDriver(0, Options{Name: "ada", Latency: 500 * ms})
	bye := d.Close()
	if len(bye) != 1 {
		t.Fatalf("%d frames, want the Bye", len(bye))
	}
	if m, _, err := protocol.Unmarshal(bye[0]); err != nil || m.Type() != protocol.TypeBye {
		t.Fatalf("Close returned %v, %v; want a Bye", m, err)
	}
	if d.Phase() != Closed {
		t.Fatal("not closed after Close")
	}
}

// TestDriverBadFrame: a whole frame that does not decode ends the
// connection with the decoder's reason, however it was cut.
func TestDriverBadFrame(t *testing.T) {
	d := NewDriver(0, Options{Name: "ada"})
	d.Deliver(0, frames(t, welcome()))
	d.Deliver(0, []byte{0, 3, 0xee})
	d.Deliver(0, []byte{1, 2})
	d.Step(0)
	if err := d.View(0).Err; d.Phase() != Closed || err == nil || !strings.Contains(err.Error(), "unknown message type") {
		t.Fatalf("phase %v, err %v; want the decoder's error", d.Phase(), err)
	}
}
