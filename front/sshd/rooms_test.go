package sshd

import (
	"testing"
)

// `ssh host spectate kitchen` watches room kitchen: the spectator sees
// ada, who plays there (`ssh host room kitchen`), and not bob, who chose
// the default room in the lobby.
func TestSpectateARoomOverSSH(t *testing.T) {
	s := startGameSSH(t, Options{})
	ada := openTermRunning(t, dialSSH(t, s, "ada", nil), "xterm-256color", 100, 40, "room kitchen")
	ada.waitText("you (10,10)", "room kitchen")
	bob := openTerm(t, dialSSH(t, s, "bob", nil), "xterm-256color", 100, 40)
	bob.waitText("— lobby", "> (default)") // the server has rooms: bob is asked
	bob.send("\r")
	bob.waitText("you (10,10)", "playing as bob")
	watcher := openTermRunning(t, dialSSH(t, s, "teacher", nil), "xterm-256color", 100, 40, "spectate kitchen")
	screen := watcher.waitText("spectating — room kitchen", "ada (10,10) ack #0", "1 players")
	if containsAll(screen, []string{"bob"}) {
		t.Errorf("the spectator of kitchen sees bob of the default room:\n%s", screen)
	}
	ada.send("\x1b[C")
	watcher.waitText("ada (11,10) ack #1")
	ada.quitAtOnce()
	bob.quitAtOnce()
}
