package sshd

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"slices"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/front/remote/remotetest"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// startGame runs a real game server on 127.0.0.1:0 at the default update
// rate and returns its address.
func startGame(t testing.TB) string {
	t.Helper()
	_, addr := startGameWith(t, world.Config{Rate: world.DefaultRate})
	return addr
}

// startGameWith runs a real game server of cfg on 127.0.0.1:0 and returns
// it with its address.
func startGameWith(t testing.TB, cfg world.Config) (*server.Server, string) {
	t.Helper()
	return startGameOpts(t, server.Options{Hub: hub.Options{Config: cfg}})
}

// startGameOpts runs a real game server of opts on 127.0.0.1:0 and
// returns it with its address.
func startGameOpts(t testing.TB, opts server.Options) (*server.Server, string) {
	t.Helper()
	return remotetest.Game(t, opts)
}

// startGameSSH runs a game server and an SSH server playing on it.
func startGameSSH(t testing.TB, opts Options) *Server {
	t.Helper()
	opts.GameAddr = startGame(t)
	return startSSH(t, opts)
}

// A player connects with a PTY, sees the board and their cell (10,10),
// presses RIGHT and sees (11,10), confirmed by the server; q ends the
// session at once with status 0.
func TestPlayOverSSH(t *testing.T) {
	s := startGameSSH(t, Options{})
	c := dialSSH(t, s, "ada", newClientKey(t))
	tm := openTerm(t, c, "xterm-256color", 100, 40)
	screen := tm.waitText("you (10,10)", "server (10,10)", "gridlag over ssh")
	t.Logf("first screen:\n%s", screen)

	tm.send("\x1b[C")
	screen = tm.waitText("you (11,10)", "server (11,10)")
	t.Logf("after RIGHT:\n%s", screen)

	tm.quitAtOnce()
}

// Two SSH players share one world with a third client: everyone sees
// everyone, under names that carry no escape sequence or control
// character.
func TestPlayersShareTheWorld(t *testing.T) {
	s := startGameSSH(t, Options{})
	o := observer(t, s.opts.GameAddr)
	ada := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 100, 40)
	ada.waitText("you (", "playing as ada")
	eve := openTerm(t, dialSSH(t, s, "\x1b[31meve\x07", nil), "xterm-256color", 100, 40)
	// Had the escape sequence reached the terminal, it would have been
	// taken as a colour and "[31m" would not show.
	eve.waitText("you (", "playing as [31meve")
	waitOthers(t, o, "[31meve", "ada")
}

// observer joins the game directly and reports the names of the others.
func observer(t *testing.T, addr string) *tcp.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	o, err := tcp.Dial(ctx, addr, tcp.Options{Options: client.Options{Name: "watcher"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

// waitOthers waits until the observer sees exactly the names want.
func waitOthers(t *testing.T, o *tcp.Conn, want ...string) {
	t.Helper()
	deadline := time.After(waitLong)
	var names []string
	for {
		names = names[:0]
		for _, other := range o.View().Others {
			names = append(names, other.Name)
		}
		slices.Sort(names)
		if slices.Equal(names, want) {
			return
		}
		select {
		case <-o.Changed():
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("observer sees %q, want %q", names, want)
		}
	}
}

// A dropped SSH connection removes the player from the game: the others
// get the Leave.
func TestDroppedConnectionLeavesTheGame(t *testing.T) {
	s := startGameSSH(t, Options{})
	o := observer(t, s.opts.GameAddr)
	c := dialSSH(t, s, "ada", nil)
	tm := openTerm(t, c, "xterm-256color", 100, 40)
	tm.waitText("you (")
	waitOthers(t, o, "ada")

	c.Close() // the player's laptop lid shuts: no q, no goodbye
	waitOthers(t, o)
}

// The game server being unreachable is told to the player, with a
// non-zero status.
func TestGameUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := startSSH(t, Options{GameAddr: addr})
	tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 100, 40)
	tm.waitText("gridlag: cannot join the game")
	if status, _ := tm.waitExit(time.Now()); status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
}

// Twenty game sessions that end by q or by a dropped connection leave no
// goroutine behind, in the SSH server or the game server. Each plays
// under its own name: a dropped session's player leaves the game only once
// the SSH server has seen the drop, and the next session may come first.
func TestGameSessionsLeakNoGoroutines(t *testing.T) {
	s := startGameSSH(t, Options{MaxPerAddr: 64})
	baseline := runtime.NumGoroutine()
	for i := range 20 {
		c := dialSSH(t, s, fmt.Sprint("ada", i), nil)
		tm := openTerm(t, c, "xterm-256color", 100, 40)
		tm.waitText("you (")
		if i%2 == 0 {
			tm.send("q")
			if status, _ := tm.waitExit(time.Now()); status != 0 {
				t.Errorf("session %d: exit status %d", i, status)
			}
		}
		c.Close()
	}
	admittest.Settle(t, baseline, nil)
}
