package protocol_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"testing"

	"gridlag/protocol"
)

// decodeErrors are the sentinel errors a frame that does not decode must
// wrap, so that a server can tell a peer exactly what was wrong.
var decodeErrors = []error{
	protocol.ErrEmptyFrame, protocol.ErrUnknownType,
	protocol.ErrShort, protocol.ErrTrailing, protocol.ErrBadUTF8, protocol.ErrBadValue,
	protocol.ErrNoBase,
}

// isDecodeError reports whether err wraps one of decodeErrors.
func isDecodeError(err error) bool {
	for _, e := range decodeErrors {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// result is what decoding one frame gave.
type result struct {
	msg protocol.Message
	err error
	n   int // the frame's size in bytes, prefix included
}

// FuzzDecode feeds arbitrary bytes to Unmarshal, to a StateStream and to a
// Decoder. None may panic; the stream must agree with Unmarshal on every
// frame but a State step, and the Decoder with the stream, frame by frame;
// every frame that decodes must encode back to exactly its own bytes (a
// step through a stream that saw the same States) and decode again to an
// equal message; every frame that does not decode must give an error
// wrapping a sentinel, and decoding must go on in step with the next frame.
//
//	go test -run='^$' -fuzz='^FuzzDecode$' -fuzztime=60s ./protocol
func FuzzDecode(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		alone := unmarshalAll(t, data)
		decodeAll(t, data, streamAll(t, data, alone))
	})
}

// unmarshalAll splits data into frames with Unmarshal, checks each, and
// returns what every whole frame gave.
func unmarshalAll(t *testing.T, data []byte) []result {
	var out []result
	rest := data
	for {
		m, n, err := protocol.Unmarshal(rest)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			if m != nil || n != 0 {
				t.Fatalf("Unmarshal(%x) = %v, %d, %v: a partial frame must give no message and take no bytes", rest, m, n, err)
			}
			if len(rest) >= protocol.HeaderLen && len(rest) >= protocol.HeaderLen+int(binary.BigEndian.Uint16(rest)) {
				t.Fatalf("Unmarshal(%x) said the frame is short, but it is whole", rest)
			}
			return out
		}
		if n < protocol.HeaderLen || n > len(rest) {
			t.Fatalf("Unmarshal(%x) took %d bytes", rest, n)
		}
		frame := rest[:n]
		rest = rest[n:]
		out = append(out, result{m, err, n})
		if err != nil {
			if m != nil {
				t.Fatalf("Unmarshal(%x) gave message %#v together with error %v", frame, m, err)
			}
			if !isDecodeError(err) {
				t.Fatalf("Unmarshal(%x): error %q wraps none of the package's sentinel errors", frame, err)
			}
			continue
		}
		checkCanonical(t, frame, m)
		if len(rest) == 0 {
			return out
		}
	}
}

// checkCanonical checks that m, decoded from frame, encodes back to exactly
// frame and decodes again to an equal message.
func checkCanonical(t *testing.T, frame []byte, m protocol.Message) {
	t.Helper()
	if m == nil {
		t.Fatalf("Unmarshal(%x) gave neither message nor error", frame)
	}
	if got := m.Type(); byte(got) != frame[protocol.HeaderLen] {
		t.Fatalf("frame of type byte %d decoded as %v", frame[protocol.HeaderLen], got)
	}
	b, err := protocol.Marshal(m)
	if err != nil {
		t.Fatalf("Marshal(%#v), decoded from %x: %v", m, frame, err)
	}
	if !bytes.Equal(b, frame) {
		t.Fatalf("encoding is not canonical:\n frame    %x\n decoded  %#v\n re-encoded %x", frame, m, b)
	}
	prefix := []byte("prefix")
	if b, err := protocol.Append(prefix, m); err != nil || !bytes.Equal(b, append([]byte("prefix"), frame...)) {
		t.Fatalf("Append(prefix, %#v) = %x, %v; want prefix then %x", m, b, err, frame)
	}
	m2, n, err := protocol.Unmarshal(b)
	if err != nil || n != len(b) {
		t.Fatalf("Unmarshal(Marshal(%#v)) = %d bytes, %v", m, n, err)
	}
	if !reflect.DeepEqual(m, m2) {
		t.Fatalf("decode, encode, decode changed the message:\n first  %#v\n second %#v", m, m2)
	}
	m3, err := protocol.DecodeBody(frame[protocol.HeaderLen:])
	if err != nil || !reflect.DeepEqual(m, m3) {
		t.Fatalf("DecodeBody disagrees with Unmarshal: %#v, %v; want %#v", m3, err, m)
	}
}

