package sshd

import (
	"context"
	"fmt"
	"time"

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
// the tui stops). A player who quits leaves the game (the game server
// announces the Leave). A player with a key whose SSH connection dropped
// keeps the avatar for the game server's resume window: the game
// connection is abandoned without a goodbye, and a new session with the
// same key within the window comes back as the same player.
func (s *Server) playGame(ctx context.Context, p *Player) error {
	if p.Spectate {
		return s.watchGame(ctx, p)
	}
	opts := client.Options{
		Name:    p.User,
		Color:   p.Color,
		Latency: s.opts.Latency,
		Jitter:  s.opts.Jitter,
		Logger:  s.log.With("user", p.User, "remote", p.RemoteAddr.String()),
	}
	if p.Fingerprint != "" {
		if tok, ok := s.kept.take(p.Fingerprint, time.Now()); ok {
			opts.Resume = tok
			s.log.Info("ssh player comes back", "user", p.User, "fingerprint", p.Fingerprint, "remote", p.RemoteAddr.String())
		}
	}
	conn, err := client.Connect(ctx, s.opts.GameAddr, opts)
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	// The log is the server's: its path means nothing to a remote player.
	// A refusal by the game server shows on the screen, then ends the
	// session with its error.
	err = tui.Run(p.Screen, conn, tui.Options{Title: Title, Logger: s.log.With("user", p.User)})
	if err != nil && p.Fingerprint != "" && conn.View().Err == nil {
		if tok, window := conn.Resumable(); !tok.IsZero() {
			// The SSH side failed, not the game: keep the avatar.
			s.kept.keep(p.Fingerprint, tok, time.Now(), window)
			conn.Abandon()
			s.log.Info("ssh player dropped, kept for resume", "user", p.User, "fingerprint", p.Fingerprint, "for", window, "err", err)
			return err
		}
	}
	conn.Close()
	return err
}
