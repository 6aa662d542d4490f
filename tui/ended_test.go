package tui_test

import (
	"strings"
	"testing"

	"gridlag/client"
	"gridlag/client/tcp"
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
