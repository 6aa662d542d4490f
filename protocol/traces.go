package protocol

import (
	"fmt"
	"strings"
	"unicode"
)

// Version 6 lets a teacher give a room a network that changes over time:
// a trace (a file of time-stamped changes of each way's delay, jitter
// and loss, and stalls; see docs/traces.md). A teacher of version 6 is
// sent, after the room's Conditions, the traces the server offers
// (Traces), and may name one in the Conditions it sends (Trace): the
// server makes every student's network follow it, from that moment, and
// tells every client of version 6 in the room the Conditions again at
// each step of the trace, with the step in force (Step) and the figures
// it sets (LatencyMS, JitterMS, LossBP: the round trip, and the jitter
// and loss of the two ways on average). Both fields are optional, last
// in the Conditions, and absent when no trace is named: a Conditions
// without a trace is version 5's, byte for byte, and a client of
// version 5 is sent it so (its network still follows the trace).

// TraceSince is the first version that knows Traces and a Conditions'
// Trace and Step.
const TraceSince uint16 = 6

// MaxTraces is the most traces a Traces lists.
const MaxTraces = 64

// MaxTraceName is the longest trace name, MaxTraceTitle the longest
// title and MaxTraceStep the longest step, in bytes.
const (
	MaxTraceName  = 32
	MaxTraceTitle = 120
	MaxTraceStep  = 80
)

// TraceInfo is one trace a server offers a teacher: its name, which a
// Conditions' Trace names, and its title, in words.
type TraceInfo struct {
	Name  string
	Title string
}

// Traces (since version 6) lists the traces a server offers a teacher
// for its room's network, in the order to show them.
type Traces struct {
	Traces []TraceInfo
}

// Type implements Message.
func (*Traces) Type() Type { return TypeTraces }

// CheckTraceName reports whether name can name a trace on the wire: 1 to
// MaxTraceName lower-case letters, digits and dashes, starting with a
// letter or digit.
func CheckTraceName(name string) error {
	if name == "" || len(name) > MaxTraceName || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || name[0] == '-' {
		return fmt.Errorf("trace name of %d bytes: 1 to %d lower-case letters, digits and dashes: %w", len(name), MaxTraceName, ErrBadValue)
	}
	return nil
}

// checkTraceText reports whether s, a title or a step, is at most max
// bytes of text without control characters.
func checkTraceText(s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%d bytes, more than %d: %w", len(s), max, ErrBadValue)
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return fmt.Errorf("a control character: %w", ErrBadValue)
		}
	}
	return nil
}

func (m *Traces) appendPayload(b []byte) ([]byte, error) {
	if len(m.Traces) > MaxTraces {
		return b, fmt.Errorf("%d traces, more than %d: %w", len(m.Traces), MaxTraces, ErrTooLarge)
	}
	b = append(b, byte(len(m.Traces)))
	var err error
	for _, t := range m.Traces {
		if err := CheckTraceName(t.Name); err != nil {
			return b, err
		}
		if err := checkTraceText(t.Title, MaxTraceTitle); err != nil {
			return b, fmt.Errorf("trace title: %w", err)
		}
		if b, err = appendStr(b, t.Name); err != nil {
			return b, err
		}
		if b, err = appendStr(b, t.Title); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (m *Traces) decodePayload(r *reader) error {
	n := int(r.u8())
	m.Traces = nil
	if r.err == nil && (n > MaxTraces || len(r.b) < 2*n) {
		r.fail(ErrBadValue)
	}
	for i := 0; i < n && r.err == nil; i++ {
		t := TraceInfo{Name: r.str(), Title: r.str()}
		if r.err == nil && (CheckTraceName(t.Name) != nil || checkTraceText(t.Title, MaxTraceTitle) != nil) {
			r.fail(ErrBadValue)
		}
		m.Traces = append(m.Traces, t)
	}
	return r.done()
}

// appendConditionsTrace appends a Conditions' version 6 fields, if it
// names a trace or a step: nothing otherwise, version 5's bytes.
func appendConditionsTrace(b []byte, m *Conditions) ([]byte, error) {
	if m.Trace == "" && m.Step == "" {
		return b, nil
	}
	if m.Trace == "" {
		return b, fmt.Errorf("a step without a trace: %w", ErrBadValue)
	}
	if err := CheckTraceName(m.Trace); err != nil {
		return b, err
	}
	if err := checkTraceText(m.Step, MaxTraceStep); err != nil {
		return b, fmt.Errorf("trace step: %w", err)
	}
	b, err := appendStr(b, m.Trace)
	if err != nil {
		return b, err
	}
	return appendStr(b, m.Step)
}

// decodeConditionsTrace reads a Conditions' version 6 fields, if any
// bytes are left.
func decodeConditionsTrace(r *reader, m *Conditions) {
	m.Trace, m.Step = "", ""
	if r.err != nil || len(r.b) == 0 {
		return
	}
	m.Trace, m.Step = r.str(), r.str()
	if r.err == nil && (CheckTraceName(m.Trace) != nil || checkTraceText(m.Step, MaxTraceStep) != nil) {
		r.fail(ErrBadValue)
	}
}
