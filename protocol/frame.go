package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxFrame is the largest frame body (type byte and payload) in bytes.
const MaxFrame = 1<<16 - 1

// HeaderLen is the size of a frame's length prefix.
const HeaderLen = 2

// Frame errors.
var (
	ErrTooLarge    = fmt.Errorf("frame body larger than %d bytes", MaxFrame)
	ErrEmptyFrame  = errors.New("empty frame")
	ErrUnknownType = errors.New("unknown message type")
)

// Append encodes m as one frame appended to dst.
func Append(dst []byte, m Message) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, byte(m.Type()))
	dst, err := m.appendPayload(dst)
	if err != nil {
		return dst[:start], fmt.Errorf("protocol: encode %v: %w", m.Type(), err)
	}
	n := len(dst) - start - HeaderLen
	if n > MaxFrame {
		return dst[:start], fmt.Errorf("protocol: encode %v: %w", m.Type(), ErrTooLarge)
	}
	binary.BigEndian.PutUint16(dst[start:], uint16(n))
	return dst, nil
}

// NextFrame finds the first whole frame in b, bytes as they came from a
// stream: it returns the frame's body (the type byte and the payload, for
// DecodeBody) and the bytes the frame takes in b; n is 0 while b does not
// hold a whole frame yet. A frame that announces a body longer than max
// (if max is positive) is a *FrameSizeError as soon as its length has
// come, before its body.
func NextFrame(b []byte, max int) (body []byte, n int, err error) {
	if len(b) < HeaderLen {
		return nil, 0, nil
	}
	size := bodyLen(b)
	if max > 0 && size > max {
		return nil, 0, &FrameSizeError{Size: size, Max: max}
	}
	if len(b) < HeaderLen+size {
		return nil, 0, nil
	}
	return b[HeaderLen : HeaderLen+size], HeaderLen + size, nil
}

// bodyLen returns the body length a frame's header announces.
func bodyLen(hdr []byte) int { return int(binary.BigEndian.Uint16(hdr)) }

// Marshal encodes m as one frame.
func Marshal(m Message) ([]byte, error) { return Append(nil, m) }

// DecodeBody decodes a frame body: the type byte and the payload, without the
// length prefix.
func DecodeBody(body []byte) (Message, error) {
	if len(body) == 0 {
		return nil, fmt.Errorf("protocol: %w", ErrEmptyFrame)
	}
	t := Type(body[0])
	if t == TypeStateStep {
		return nil, fmt.Errorf("protocol: decode %v: %w", t, ErrNoBase)
	}
	m := New(t)
	if m == nil {
		return nil, fmt.Errorf("protocol: type %d: %w", body[0], ErrUnknownType)
	}
	r := reader{b: body[1:]}
	if err := m.decodePayload(&r); err != nil {
		return nil, fmt.Errorf("protocol: decode %v: %w", t, err)
	}
	return m, nil
}

// Unmarshal decodes the first frame in b and returns the message and the
// number of bytes the frame took. If b holds less than a whole frame it
// returns io.ErrUnexpectedEOF. A State step (see StateStream) does not
// decode alone: it gives ErrNoBase.
func Unmarshal(b []byte) (Message, int, error) { return unmarshal(b, DecodeBody) }

// unmarshal is Unmarshal with the given decoder of a frame body.
func unmarshal(b []byte, decode func(body []byte) (Message, error)) (Message, int, error) {
	if len(b) < HeaderLen {
		return nil, 0, io.ErrUnexpectedEOF
	}
	n := int(binary.BigEndian.Uint16(b))
	if len(b) < HeaderLen+n {
		return nil, 0, io.ErrUnexpectedEOF
	}
	m, err := decode(b[HeaderLen : HeaderLen+n])
	return m, HeaderLen + n, err
}

