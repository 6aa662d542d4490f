package protocol

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// SniffServer tells from head, the first bytes a server sent on a new
// connection, whether they can begin this protocol's first frame: known
// is false while head is shorter than a frame's head and type; foreign is
// true when its type is no message type, as the banner of an SSH server
// ("SSH-2.0-..."), an HTTP answer or any other text protocol's greeting
// is not (this protocol's types are control characters). A client that
// dialled something else can so say what it reached at once, instead of
// waiting for a frame that never ends.
func SniffServer(head []byte) (foreign, known bool) {
	if len(head) < HeaderLen+1 {
		return false, false
	}
	t := Type(head[HeaderLen])
	return New(t) == nil && t != TypeStateStep, true
}

// Heard is the first line of a foreign server's greeting, printable and
// at most 64 bytes, for a message that names what was heard.
func Heard(head []byte) string {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	line = bytes.TrimRight(line, "\r")
	if len(line) > 64 {
		line = line[:64]
		for len(line) > 0 && !utf8.Valid(line) {
			line = line[:len(line)-1]
		}
	}
	return strings.TrimSpace(Printable(strings.ToValidUTF8(string(line), "")))
}

// SSHBanner reports whether a foreign server's greeting is an SSH
// server's identification ("SSH-2.0-gridlag").
func SSHBanner(head []byte) bool { return bytes.HasPrefix(head, []byte("SSH-")) }
