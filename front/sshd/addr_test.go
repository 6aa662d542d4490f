package sshd

import (
	"context"
	"net"
	"testing"
	"time"

	"gridlag/client/bot"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// startGameInProcess runs a game server of opts and an SSH front end that
// connects its players through the game server itself (server.Dial), as
// cmd/gridlag wires them, and returns both.
func startGameInProcess(t *testing.T, opts server.Options) (*server.Server, *Server) {
	t.Helper()
	g, addr := startGameOpts(t, opts)
	return g, startSSH(t, Options{GameAddr: addr, Dial: g.Dial})
}

// SSH players count against the game's per-address caps as the address
// of their SSH connection, each their own, and the server's own bots count
// against none: with two players allowed per address, three bots join,
// two SSH players from 127.0.0.2 play and a third from there is refused
// saying why, while players from 127.0.0.3 and from 127.0.0.1 (where the
// bots and every SSH player used to count, and where a direct player
// already plays) join.
func TestSSHPlayersCountAsTheirOwnAddress(t *testing.T) {
	g, s := startGameInProcess(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: world.DefaultRate}, MaxPlayersPerAddr: 2}})
	o := observer(t, s.opts.GameAddr) // one player from 127.0.0.1, over TCP
	ctx, cancel := context.WithCancel(context.Background())
	stopBots := bot.Start(ctx, bot.Options{Addr: s.opts.GameAddr, N: 3, Seed: 1,
		Dial: func(ctx context.Context, _ string) (net.Conn, error) { return g.Dial(ctx, server.Own) }})
	t.Cleanup(func() { cancel(); stopBots() })
	waitOthers(t, o, "bot-1", "bot-2", "bot-3")

	for _, name := range []string{"ada", "bob"} {
		openTerm(t, dialSSHFrom(t, s, name, "127.0.0.2"), "xterm-256color", 100, 40).waitText("you (", "playing as "+name)
	}
	cy := openTerm(t, dialSSHFrom(t, s, "cy", "127.0.0.2"), "xterm-256color", 100, 40)
	cy.waitText("too many players from your address: 2 joined")
	if status, _ := cy.waitExit(time.Now()); status != 1 {
		t.Errorf("the refused player's exit status %d, want 1", status)
	}
	openTerm(t, dialSSHFrom(t, s, "dee", "127.0.0.3"), "xterm-256color", 100, 40).waitText("you (", "playing as dee")
	openTerm(t, dialSSHFrom(t, s, "eve", "127.0.0.1"), "xterm-256color", 100, 40).waitText("you (", "playing as eve")
	waitOthers(t, o, "ada", "bob", "bot-1", "bot-2", "bot-3", "dee", "eve")
}
