package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// CallEvent returns the event that records a client driver's journal
// entry (client.Driver.Journal). A switch or a link change has no time of
// its own: it is written at the time of the event before it.
func CallEvent(c client.Call) Event {
	e := Event{At: c.At, Who: Player1}
	switch c.Kind {
	case client.CallDeliver:
		e.Kind, e.Data = Deliver, c.Data
	case client.CallHangup:
		e.Kind, e.Data = Hangup, []byte(c.Err)
	case client.CallStep:
		e.Kind = Update
	case client.CallPress:
		e.Kind, e.Arg = Press, int64(c.Dir)
	case client.CallZap:
		e.Kind = Zap
	case client.CallPredict:
		e.Kind, e.Arg = Predict, onOff(c.On)
	case client.CallReconcile:
		e.Kind, e.Arg = Reconcile, onOff(c.On)
	case client.CallInterpolate:
		e.Kind, e.Arg = Interpolate, onOff(c.On)
	case client.CallLatency:
		e.Kind, e.Arg = Latency, int64(c.D)
	case client.CallJitter:
		e.Kind, e.Arg = Jitter, int64(c.D)
	case client.CallDrop:
		e.Kind, e.Data = Drop, []byte(c.Err)
	case client.CallDisconnect:
		e.Kind, e.Data = Disconnect, []byte(c.Err)
	case client.CallReconnect:
		e.Kind = Reconnect
	case client.CallClose:
		e.Kind = Close
	case client.CallSent:
		e.Kind, e.Data = Sent, c.Data
	case client.CallCheck:
		if c.View != nil {
			e = CheckOf(*c.View).Event(c.At)
		}
	}
	return e
}

// Call returns the journal entry e records, for client.Driver.Apply; ok
// is false for an event that is not a game's (a lab's Sync, a Check).
func (e Event) Call() (c client.Call, ok bool) {
	c = client.Call{At: e.At}
	switch e.Kind {
	case Deliver:
		c.Kind, c.Data = client.CallDeliver, e.Data
	case Hangup:
		c.Kind, c.Err = client.CallHangup, string(e.Data)
	case Update:
		c.Kind = client.CallStep
	case Press:
		c.Kind, c.Dir = client.CallPress, grid.Dir(e.Arg)
	case Zap:
		c.Kind = client.CallZap
	case Predict:
		c.Kind, c.On = client.CallPredict, e.Arg == 1
	case Reconcile:
		c.Kind, c.On = client.CallReconcile, e.Arg == 1
	case Interpolate:
		c.Kind, c.On = client.CallInterpolate, e.Arg == 1
	case Latency:
		c.Kind, c.D = client.CallLatency, time.Duration(e.Arg)
	case Jitter:
		c.Kind, c.D = client.CallJitter, time.Duration(e.Arg)
	case Drop:
		c.Kind, c.Err = client.CallDrop, string(e.Data)
	case Disconnect:
		c.Kind, c.Err = client.CallDisconnect, string(e.Data)
	case Reconnect:
		c.Kind = client.CallReconnect
	case Close:
		c.Kind = client.CallClose
	case Sent:
		c.Kind, c.Data = client.CallSent, e.Data
	default:
		return c, false
	}
	return c, true
}

func onOff(on bool) int64 {
	if on {
		return 1
	}
	return 0
}

// CheckView is what a game's recording keeps of the player's view after
// each State, for a replay to compare with its own: where the player sees
// itself and where the server has it, the last acknowledged input, the
// corrections so far, the inputs pending, and the others as drawn (how
// many, and a sum of their IDs and cells).
type CheckView struct {
	Ack         uint32
	Predicted   grid.Pos
	Server      grid.Pos
	Corrections int
	Pending     int
	Others      int
	OthersSum   uint64
}

// CheckOf takes the check of a view.
func CheckOf(v client.View) CheckView {
	h := fnv.New64a()
	var b []byte
	for _, o := range v.Others {
		b = binary.AppendUvarint(b[:0], uint64(o.ID))
		b = binary.AppendVarint(b, int64(o.Pos.X))
		b = binary.AppendVarint(b, int64(o.Pos.Y))
		h.Write(b)
	}
	return CheckView{Ack: v.LastAck, Predicted: v.Predicted, Server: v.Server, Corrections: v.Corrections,
		Pending: len(v.Pending), Others: len(v.Others), OthersSum: h.Sum64()}
}

// Event returns the Check event of c at time at.
func (c CheckView) Event(at time.Duration) Event {
	var b []byte
	for _, n := range []int{c.Predicted.X, c.Predicted.Y, c.Server.X, c.Server.Y} {
		b = binary.AppendVarint(b, int64(n))
	}
	for _, n := range []int{c.Corrections, c.Pending, c.Others} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.BigEndian.AppendUint64(b, c.OthersSum)
	return Event{At: at, Kind: Check, Who: Player1, Arg: int64(c.Ack), Data: b}
}

// ParseCheck reads a Check event.
func ParseCheck(e Event) (CheckView, error) {
	bad := errors.New("a check that does not read")
	if e.Kind != Check || e.Arg < 0 || e.Arg > 1<<32-1 {
		return CheckView{}, bad
	}
	c := CheckView{Ack: uint32(e.Arg)}
	p := &parser{b: e.Data}
	var ns [7]int64
	for i := range ns {
		var err error
		if i < 4 {
			ns[i], err = p.varint()
		} else {
			var u uint64
			u, err = p.uvarint()
			ns[i] = int64(u)
		}
		if err != nil || ns[i] < -1<<31 || ns[i] > 1<<31 {
			return CheckView{}, bad
		}
	}
	sum, err := p.bytes(8)
	if err != nil || p.off != len(p.b) {
		return CheckView{}, bad
	}
	c.Predicted = grid.Pos{X: int(ns[0]), Y: int(ns[1])}
	c.Server = grid.Pos{X: int(ns[2]), Y: int(ns[3])}
	c.Corrections, c.Pending, c.Others = int(ns[4]), int(ns[5]), int(ns[6])
	c.OthersSum = binary.BigEndian.Uint64(sum)
	return c, nil
}

// String says what the check holds, for a line on a difference.
func (c CheckView) String() string {
	return fmt.Sprintf("sees %v, server %v, ack #%d, %d pending, %d corrections, %d others", c.Predicted, c.Server, c.Ack, c.Pending, c.Corrections, c.Others)
}

// Journal writes a player's client driver's journal (client.Driver.Journal)
// into a recording: every call as its event, until the recording is
// full. Its Call is what tcp.Options.Journal takes; it is called with
// the connection's lock held, so it needs none of its own.
type Journal struct {
	w    *Writer
	last time.Duration
	err  error
}

// NewJournal returns a journal writing into w.
func NewJournal(w *Writer) *Journal { return &Journal{w: w} }

// Call writes c.
func (j *Journal) Call(c client.Call) {
	if j.err != nil {
		return
	}
	e := CallEvent(c)
	if e.Kind == 0 {
		return
	}
	j.last = max(j.last, c.At)
	j.err = j.w.Write(e)
}

// Err returns why the journal stopped writing (ErrFull at the
// recording's bound), nil while it writes.
func (j *Journal) Err() error { return j.err }

// Last returns the time of the last call.
func (j *Journal) Last() time.Duration { return j.last }

// Close ends the recording at the last call's time.
func (j *Journal) Close() error { return j.w.Close(j.last) }
