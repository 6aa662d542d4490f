package sshd

import (
	"testing"
	"time"
)

// `ssh -t host spectate` watches the game: the spectator sees a player
// who plays over SSH, `ada (x,y) ack #N`, move when ada moves, and has no
// avatar; q ends the session with status 0. Other commands stay refused.
func TestSpectateOverSSH(t *testing.T) {
	s := startGameSSH(t, Options{})
	player := openTerm(t, dialSSH(t, s, "ada", newClientKey(t)), "xterm-256color", 100, 40)
	player.waitText("you (10,10)")
	watcher := openTermRunning(t, dialSSH(t, s, "teacher", nil), "xterm-256color", 100, 40, SpectateCommand)
	watcher.waitText("spectating", "ada (10,10) ack #0", "1 players")

	player.send("\x1b[C")
	watcher.waitText("ada (11,10) ack #1")

	watcher.send("q")
	if status, _ := watcher.waitExit(time.Now()); status != 0 {
		t.Errorf("the spectator quit with status %d, want 0", status)
	}
	assertExit(t, runSession(t, dialSSH(t, s, "bob", nil), true, "spectate now"), 1)
	player.quitAtOnce()
}
