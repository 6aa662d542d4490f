package client

import (
	"errors"
	"testing"

	"gridlag/protocol"
)

// TestSpectatorLivesThroughADrain: a spectator shows the drain's notice as
// a player does, printable, and keeps watching; the server's goodbye at
// its stop ends the watch with ErrServerStopped, a normal end.
func TestSpectatorLivesThroughADrain(t *testing.T) {
	s := watching(t)
	for _, text := range []string{"server stopping in 6 s", "server stopping in 5 s\x1b[2J"} {
		if err := s.Receive(20*ms, &protocol.Notice{Text: text}); err != nil {
			t.Fatalf("a Notice: %v", err)
		}
	}
	if v := s.View(30 * ms); v.Notice != "server stopping in 5 s[2J" || !v.Connected || v.Err != nil {
		t.Fatalf("after the notices: notice %q, connected %v, err %v; want the last notice, printable, still watching", v.Notice, v.Connected, v.Err)
	}
	s.Receive(40*ms, &protocol.Bye{Reason: protocol.ByeShutdown})
	if v := s.View(50 * ms); !errors.Is(v.Err, ErrServerStopped) || v.Err.Error() != "server stopped" {
		t.Errorf("after the shutdown Bye: err %v, want ErrServerStopped", v.Err)
	}
}

// TestServerStopEndsAPlayerPlainly: a player's session ends with
// ErrServerStopped at the shutdown Bye; a refusal while the server stops
// is ErrServerStopped too, in the server's words (and still the
// protocol's Error); other goodbyes and refusals are not.
func TestServerStopEndsAPlayerPlainly(t *testing.T) {
	c := playing(t, Options{})
	c.Receive(0, &protocol.Bye{Reason: protocol.ByeShutdown})
	if err := c.View(0).Err; !errors.Is(err, ErrServerStopped) {
		t.Errorf("after the shutdown Bye: %v, want ErrServerStopped", err)
	}

	c = NewCore(0, Options{Name: "ada"})
	c.Receive(0, &protocol.Error{Code: protocol.ErrCodeShutdown, Text: "server stopping in 4 s"})
	err := c.View(0).Err
	var pe *protocol.Error
	if !errors.Is(err, ErrServerStopped) || err.Error() != "server stopping in 4 s" || !errors.As(err, &pe) {
		t.Errorf("refused while the server stops: %v, want ErrServerStopped saying the server's sentence", err)
	}

	for _, m := range []protocol.Message{
		&protocol.Bye{Reason: "resumed on another connection"},
		&protocol.Error{Code: protocol.ErrCodeFull, Text: "server busy"},
	} {
		c := playing(t, Options{})
		c.Receive(0, m)
		if err := c.View(0).Err; err == nil || errors.Is(err, ErrServerStopped) {
			t.Errorf("after %#v: %v, want an error that is not a normal stop", m, err)
		}
	}
}
