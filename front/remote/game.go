package remote

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/front"
	"gridlag/protocol"
	"gridlag/tui"
)

// Game runs the game for a front end's sessions (SSH, the web) through
// front.Run: each session a full game client of the game server at Addr,
// with its own prediction, ledger, latency and toggles, drawn by the tui
// on the player's screen; or the lobby, or the spectator's screen. It
// keeps the avatars of dropped players for the game server's resume
// window, by identity. Set its fields before the first Play; it is safe for
// concurrent use.
type Game struct {
	// Addr is the game server's TCP address each session's client dials,
	// unless Dial is set.
	Addr string
	// Dial, if set, opens each session's connections to the game server
	// in place of a TCP connection to Addr, for the player from remote,
	// their connection's remote address. A server in the same process
	// passes its own (server.Server.Dial): the player then counts as
	// remote against the game's per-address caps, rather than as the
	// loopback address every session would share.
	Dial func(ctx context.Context, remote net.Addr) (net.Conn, error)
	// DialTeacher opens a teacher's connection to a game server in the
	// same process (server.Server.DialTeacher), for a Player whose front
	// end checked it is a teacher's (Player.Teach); nil: nobody teaches.
	DialTeacher func(ctx context.Context, remote net.Addr) (net.Conn, error)
	// Latency and Jitter are each session's starting injected round trip
	// and jitter; a player changes their own latency with the slider.
	Latency, Jitter time.Duration
	// Title is the top line of the game's screen, e.g. "gridlag over ssh".
	Title string
	// Front names the front end in the log's lines: "ssh", "web".
	Front string
	// Logger receives the log; nil discards it.
	Logger *log.Logger
	// Recordings keeps the games of players who asked to record them
	// (Player.Record); nil: recording is off, and such a session is told
	// so. Fetch tells a player the command that fetches theirs.
	Recordings *Recordings
	Fetch      string
	// JoinCode, if set, says on a teacher's screen how students join
	// with the class's code (tui.Options.JoinCode).
	JoinCode func(code string) []string

	kept keptTokens // identity -> resume token of a dropped session's avatar
}

// sessionLog is p's log: its own, or Game's Logger.
func (g *Game) sessionLog(p *Player) *SessionLog {
	if p.Log != nil {
		return p.Log
	}
	return NewSessionLog(nil, g.Logger, p.User, p.RemoteAddr)
}

// Play runs one session for p (front.Run, p's Mode) until the player
// quits, or until the session ends (the screen's input then fails and the
// tui stops). A player who quits leaves the game (the game server
// announces the Leave). A player with an identity (Player.Fingerprint)
// whose connection dropped keeps the avatar for the game server's resume
// window: the game connection is abandoned without a goodbye, and a new
// session with the same identity within the window comes back as the same
// player, in the room it played in.
func (g *Game) Play(ctx context.Context, p *Player) error {
	if stuckForTests(p) {
		p.Screen.Init()
		select {}
	}
	if p.Teach {
		return g.teach(ctx, p)
	}
	slog := g.sessionLog(p)
	// The log is the server's: its path means nothing to a remote player.
	o := front.Options{
		Addr: g.Addr,
		Client: tcp.Options{
			Options: client.Options{Name: p.User, Color: p.Color, Latency: g.Latency, Jitter: g.Jitter, Code: p.Code},
			Dial:    g.dialFor(p),
			Logger:  slog.Logger(),
		},
		Screen: tui.Options{Title: g.Title, Logger: slog.Logger(), Wire: p.Wire},
		Joined: p.Joined,
		End:    func(s client.Session, room string, err error) error { return g.end(p, s, room, err) },
		Direct: p.Code != "", // the class's room, not the lobby
	}
	if p.Record {
		finish, err := g.startRecording(p, &o.Client)
		if err != nil {
			return err
		}
		defer finish()
		o.Direct = true // one game in one room: no lobby
	}
	if p.Fingerprint != "" && p.Mode.Plays() {
		if tok, room, ok := g.kept.take(p.Fingerprint, time.Now()); ok {
			o.Resume, o.ResumeRoom = tok, room
			slog.Info("", g.Front+" player comes back", "fingerprint", p.Fingerprint, "room", room)
		}
	}
	return front.Run(ctx, p.Screen, p.Mode, o)
}

