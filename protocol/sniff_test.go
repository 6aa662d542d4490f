package protocol_test

import (
	"testing"

	"gridlag/protocol"
)

// TestSniffServer: what a gridlag server sends first is known at its
// third byte; an SSH server's banner and an HTTP answer are foreign, and
// Heard names them.
func TestSniffServer(t *testing.T) {
	for _, m := range []protocol.Message{
		&protocol.Welcome{Player: 1, MapWidth: 1, MapHeight: 1, Cells: []byte{'.'}},
		&protocol.Error{Code: protocol.ErrCodeFull, Text: "server busy"},
		&protocol.Notice{Text: "server stopping in 3 s"},
		&protocol.Rooms{},
	} {
		f, err := protocol.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if foreign, known := protocol.SniffServer(f[:2]); foreign || known {
			t.Errorf("%v: two bytes told %v %v, want not yet known", m.Type(), foreign, known)
		}
		if foreign, known := protocol.SniffServer(f); foreign || !known {
			t.Errorf("%v: foreign %v known %v, want a gridlag server's", m.Type(), foreign, known)
		}
	}
	for greeting, heard := range map[string]string{
		"SSH-2.0-gridlag\r\n":                  "SSH-2.0-gridlag",
		"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3\r\n":   "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3",
		"HTTP/1.1 400 Bad Request\r\nX: y\r\n": "HTTP/1.1 400 Bad Request",
		"220 mail.example ESMTP\x1b[2J\r\n":    "220 mail.example ESMTP[2J",
	} {
		if foreign, known := protocol.SniffServer([]byte(greeting)); !foreign || !known {
			t.Errorf("%q: foreign %v known %v, want foreign", greeting, foreign, known)
		}
		if got := protocol.Heard([]byte(greeting)); got != heard {
			t.Errorf("Heard(%q) = %q, want %q", greeting, got, heard)
		}
	}
	if !protocol.SSHBanner([]byte("SSH-2.0-gridlag\r\n")) || protocol.SSHBanner([]byte("HTTP/1.1")) {
		t.Error("SSHBanner does not tell an SSH server's banner")
	}
}
