package protocol_test

import (
	"testing"
	"time"

	"gridlag/protocol"
)

// A place in line reads as a person says it, and so does the wait.
func TestLineText(t *testing.T) {
	for _, c := range []struct {
		place uint32
		wait  time.Duration
		want  string
	}{
		{312, 6 * time.Second, "312th in line, about 6 s"},
		{1, 400 * time.Millisecond, "1st in line, any moment now"},
		{2, 1500 * time.Millisecond, "2nd in line, about 2 s"},
		{3, 89 * time.Second, "3rd in line, about 89 s"},
		{11, 2 * time.Minute, "11th in line, about 2 min"},
		{12, 0, "12th in line, any moment now"},
		{13, time.Second, "13th in line, about 1 s"},
		{21, 150 * time.Second, "21st in line, about 3 min"},
		{102, time.Second, "102nd in line, about 1 s"},
		{111, time.Second, "111th in line, about 1 s"},
	} {
		if got := protocol.LineText(c.place, c.wait); got != c.want {
			t.Errorf("LineText(%d, %v) = %q, want %q", c.place, c.wait, got, c.want)
		}
	}
	if got := (&protocol.Queued{Place: 312, Line: 400, WaitMS: 6000}).Text(); got != "312th in line, about 6 s" {
		t.Errorf("Queued.Text() = %q", got)
	}
}

// A Queued must place its client in the line it describes, and an
// Admission has a line of places and a wait, or neither: neither encodes
// otherwise.
func TestLineMessagesRefuseNonsense(t *testing.T) {
	for _, m := range []protocol.Message{
		&protocol.Queued{Place: 0, Line: 3},
		&protocol.Queued{Place: 4, Line: 3},
		&protocol.Admission{PerAddr: 32, LineWaitS: 60},
		&protocol.Admission{PerAddr: 32, LineMax: 100},
	} {
		if _, err := protocol.Marshal(m); err == nil {
			t.Errorf("Marshal(%+v) succeeded", m)
		}
	}
	for _, m := range []protocol.Message{
		&protocol.Queued{Place: 3, Line: 3},
		&protocol.Admission{PerAddr: 32},
		&protocol.Admission{},
	} {
		if _, err := protocol.Marshal(m); err != nil {
			t.Errorf("Marshal(%+v): %v", m, err)
		}
	}
}