// startRecording makes opts record p's game; finish ends it and leaves
// p the afterword that says how to fetch it. A player without an
// identity, or a server that keeps no recordings, is told why not.
func (g *Game) startRecording(p *Player, opts *tcp.Options) (finish func(), err error) {
	switch {
	case g.Recordings == nil:
		return nil, errors.New("this server keeps no recordings (its -ssh-records is 0)")
	case p.Fingerprint == "":
		return nil, errors.New("record needs an SSH key: the recording is kept under it, for you alone to fetch")
	}
	done, err := g.Recordings.start(p.Fingerprint, opts, g.Addr)
	if err != nil {
		g.sessionLog(p).Warn("", "cannot record", "err", err)
		return nil, fmt.Errorf("cannot record: %w", err)
	}
	return func() {
		size, end, err := done()
		if err != nil {
			g.sessionLog(p).Warn("", "recording failed", "err", err)
			p.Afterword = "gridlag: the recording failed: " + err.Error()
			return
		}
		g.sessionLog(p).Info("", g.Front+" player recorded", "fingerprint", p.Fingerprint, "bytes", size, "length", end)
		p.Afterword = fmt.Sprintf("gridlag: recorded %.1fs (%d bytes); fetch it with: %s > game.rec; then: gridlag replay game.rec", end.Seconds(), size, g.Fetch)
	}, nil
}

// teach is the session of a teacher (its front end checked it is one):
// the room's board and the panel of its network, over a teacher's
// connection to the game server in this process.
func (g *Game) teach(ctx context.Context, p *Player) error {
	if g.DialTeacher == nil {
		return errors.New("teaching needs the game server in this process")
	}
	logger := g.sessionLog(p).Logger()
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return g.DialTeacher(ctx, p.RemoteAddr) }
	return front.Teach(ctx, p.Screen, p.Mode.Room, front.Options{Addr: g.Addr,
		Client: tcp.Options{Options: client.Options{Name: p.User}, Dial: dial, Logger: logger},
		Screen: tui.Options{Title: g.Title, Logger: logger, JoinCode: g.JoinCode}})
}

// dialFor is how p's client connects to the game server: through Dial,
// standing for p's address, or over TCP to Addr.
func (g *Game) dialFor(p *Player) func(ctx context.Context, addr string) (net.Conn, error) {
	if g.Dial == nil {
		return nil
	}
	return func(ctx context.Context, _ string) (net.Conn, error) { return g.Dial(ctx, p.RemoteAddr) }
}

// resumable is a game session that can be left for a resume: a
// tcp.Conn.
type resumable interface {
	Resumable() (protocol.Token, time.Duration)
	Abandon()
}

// end ends the game session sess of room once the tui returned err: if
// the front end's side failed, not the game, and the player has an
// identity, the avatar is kept for the game server's resume window (the
// session is abandoned without a goodbye); otherwise the session is
// closed.
func (g *Game) end(p *Player, sess client.Session, room string, err error) error {
	if r, ok := sess.(resumable); ok && err != nil && p.Fingerprint != "" && sess.View().Err == nil {
		if tok, window := r.Resumable(); !tok.IsZero() {
			g.kept.keep(p.Fingerprint, tok, room, time.Now(), window)
			r.Abandon()
			g.sessionLog(p).Info("", g.Front+" player dropped, kept for resume", "fingerprint", p.Fingerprint, "room", room, "for", window, "err", err)
			return err
		}
	}
	sess.Close()
	return err
}
