package client

import (
	"errors"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// CallKind is what a Driver was asked to do, or (CallSent, CallCheck)
// what it did.
type CallKind uint8

// The calls a Driver's journal reports.
const (
	CallDeliver     CallKind = iota + 1 // Deliver: Data, the bytes read
	CallHangup                          // Hangup: Err, the reason ("" for none)
	CallStep                            // Step (or Update): what was due at At
	CallPress                           // Press: Dir
	CallZap                             // Zap
	CallPredict                         // SetPredict: On
	CallReconcile                       // SetReconcile: On
	CallInterpolate                     // SetInterpolate: On
	CallLatency                         // SetLatency: D
	CallJitter                          // SetJitter: D
	CallDrop                            // Drop: Err
	CallDisconnect                      // Disconnect: Err
	CallReconnect                       // Reconnect
	CallClose                           // Close
	// CallSent is a frame the driver handed out to be written (Data),
	// during a Step or a Close. It is what the calls above made, not a
	// call: Apply ignores it.
	CallSent
	// CallCheck is the view just after a State was handled (View), for a
	// replay to compare with its own. Apply ignores it.
	CallCheck
)

// Call is one entry of a Driver's journal: a call with its time and its
// arguments (each kind fills its own), or what a call produced.
type Call struct {
	Kind CallKind
	At   time.Duration
	Data []byte
	Dir  grid.Dir
	On   bool
	D    time.Duration
	Err  string
	View *View
}

// Journal makes the driver report to f every call it takes from now on,
// in order, before acting on it, with its time and arguments; every
// frame it hands out to be written (CallSent); and its view after each
// State it handles (CallCheck). A new driver of the same Options, given
// the same calls with Apply, goes through the same states at the same
// times: f is all a recording of the player needs. nil stops it. Data
// is the driver's own copy, not reused.
func (d *Driver) Journal(f func(Call)) {
	d.journal = f
	d.check = nil
	if f != nil {
		d.check = func(now time.Duration) {
			v := d.View(now)
			f(Call{Kind: CallCheck, At: now, View: &v})
		}
	}
}

// Apply makes the call c (a journal's entry) on the driver, as the
// driver's user made it; the frames it hands out are dropped (a replay
// has no socket). CallSent and CallCheck do nothing.
func (d *Driver) Apply(c Call) {
	now := c.At
	switch c.Kind {
	case CallDeliver:
		d.Deliver(now, c.Data)
	case CallHangup:
		d.Hangup(now, callErr(c.Err))
	case CallStep:
		d.Step(now)
	case CallPress:
		d.Press(now, c.Dir)
	case CallZap:
		d.Zap(now)
	case CallPredict:
		d.SetPredict(c.On)
	case CallReconcile:
		d.SetReconcile(c.On)
	case CallInterpolate:
		d.SetInterpolate(c.On)
	case CallLatency:
		d.SetLatency(c.D)
	case CallJitter:
		d.SetJitter(c.D)
	case CallDrop:
		d.Drop(now, callErr(c.Err))
	case CallDisconnect:
		d.Disconnect(now, callErr(c.Err))
	case CallReconnect:
		d.Reconnect(now)
	case CallClose:
		d.Close()
	}
}

// callErr is the error of a journal's text; nil for none.
func callErr(text string) error {
	if text == "" {
		return nil
	}
	return errors.New(text)
}

// errText is the text of err for a journal; "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// record reports c to the journal, if there is one.
func (p *pipe[M]) record(c Call) {
	if p.journal != nil {
		p.journal(c)
	}
}

// recordNotes reports a check after each State among notes.
func (p *pipe[M]) recordNotes(now time.Duration, notes []Note) {
	if p.check == nil {
		return
	}
	for _, n := range notes {
		if _, ok := n.Msg.(*protocol.State); ok && n.Kind == Arrived {
			p.check(now)
		}
	}
}
