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
		Room:    p.Room,
		Latency: s.opts.Latency,
		Jitter:  s.opts.Jitter,
		Logger:  s.log.With("user", p.User, "remote", p.RemoteAddr.String()),
	}
	room, resuming := p.Room, false
	if p.Fingerprint != "" {
		if tok, kept, ok := s.kept.take(p.Fingerprint, time.Now()); ok {
			// The game server routes the token to the room that issued
			// it, whatever room this session named.
			opts.Resume, room, resuming = tok, kept, true
			s.log.Info("ssh player comes back", "user", p.User, "fingerprint", p.Fingerprint, "room", room, "remote", p.RemoteAddr.String())
		}
	}
	// The log is the server's: its path means nothing to a remote player.
	// A refusal by the game server shows on the screen, then ends the
	// session with its error.
	topts := tui.Options{Title: Title + tui.RoomTitle(room), Logger: s.log.With("user", p.User)}
	if !resuming && (p.Lobby || p.Room == "" && client.HasRooms(ctx, s.opts.GameAddr)) {
		return tui.RunLobby(p.Screen, client.Lobby{Ctx: ctx, Addr: s.opts.GameAddr, Options: opts}, topts)
	}
	conn, err := client.Connect(ctx, s.opts.GameAddr, opts)
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	err = tui.Run(p.Screen, conn, topts)
	if err != nil && p.Fingerprint != "" && conn.View().Err == nil {
		if tok, window := conn.Resumable(); !tok.IsZero() {
			// The SSH side failed, not the game: keep the avatar.
			s.kept.keep(p.Fingerprint, tok, room, time.Now(), window)
			conn.Abandon()
			s.log.Info("ssh player dropped, kept for resume", "user", p.User, "fingerprint", p.Fingerprint, "room", room, "for", window, "err", err)
			return err
		}
	}
	conn.Close()
	return err
}