// streamAll decodes data's frames with a StateStream and checks each
// against what Unmarshal gave alone: the same but for the State steps,
// which decode to Empty States that a stream in step with the decoder
// encodes back to the same bytes. Every State decoded, encoded again on
// a stream of its own, decodes again to an equal State. It returns what
// the stream gave.
func streamAll(t *testing.T, data []byte, alone []result) []result {
	var dec, enc, again protocol.StateStream
	out := make([]result, len(alone))
	rest := data
	for i, a := range alone {
		frame := rest[:a.n]
		rest = rest[a.n:]
		m, n, err := dec.Unmarshal(frame)
		out[i] = result{m, err, n}
		step := len(frame) > protocol.HeaderLen && frame[protocol.HeaderLen] == byte(protocol.TypeStateStep)
		if !step {
			if (err == nil) != (a.err == nil) || err != nil && err.Error() != a.err.Error() || !reflect.DeepEqual(m, a.msg) {
				t.Fatalf("frame %d (%x): the stream gave %#v, %v; Unmarshal gave %#v, %v", i, frame, m, err, a.msg, a.err)
			}
		}
		if err != nil {
			if m != nil || !isDecodeError(err) {
				t.Fatalf("frame %d (%x): the stream gave %#v with error %v, which wraps no sentinel", i, frame, m, err)
			}
			continue
		}
		st, ok := m.(*protocol.State)
		if !ok {
			continue
		}
		b, err := enc.AppendState(nil, st)
		if err != nil {
			t.Fatalf("frame %d: AppendState(%#v), decoded from %x: %v", i, st, frame, err)
		}
		if step && (!st.Empty() || !bytes.Equal(b, frame)) {
			t.Fatalf("frame %d: step %x decoded to %#v, which encodes back to %x", i, frame, st, b)
		}
		if m2, n2, err := again.Unmarshal(b); err != nil || n2 != len(b) || !reflect.DeepEqual(m2, st) {
			t.Fatalf("frame %d: %#v encoded on a stream to %x decodes to %#v, %v", i, st, b, m2, err)
		}
	}
	return out
}

// decodeAll reads data with a Decoder and checks it gives what want says,
// frame for frame, then io.EOF at a clean end or io.ErrUnexpectedEOF inside a
// frame.
func decodeAll(t *testing.T, data []byte, want []result) {
	dec := protocol.NewDecoder(bytes.NewReader(data))
	var read int64
	for i := 0; ; i++ {
		m, err := dec.Decode()
		if i == len(want) {
			switch {
			case read == int64(len(data)) && err != io.EOF:
				t.Fatalf("Decode at the end of the stream = %v, %v; want io.EOF", m, err)
			case read < int64(len(data)) && err != io.ErrUnexpectedEOF:
				t.Fatalf("Decode of the last %d bytes, a partial frame, = %v, %v; want io.ErrUnexpectedEOF", int64(len(data))-read, m, err)
			}
			if m != nil {
				t.Fatalf("Decode gave message %#v together with %v", m, err)
			}
			if dec.BytesRead != read {
				t.Fatalf("BytesRead = %d after %d bytes of whole frames", dec.BytesRead, read)
			}
			return
		}
		w := want[i]
		read += int64(w.n)
		if (err == nil) != (w.err == nil) || (err != nil && err.Error() != w.err.Error()) {
			t.Fatalf("frame %d: Decoder says %v, Unmarshal says %v", i, err, w.err)
		}
		if !reflect.DeepEqual(m, w.msg) {
			t.Fatalf("frame %d: Decoder gave %#v, Unmarshal gave %#v", i, m, w.msg)
		}
		if dec.BytesRead != read {
			t.Fatalf("frame %d: BytesRead = %d, want %d", i, dec.BytesRead, read)
		}
	}
}
