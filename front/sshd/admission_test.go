package sshd

import (
	"strings"
	"testing"
)

// Sessions keep their last places for addresses holding few: two
// addresses that took most of them cannot take the rest, and a player
// from a third address still gets in and plays.
func TestSessionReserve(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxSessions: 8, MaxPerAddr: 4}) // reserve 2
	for _, local := range []string{"127.0.0.2", "127.0.0.3"} {
		for i := range 3 {
			playFrom(t, s, local, "mob"+string(rune('a'+i)))
		}
	}
	tm := playFromTerm(t, s, "127.0.0.2", "mobd")
	screen := tm.waitText("gridlag: server nearly full")
	if !strings.Contains(screen, "yours has 3") {
		t.Errorf("refusal does not say how many the address holds:\n%s", screen)
	}
	if status, _ := tm.waitExit(tm.start); status != 1 {
		t.Errorf("refused session exit status %d, want 1", status)
	}
	ada := playFrom(t, s, "127.0.0.4", "ada")
	ada.send("x")
	ada.waitText("keys [x]")
	if n := s.Stats().Refused[KindSessionReserved]; n != 1 {
		t.Errorf("%d reserve refusals counted, want 1", n)
	}
}
