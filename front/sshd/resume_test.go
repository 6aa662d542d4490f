package sshd

import (
	"fmt"
	"testing"
	"time"

	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
)

// waitGame waits until the game server's counters satisfy cond.
func waitGame(t *testing.T, g *server.Server, what string, cond func(world.Stats) bool) {
	t.Helper()
	admittest.Eventually(t, func() bool { return cond(g.Stats()) },
		func() string { return fmt.Sprintf("timed out waiting for %s: %+v", what, g.Stats()) })
}

// A player whose SSH connection drops comes back by their key within the
// game server's window: a new session with the same key has the same
// avatar at the same cell, and its input numbering goes on. A player
// without a key who drops leaves at once.
func TestSSHResumeByKey(t *testing.T) {
	g, addr := startGameWith(t, world.Config{Rate: world.DefaultRate, Resume: 30 * time.Second})
	s := startSSH(t, Options{GameAddr: addr})
	key := newClientKey(t)

	c := dialSSH(t, s, "ada", key)
	tm := openTerm(t, c, "xterm-256color", 100, 40)
	tm.waitText("you (10,10)", "server (10,10)")
	tm.send("\x1b[C")
	tm.waitText("you (11,10)", "server (11,10)")
	tm.send("\x1b[C")
	tm.waitText("you (12,10)", "server (12,10)")
	c.Close() // the laptop lid shuts: no q
	waitGame(t, g, "the avatar to be kept", func(st world.Stats) bool { return st.Away == 1 })

	again := openTerm(t, dialSSH(t, s, "ada", key), "xterm-256color", 100, 40)
	again.waitText("you (12,10)", "server (12,10)", "last ack #2")
	again.send("\x1b[C")
	again.waitText("you (13,10)", "server (13,10)", "last ack #3")
	st := g.Stats()
	if st.Joins != 1 || st.Resumes != 1 || st.Leaves != 0 || st.InputsProcessed != 3 || st.InputsRefused != 0 {
		t.Errorf("game server: %+v; want one join, one resume, no leave, inputs #1 to #3 processed once", st)
	}

	bob := dialSSH(t, s, "bob", nil)
	openTerm(t, bob, "xterm-256color", 100, 40).waitText("playing as bob")
	bob.Close()
	waitGame(t, g, "the keyless player to leave", func(st world.Stats) bool { return st.Leaves == 1 && st.Away == 0 })
	again.quitAtOnce()
}

// A player of a named room whose SSH connection drops comes back to that
// room by their key, even when the new session names no room (the game
// server routes the token to the room that issued it).
func TestSSHResumeByKeyInRoom(t *testing.T) {
	g, addr := startGameWith(t, world.Config{Rate: world.DefaultRate, Resume: 30 * time.Second})
	s := startSSH(t, Options{GameAddr: addr})
	key := newClientKey(t)

	c := dialSSH(t, s, "ada", key)
	tm := openTermRunning(t, c, "xterm-256color", 100, 40, "room kitchen")
	tm.waitText("you (10,10)", "room kitchen")
	tm.send("\x1b[C")
	tm.waitText("you (11,10)", "server (11,10)")
	c.Close()
	waitGame(t, g, "the avatar to be kept", func(st world.Stats) bool { return st.Away == 1 })

	again := openTerm(t, dialSSH(t, s, "ada", key), "xterm-256color", 100, 40)
	again.waitText("room kitchen", "you (11,10)", "server (11,10)", "last ack #1")
	for _, r := range g.Rooms() {
		if want := r.Name == "kitchen"; (r.Stats.Players == 1) != want || (r.Stats.Resumes == 1) != want {
			t.Errorf("room %q: %+v; want ada resumed in kitchen alone", r.Name, r.Stats)
		}
	}
	again.quitAtOnce()
}

// A player who chose their room in the lobby comes back to it by their
// key too: the new session skips the lobby.
func TestSSHResumeByKeyFromTheLobby(t *testing.T) {
	g, addr := startGameWith(t, world.Config{Rate: world.DefaultRate, Resume: 30 * time.Second})
	s := startSSH(t, Options{GameAddr: addr})
	key := newClientKey(t)

	c := dialSSH(t, s, "ada", key)
	tm := openTermRunning(t, c, "xterm-256color", 100, 40, "lobby")
	tm.waitText("— lobby", "> (default)")
	tm.send("n")
	tm.send("attic")
	tm.send("\r")
	tm.waitText("you (10,10)", "room attic")
	tm.send("\x1b[C")
	tm.waitText("you (11,10)", "server (11,10)")
	c.Close()
	waitGame(t, g, "the avatar to be kept", func(st world.Stats) bool { return st.Away == 1 })

	again := openTermRunning(t, dialSSH(t, s, "ada", key), "xterm-256color", 100, 40, "lobby")
	again.waitText("room attic", "you (11,10)", "server (11,10)", "last ack #1")
	if st := g.Stats(); st.Joins != 1 || st.Resumes != 1 || st.Leaves != 0 {
		t.Errorf("game server: %+v; want one join and one resume", st)
	}
	again.quitAtOnce()
}
