package server

import (
	"gridlag/grid"
	"gridlag/protocol"
)

// arenaSize is the size of the chunks frames are encoded into.
const arenaSize = 64 << 10

// frame is the encoded bytes of one message queued for one connection:
// head followed by tail. tail is nil, except for a State, where it is the
// player list the State shares with the other States of its tick.
type frame struct {
	head  []byte
	tail  []byte
	close bool // close the connection after this frame
}

// appendTo appends the frame's pieces to bufs for a vectored write.
func (f frame) appendTo(bufs [][]byte) [][]byte {
	bufs = append(bufs, f.head)
	if len(f.tail) > 0 {
		bufs = append(bufs, f.tail)
	}
	return bufs
}

// encoder turns a batch of the Core's envelopes into frames, encoding each
// envelope once. The States of one tick differ only in their Ack, so their
// shared player list is encoded once per tick and each client gets only its
// own head (protocol.AppendStateHead): with N players a tick costs O(N)
// encoding, not O(N^2).
//
// Frames are carved out of chunks that are never reused, so a frame stays
// valid for as long as a writer holds it. The encoder is not safe for
// concurrent use.
type encoder struct {
	arena  []byte
	frames []frame

	// the last message encoded: a Join or Leave goes to many clients
	lastMsg   protocol.Message
	lastFrame frame

	// the State whose player list later States of the batch may share
	sharedTail []byte
	sharedSrc  *grid.PlayerPos
	sharedLen  int
	sharedTick uint32
	sharedTime uint64
}

// encode returns one frame per envelope, aligned with out; the same message
// sent to several clients in a row is encoded once. A message that
// does not encode (which the Core never produces) gives a frame with a nil
// head and its error in errs. The slice is reused by the next call.
func (e *encoder) encode(out []Envelope, errs func(Envelope, error)) []frame {
	e.frames = e.frames[:0]
	e.sharedSrc, e.lastMsg = nil, nil // the Core reuses messages between batches
	for _, env := range out {
		f := e.lastFrame
		if env.Msg != e.lastMsg {
			var err error
			f, err = e.one(env.Msg)
			if err != nil && errs != nil {
				errs(env, err)
			}
			e.lastMsg, e.lastFrame = env.Msg, f
		}
		f.close = env.Close
		e.frames = append(e.frames, f)
	}
	return e.frames
}

// one encodes a single message.
func (e *encoder) one(m protocol.Message) (frame, error) {
	st, ok := m.(*protocol.State)
	if !ok || len(st.Players) == 0 {
		b, err := e.append(m)
		return frame{head: b}, err
	}
	if e.sharedSrc == &st.Players[0] && e.sharedLen == len(st.Players) &&
		e.sharedTick == st.Tick && e.sharedTime == st.TimeNS {
		head, err := protocol.AppendStateHead(e.alloc(protocol.StateHeadLen)[:0], st)
		if err != nil {
			return frame{}, err
		}
		return frame{head: head, tail: e.sharedTail}, nil
	}
	b, err := e.append(st)
	if err != nil {
		return frame{}, err
	}
	e.sharedTail = b[protocol.StateHeadLen:]
	e.sharedSrc, e.sharedLen = &st.Players[0], len(st.Players)
	e.sharedTick, e.sharedTime = st.Tick, st.TimeNS
	return frame{head: b[:protocol.StateHeadLen:protocol.StateHeadLen], tail: e.sharedTail}, nil
}

// append encodes m into the arena.
func (e *encoder) append(m protocol.Message) ([]byte, error) {
	if cap(e.arena)-len(e.arena) < 1024 {
		e.arena = make([]byte, 0, arenaSize)
	}
	free := e.arena[len(e.arena):]
	b, err := protocol.Append(free, m)
	if err != nil {
		return nil, err
	}
	if cap(b) == cap(free) { // encoded in place
		e.arena = e.arena[:len(e.arena)+len(b)]
	}
	return b[:len(b):len(b)], nil
}

// alloc returns n bytes of the arena.
func (e *encoder) alloc(n int) []byte {
	if cap(e.arena)-len(e.arena) < n {
		e.arena = make([]byte, 0, arenaSize)
	}
	start := len(e.arena)
	e.arena = e.arena[:start+n]
	return e.arena[start : start+n : start+n]
}
