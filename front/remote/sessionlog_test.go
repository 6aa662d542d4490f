package remote

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/internal/ratelog"
)

// A session's lines are summarised per address, message and kind: forty
// sessions from one address are a line and a count, a session from
// another address still gets its own line, and so does another kind of
// end from the first address.
func TestSessionLogSummarisedByAddress(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(&buf)
	now := time.Unix(1000, 0)
	sum := ratelog.New(l, 10*time.Second, func() time.Time { return now })
	class := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 40000}
	for i := range 40 {
		class.Port++
		s := NewSessionLog(sum, l, "student", class)
		s.Info("", "session start", "n", i)
		s.Info("quit", "session end", "reason", "quit")
	}
	NewSessionLog(sum, l, "student", class).Info("connection closed", "session end", "reason", "connection closed")
	NewSessionLog(sum, l, "ada", &net.TCPAddr{IP: net.ParseIP("198.51.100.1"), Port: 1}).Info("", "session start")
	// Another port of the same IPv6 /64 is the same address.
	for _, ip := range []string{"2001:db8::1", "2001:db8::2"} {
		NewSessionLog(sum, l, "eve", &net.TCPAddr{IP: net.ParseIP(ip), Port: 1}).Warn("idle", "ending session")
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5 (a start and a quit from the class, its other end, ada's start, eve's end):\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], "session start") || !strings.Contains(lines[0], "user=student") || !strings.Contains(lines[0], "remote=192.0.2.7:40001") {
		t.Errorf("the first line does not name the session: %s", lines[0])
	}
	buf.Reset()
	now = now.Add(10 * time.Second)
	sum.Flush()
	got := buf.String()
	for _, want := range []string{"session start (repeated) more=39", "session end (repeated) more=39", "ending session (repeated) more=1"} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary has no %q:\n%s", want, got)
		}
	}
}

// Without a summarised log every line is written; the game client's and
// the interface's logger keeps to errors unless the front end logs at
// debug level; the zero log discards.
func TestSessionLogLoggers(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(&buf)
	s := NewSessionLog(nil, l, "ada", &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 1})
	s.Info("", "session start")
	s.Info("", "session start")
	if n := strings.Count(buf.String(), "session start user=ada remote=192.0.2.7:1"); n != 2 {
		t.Errorf("%d lines unsummarised, want 2:\n%s", n, buf.String())
	}
	buf.Reset()
	s.Logger().Warn("disconnected")
	s.Logger().Error("boom")
	if got := buf.String(); strings.Contains(got, "disconnected") || !strings.Contains(got, "boom user=ada") {
		t.Errorf("the client's logger at info level: %q, want the error alone", got)
	}
	buf.Reset()
	l.SetLevel(log.DebugLevel)
	s.Logger().Debug("correction")
	if !strings.Contains(buf.String(), "correction user=ada") {
		t.Errorf("the client's logger at debug level: %q", buf.String())
	}
	var zero *SessionLog
	zero.Info("", "x")
	zero.Error("y")
	zero.Logger().Error("z")
}
