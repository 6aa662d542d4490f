package protocol_test

import (
	"bytes"
	"errors"
	"testing"

	"gridlag/protocol"
)

// A Hello or Spectate for the default room keeps its bytes from before
// rooms, so old servers and clients understand it; a named room is the
// last field and comes back as sent.
func TestRoomIsOptionalLastField(t *testing.T) {
	plain := mustMarshal(t, &protocol.Hello{Version: protocol.Version, Name: "ada"})
	named := mustMarshal(t, &protocol.Hello{Version: protocol.Version, Name: "ada", Room: "kitchen"})
	if !bytes.HasPrefix(named[2:], plain[2:]) || len(named) != len(plain)+1+len("kitchen") {
		t.Fatalf("Hello with a room = %x, want %x then the room", named, plain)
	}
	for _, m := range []protocol.Message{
		&protocol.Hello{Version: protocol.Version, Name: "ada", Room: "kitchen"},
		&protocol.Spectate{Version: protocol.Version, Name: "teacher", Room: "kitchen"},
		&protocol.Hello{Version: protocol.Version, Name: "ada"},
	} {
		got, _, err := protocol.Unmarshal(mustMarshal(t, m))
		if err != nil {
			t.Fatalf("Unmarshal(%v): %v", m.Type(), err)
		}
		var room, want string
		switch v := got.(type) {
		case *protocol.Hello:
			room, want = v.Room, m.(*protocol.Hello).Room
		case *protocol.Spectate:
			room, want = v.Room, m.(*protocol.Spectate).Room
		}
		if room != want {
			t.Errorf("%v came back with room %q, want %q", m.Type(), room, want)
		}
	}
}

// An explicitly empty room name is a trailing byte: the default room is
// sent without the field, so every Hello has one encoding.
func TestRoomEmptyFieldRefused(t *testing.T) {
	b := append(mustMarshal(t, &protocol.Hello{Version: protocol.Version, Name: "ada"}), 0)
	b[1]++ // the frame's length takes the extra byte
	if _, _, err := protocol.Unmarshal(b); !errors.Is(err, protocol.ErrTrailing) {
		t.Errorf("Hello with an empty room field: err = %v, want ErrTrailing", err)
	}
}
