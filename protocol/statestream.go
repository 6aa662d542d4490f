package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrNoBase is the error of a State step frame (TypeStateStep) decoded
// without the State before it on its stream: by DecodeBody or Unmarshal,
// which know no stream, or first on a stream.
var ErrNoBase = errors.New("a State step needs the State before it on the same stream: decode the stream with a Decoder or a StateStream")

// MinStateLen is the smallest a State frame can be on a stream: a step
// whose three differences take one byte each.
const MinStateLen = HeaderLen + 1 + 3

// StateStream is the memory one stream of frames from a server to a client
// keeps so that a State which changes nothing (Empty) travels as a step:
// TCP delivers every frame in order, so such a State is told as how far
// its Tick, TimeNS and Ack moved since the previous State on the stream.
// A step is a frame of type TypeStateStep whose payload is three uvarints:
// the tick difference, the time difference in whole microseconds and the
// ack difference. An idle client receives about 8 bytes a tick instead of
// the StateHeadLen-byte head. A State that cannot be told so (the first on
// the stream, one that changes something, a difference that is negative or
// not a whole number of microseconds) travels as Append writes it.
//
// Each end of a stream keeps its own StateStream: the sender encodes with
// Append or AppendState, the receiver decodes with DecodeBody or Unmarshal,
// and each remembers the head of the last State it handled. Encoder and
// Decoder keep one. The zero value is a stream with no State yet.
type StateStream struct {
	tick   uint32
	timeNS uint64
	ack    uint32
	ok     bool // a State was handled
}

// Append encodes m as one frame appended to dst, as Append does, except
// that a State goes through AppendState.
func (s *StateStream) Append(dst []byte, m Message) ([]byte, error) {
	if st, ok := m.(*State); ok {
		return s.AppendState(dst, st)
	}
	return Append(dst, m)
}

// AppendState encodes st as one frame appended to dst: a step from the
// previous State on the stream when st is Empty and the step can be told,
// else as Append writes it. It remembers st's head.
func (s *StateStream) AppendState(dst []byte, st *State) ([]byte, error) {
	if dt, dtime, dack, ok := s.step(st); ok {
		start := len(dst)
		dst = append(dst, 0, 0, byte(TypeStateStep))
		dst = binary.AppendUvarint(dst, dt)
		dst = binary.AppendUvarint(dst, dtime)
		dst = binary.AppendUvarint(dst, dack)
		binary.BigEndian.PutUint16(dst[start:], uint16(len(dst)-start-HeaderLen))
		s.remember(st)
		return dst, nil
	}
	dst, err := Append(dst, st)
	if err == nil {
		s.remember(st)
	}
	return dst, err
}

// step returns the differences of st's head from the previous State's,
// the time in microseconds, and whether st may travel as a step.
func (s *StateStream) step(st *State) (dt, dtime, dack uint64, ok bool) {
	if !s.ok || !st.Empty() || st.Tick < s.tick || st.TimeNS < s.timeNS || st.Ack < s.ack {
		return 0, 0, 0, false
	}
	ns := st.TimeNS - s.timeNS
	if ns%uint64(time.Microsecond) != 0 {
		return 0, 0, 0, false
	}
	return uint64(st.Tick - s.tick), ns / uint64(time.Microsecond), uint64(st.Ack - s.ack), true
}

// remember keeps st's head as the base of the next step.
func (s *StateStream) remember(st *State) {
	s.tick, s.timeNS, s.ack, s.ok = st.Tick, st.TimeNS, st.Ack, true
}

// DecodeBody decodes a frame body as DecodeBody does, except that a step
// decodes to the Empty State it stands for, from the last State decoded.
// It remembers the head of every State it returns.
func (s *StateStream) DecodeBody(body []byte) (Message, error) {
	if len(body) == 0 || Type(body[0]) != TypeStateStep {
		m, err := DecodeBody(body)
		if st, ok := m.(*State); ok {
			s.remember(st)
		}
		return m, err
	}
	st, err := s.expand(body[1:])
	if err != nil {
		return nil, fmt.Errorf("protocol: decode %v: %w", TypeStateStep, err)
	}
	s.remember(st)
	return st, nil
}

// Unmarshal decodes the first frame in b as Unmarshal does, through
// DecodeBody.
func (s *StateStream) Unmarshal(b []byte) (Message, int, error) {
	return unmarshal(b, s.DecodeBody)
}

// expand decodes a step's payload into the State it stands for.
func (s *StateStream) expand(payload []byte) (*State, error) {
	if !s.ok {
		return nil, ErrNoBase
	}
	r := reader{b: payload}
	dt, dtime, dack := r.uvarint(), r.uvarint(), r.uvarint()
	if err := r.done(); err != nil {
		return nil, err
	}
	if dt > math.MaxUint32-uint64(s.tick) || dack > math.MaxUint32-uint64(s.ack) ||
		dtime > (math.MaxUint64-s.timeNS)/uint64(time.Microsecond) {
		return nil, ErrBadValue
	}
	return &State{
		Tick:   s.tick + uint32(dt),
		TimeNS: s.timeNS + dtime*uint64(time.Microsecond),
		Ack:    s.ack + uint32(dack),
	}, nil
}
