package sshd

import (
	"context"
	"fmt"
	"net"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/protocol"
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
	opts := tcp.Options{
		Options: client.Options{
			Name:    p.User,
			Color:   p.Color,
			Room:    p.Room,
			Latency: s.opts.Latency,
			Jitter:  s.opts.Jitter,
		},
		Dial:   s.dialFor(p),
		Logger: s.log.With("user", p.User, "remote", p.RemoteAddr.String()),
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
	lobby := tcp.Lobby{Ctx: ctx, Addr: s.opts.GameAddr, Options: opts}
	if !resuming && (p.Lobby || p.Room == "" && lobby.HasRooms()) {
		sess, joined, err := tui.RunLobbySession(p.Screen, lobby, topts)
		if sess == nil {
			return err
		}
		return s.endGame(p, sess, joined, err)
	}
	conn, err := tcp.Connect(ctx, s.opts.GameAddr, opts)
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	err = tui.Run(p.Screen, conn, topts)
	return s.endGame(p, conn, room, err)
}

// dialFor is how p's client connects to the game server: through
// Options.Dial, standing for p's address, or over TCP to GameAddr.
func (s *Server) dialFor(p *Player) func(ctx context.Context, addr string) (net.Conn, error) {
	if s.opts.Dial == nil {
		return nil
	}
	return func(ctx context.Context, _ string) (net.Conn, error) { return s.opts.Dial(ctx, p.RemoteAddr) }
}

// resumable is a game session that can be left for a resume: a
// tcp.Conn.
type resumable interface {
	Resumable() (protocol.Token, time.Duration)
	Abandon()
}

// endGame ends the game session sess of room once the tui returned err:
// if the SSH side failed, not the game, and the player has a key, the
// avatar is kept for the game server's resume window (the session is
// abandoned without a goodbye); otherwise the session is closed.
func (s *Server) endGame(p *Player, sess client.Session, room string, err error) error {
	if r, ok := sess.(resumable); ok && err != nil && p.Fingerprint != "" && sess.View().Err == nil {
		if tok, window := r.Resumable(); !tok.IsZero() {
			s.kept.keep(p.Fingerprint, tok, room, time.Now(), window)
			r.Abandon()
			s.log.Info("ssh player dropped, kept for resume", "user", p.User, "fingerprint", p.Fingerprint, "room", room, "for", window, "err", err)
			return err
		}
	}
	sess.Close()
	return err
}
