package sshd

import (
	"context"
	"fmt"

	"gridlag/client"
	"gridlag/tui"
)

// Title is the top line of the game's screen over SSH.
const Title = "gridlag over ssh"

// playGame is the default session handler: a full game client of the game
// server at Options.GameAddr (or the spectator's screen, for a session
// that asked to watch), with its own prediction, ledger, latency and
// toggles, drawn by the tui on the player's screen. It returns when the
// player quits, or when the session ends (the screen's input then fails and
// the tui stops); closing the client makes the game server announce the
// player's Leave.
func (s *Server) playGame(ctx context.Context, p *Player) error {
	if p.Spectate {
		return s.watchGame(ctx, p)
	}
	opts := client.Options{
		Name:    p.User,
		Color:   p.Color,
		Room:    p.Room,
		Latency: s.opts.Latency,
		Jitter:  s.opts.Jitter,
		Logger:  s.log.With("user", p.User, "remote", p.RemoteAddr.String()),
	}
	// The log is the server's: its path means nothing to a remote player.
	// A refusal by the game server shows on the screen, then ends the
	// session with its error.
	topts := tui.Options{Title: Title + tui.RoomTitle(p.Room), Logger: s.log.With("user", p.User)}
	if p.Lobby || p.Room == "" && client.HasRooms(ctx, s.opts.GameAddr) {
		return tui.RunLobby(p.Screen, client.Lobby{Ctx: ctx, Addr: s.opts.GameAddr, Options: opts}, topts)
	}
	conn, err := client.Connect(ctx, s.opts.GameAddr, opts)
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	defer conn.Close()
	return tui.Run(p.Screen, conn, topts)
}