// Decoder reads frames from an io.Reader, one stream: a State step
// decodes to its State (see StateStream). Wrap a socket in a bufio.Reader
// first: the decoder makes two reads a frame.
type Decoder struct {
	r      io.Reader
	buf    []byte
	states StateStream
	// BytesRead counts the bytes of every frame read so far.
	BytesRead int64
	// HeadsOnly makes Decode give States as their head alone (Tick,
	// TimeNS, Ack and Full, with no players and nobody gone, and the rest
	// of the frame not checked): for a reader that needs only the
	// acknowledgements, such as a load generator, which would otherwise
	// make a list of every player moving in view, every tick, only to
	// drop it.
	HeadsOnly bool
	// MaxFrame, if positive, is the largest frame body the decoder takes:
	// a longer one is a *FrameSizeError as soon as its length is read,
	// without waiting for its bytes (a server reading clients, whose
	// largest message is a few hundred bytes, is not kept waiting for the
	// kilobytes that "GET / HTTP/1.1" read as a length announces). The
	// stream is then out of step: the caller ends it. 0 takes any frame.
	MaxFrame int
}

// A FrameSizeError is a frame whose length is over a Decoder's MaxFrame.
type FrameSizeError struct {
	Size, Max int // the frame body's length, and the decoder's MaxFrame
}

func (e *FrameSizeError) Error() string {
	return fmt.Sprintf("protocol: frame of %d bytes, more than the %d taken", e.Size, e.Max)
}

// NewDecoder returns a decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r, buf: make([]byte, 256)} }

// Decode reads one frame and decodes its message. At a clean end of stream
// between frames it returns io.EOF; inside a frame, io.ErrUnexpectedEOF. A
// frame that does not decode returns an error after the whole frame was
// read, so the stream stays in step and the caller may choose to go on.
func (d *Decoder) Decode() (Message, error) {
	body, err := d.frame()
	if err != nil {
		return nil, err
	}
	if d.HeadsOnly && len(body) >= StateHeadLen-HeaderLen && Type(body[0]) == TypeState {
		return d.stateHead(body), nil
	}
	return d.states.DecodeBody(body)
}

// Skip reads the next frame and, if its message is of type t, drops it
// without decoding it and reports true: a reader may pass over frames it
// has no use for (a load generator, the map chunks of a map it already
// has) at the cost of reading them alone. A frame of another type, and
// any State, is decoded in full (whatever HeadsOnly says) and returned.
func (d *Decoder) Skip(t Type) (Message, bool, error) {
	body, err := d.frame()
	if err != nil {
		return nil, false, err
	}
	if len(body) > 0 && Type(body[0]) == t && t != TypeState && t != TypeStateStep {
		return nil, true, nil
	}
	m, err := d.states.DecodeBody(body)
	return m, false, err
}

// stateHead decodes the head of a State's frame body, whose length was
// checked, and remembers it for the steps that follow.
func (d *Decoder) stateHead(body []byte) *State {
	r := reader{b: body[1:]}
	st := &State{Tick: r.u32(), TimeNS: r.u64(), Ack: r.u32()}
	st.Full = len(r.b) > 0 && r.b[0]&stateFull != 0
	d.states.remember(st)
	return st
}

// frame reads the next frame's body, which stays valid until the next
// read.
func (d *Decoder) frame() ([]byte, error) {
	var hdr [HeaderLen]byte
	if _, err := io.ReadFull(d.r, hdr[:]); err != nil {
		return nil, err
	}
	n := bodyLen(hdr[:])
	if d.MaxFrame > 0 && n > d.MaxFrame {
		return nil, &FrameSizeError{Size: n, Max: d.MaxFrame}
	}
	if cap(d.buf) < n {
		d.buf = make([]byte, n)
	}
	body := d.buf[:n]
	if _, err := io.ReadFull(d.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	d.BytesRead += int64(HeaderLen + n)
	return body, nil
}

// Encoder writes frames to an io.Writer, one Write call per frame, as one
// stream: a State that changes nothing travels as a step (see
// StateStream).
type Encoder struct {
	w      io.Writer
	buf    []byte
	states StateStream
	// BytesWritten counts the bytes of every frame written so far.
	BytesWritten int64
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode writes m as one frame.
func (e *Encoder) Encode(m Message) error {
	var err error
	e.buf, err = e.states.Append(e.buf[:0], m)
	if err != nil {
		return err
	}
	n, err := e.w.Write(e.buf)
	e.BytesWritten += int64(n)
	return err
}
