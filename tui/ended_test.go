package tui_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// foreign is a long reason for a connection's end, as a player who
// pointed the game at an SSH port gets it.
var foreign = &tcp.ForeignServerError{Addr: "127.0.0.1:2222", Heard: "SSH-2.0-gridlag", SSH: true}

// joined returns the screen's rows trimmed and joined by spaces, so that
// a sentence wrapped over lines reads as one.
func joined(text string) string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		words = append(words, strings.Fields(line)...)
	}
	return strings.Join(words, " ")
}

// TestEndedSentenceFitsAt80x24: why a session ended is a whole sentence
// at 80x24, wrapped, for a player (before any map came, its board is
// narrow) and for a spectator, whose title has no room for it.
func TestEndedSentenceFitsAt80x24(t *testing.T) {
	s := newStubSession(client.View{Name: "ada", Err: foreign, Predict: true, Reconcile: true, Interpolate: true})
	close(s.done)
	r := newSessionRig(t, s, 80, 24)
	r.ui.Frame()
	if want := "session ended: " + foreign.Error() + " press any key to leave"; !strings.Contains(joined(r.text()), want) {
		t.Errorf("the player's screen lacks %q:\n%s", want, r.text())
	}

	w := newSpectateRig(t, 80, 24)
	w.watch.view.Err, w.watch.view.Connected = foreign, false
	close(w.watch.done)
	w.s.Frame()
	if want := "watch ended: " + foreign.Error() + " press any key to leave"; !strings.Contains(joined(w.text()), want) {
		t.Errorf("the spectator's screen lacks %q:\n%s", want, w.text())
	}
}

// stoppedClock never moves: a grace waited on it never ends.
type stoppedClock struct{}

func (stoppedClock) Now() time.Time                       { return time.Unix(0, 0) }
func (stoppedClock) After(time.Duration) <-chan time.Time { return nil }

// TestRefusalLeavesAtOnce: a player or a spectator the server refuses
// in the handshake (here the room is full) is not shown an empty board
// for the end's grace: Run returns the refusal at once, for the front
// end to say (on a clock that never moves, a grace would never end).
func TestRefusalLeavesAtOnce(t *testing.T) {
	w := sim.New(world.Config{Rate: 20, MaxPlayers: 1})
	w.Join("ada", client.Options{})
	bob := w.Join("bob", client.Options{})
	w.Advance(100 * time.Millisecond)
	run := func(what string, f func(scr tcell.Screen) error) error {
		t.Helper()
		scr := tcell.NewSimulationScreen("UTF-8")
		scr.SetSize(80, 24)
		done := make(chan error, 1)
		go func() { done <- f(scr) }()
		select {
		case err := <-done:
			return err
		case <-time.After(time.Minute): // a hang guard
			t.Fatalf("%s: Run still shows the refusal after a minute", what)
			return nil
		}
	}
	err := run("the player", func(scr tcell.Screen) error { return tui.Run(scr, bob, tui.Options{Clock: stoppedClock{}}) })
	if err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("the refused player's Run returned %v, want the refusal", err)
	}

	fw := &fakeWatch{changed: make(chan struct{}, 1), done: make(chan struct{}), view: client.WorldView{Err: errors.New("spectators full: 4 of 4")}}
	close(fw.done)
	err = run("the spectator", func(scr tcell.Screen) error { return tui.RunSpectate(scr, fw, tui.Options{Clock: stoppedClock{}}) })
	if err == nil || err.Error() != "spectators full: 4 of 4" {
		t.Errorf("the refused spectator's RunSpectate returned %v, want the refusal", err)
	}
}
