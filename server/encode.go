package server

import (
	"gridlag/protocol"
	"gridlag/server/world"
)

// arenaSize is the size of the chunks frames are encoded into.
const arenaSize = 64 << 10

// frame is the encoded bytes of one message queued for one connection, in
// head: the encoder writes whole frames (each State carries its own
// client's area, so no two share bytes).
type frame struct {
	head   []byte
	close  bool // close the connection after this frame
	shared bool // head is kept for the server's life: queued by reference (outQueue)
	state  bool // a State: a client behind skips it (conn.push)
	full   bool // a State that is a full picture of its area
}

// encoder turns a batch of the hub's envelopes into frames, encoding each
// envelope once: a Join, a Leave, a scoreboard or a Notice sent to many
// clients in a row is encoded once for all of them, a map's piece once for
// the server (see keptFrames), and a room list once for every request
// until the hub builds another. A State is its own client's (what changed
// in its area), encoded for it alone on the stream to its connection: an
// idle one is a step of a few bytes from the State before (see
// protocol.StateStream).
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
	// the room lists encoded last: the hub answers every request with
	// the same list, in one of two forms, until the rooms change
	lists [2]keptFrame
	older int // the index of the list to replace next
}

// keptFrame is a message and its frame.
type keptFrame struct {
	msg protocol.Message
	f   frame
}

// encode returns one frame per envelope, aligned with out: a State on the
// stream streams gives for its connection (nil for a connection that is
// gone: it is encoded whole, and not sent), a map chunk from kept, and
// the same message sent to several clients in a row is encoded once. A
// message that does not encode (which the Core never produces) gives a
// frame with a nil head and its error in errs. The slice is reused by
// the next call.
func (e *encoder) encode(out []world.Envelope, streams func(world.ConnID) *protocol.StateStream, kept keptFrames, errs func(world.Envelope, error)) []frame {
	e.frames = e.frames[:0]
	e.lastMsg = nil // the Core reuses messages between batches
	for _, env := range out {
		f, err := e.frameOf(env, streams, kept)
		if err != nil && errs != nil {
			errs(env, err)
		}
		f.close = env.Close
		e.frames = append(e.frames, f)
	}
	return e.frames
}

// frameOf returns the frame of one envelope; see encode.
func (e *encoder) frameOf(env world.Envelope, streams func(world.ConnID) *protocol.StateStream, kept keptFrames) (frame, error) {
	switch m := env.Msg.(type) {
	case *protocol.State:
		b, err := e.append(m, streams(env.To))
		return frame{head: b, state: true, full: m.Full}, err
	case *protocol.MapChunk, *protocol.MapBits:
		return kept.frame(m)
	case *protocol.Rooms:
		return e.list(m)
	}
	if env.Msg == e.lastMsg {
		return e.lastFrame, nil
	}
	f, err := e.one(env.Msg)
	e.lastMsg, e.lastFrame = env.Msg, f
	return f, err
}

// list returns the frame of the room list m, encoding it unless it is
// one of the last two encoded.
func (e *encoder) list(m *protocol.Rooms) (frame, error) {
	for _, k := range e.lists {
		if k.msg == protocol.Message(m) {
			return k.f, nil
		}
	}
	f, err := e.one(m)
	if err == nil {
		e.lists[e.older] = keptFrame{msg: m, f: f}
		e.older = 1 - e.older
	}
	return f, err
}

// one encodes a single message.
func (e *encoder) one(m protocol.Message) (frame, error) {
	b, err := e.append(m, nil)
	return frame{head: b}, err
}

// append encodes m into the arena, on stream if it is not nil.
func (e *encoder) append(m protocol.Message, stream *protocol.StateStream) ([]byte, error) {
	if cap(e.arena)-len(e.arena) < 1024 {
		e.arena = make([]byte, 0, arenaSize)
	}
	free := e.arena[len(e.arena):]
	var b []byte
	var err error
	if stream != nil {
		b, err = stream.Append(free, m)
	} else {
		b, err = protocol.Append(free, m)
	}
	if err != nil {
		return nil, err
	}
	if cap(b) == cap(free) { // encoded in place
		e.arena = e.arena[:len(e.arena)+len(b)]
	}
	return b[:len(b):len(b)], nil
}
