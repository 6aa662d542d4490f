package protocol

import (
	"errors"
	"testing"
)

// TestNextFrame: a stream's bytes give their frames whole, one at a time,
// and nothing until a frame has come whole; a frame announced longer than
// the limit is refused as soon as its length has come.
func TestNextFrame(t *testing.T) {
	a, _ := Marshal(&Ping{Stamp: 7})
	b, _ := Marshal(&Input{Seq: 3, Dir: 1})
	stream := append(append([]byte{}, a...), b...)
	for cut := 0; cut < len(a); cut++ {
		if body, n, err := NextFrame(stream[:cut], 0); body != nil || n != 0 || err != nil {
			t.Fatalf("%d bytes of a frame: %v, %d, %v; want nothing yet", cut, body, n, err)
		}
	}
	body, n, err := NextFrame(stream, 0)
	if err != nil || n != len(a) {
		t.Fatalf("NextFrame = %d, %v; want %d", n, err, len(a))
	}
	if m, err := DecodeBody(body); err != nil || m.(*Ping).Stamp != 7 {
		t.Fatalf("the first frame decodes to %v, %v", m, err)
	}
	if _, n, _ := NextFrame(stream[n:], 0); n != len(b) {
		t.Fatalf("the second frame takes %d bytes, want %d", n, len(b))
	}
	var fse *FrameSizeError
	if _, _, err := NextFrame([]byte{0xff, 0xff}, 100); !errors.As(err, &fse) || fse.Size != 0xffff || fse.Max != 100 {
		t.Fatalf("a frame of 65535 bytes under a limit of 100: %v", err)
	}
}
