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
	conn, err := client.Connect(ctx, s.opts.GameAddr, client.Options{
		Name:    p.User,
		Color:   p.Color,
		Latency: s.opts.Latency,
		Jitter:  s.opts.Jitter,
		Logger:  s.log.With("user", p.User, "remote", p.RemoteAddr.String()),
	})
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	defer conn.Close()
	// The log is the server's: its path means nothing to a remote player.
	// A refusal by the game server shows on the screen, then ends the
	// session with its error.
	return tui.Run(p.Screen, conn, tui.Options{Title: Title, Logger: s.log.With("user", p.User)})
}
