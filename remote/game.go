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
	"gridlag/protocol"
	"gridlag/tui"
)

// Game runs the game for a front end's sessions (SSH, the web): each
// session a full game client of the game server at Addr, with its own
// prediction, ledger, latency and toggles, drawn by the tui on the
// player's screen; or the lobby, or the spectator's screen. It keeps the
// avatars of dropped players for the game server's resume window, by
// identity. Set its fields before the first Play; it is safe for
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

	kept keptTokens // identity -> resume token of a dropped session's avatar
}

// sessionLog is p's log: its own, or Game's Logger.
func (g *Game) sessionLog(p *Player) *SessionLog {
	if p.Log != nil {
		return p.Log
	}
	return NewSessionLog(nil, g.Logger, p.User, p.RemoteAddr)
}

// Play runs one session for p until the player quits, or until the
// session ends (the screen's input then fails and the tui stops): the
// game, in the lobby if p asked for it or if p named no room and the game
// server has rooms besides its default one; or the spectator's screen, for
// a session that asked to watch. A player who quits leaves the game (the
// game server announces the Leave). A player with an identity
// (Player.Fingerprint) whose connection dropped keeps the avatar for the
// game server's resume window: the game connection is abandoned without a
// goodbye, and a new session with the same identity within the window
// comes back as the same player.
func (g *Game) Play(ctx context.Context, p *Player) error {
	if p.Teach {
		return g.teach(ctx, p)
	}
	if p.Spectate {
		return g.watch(ctx, p)
	}
	slog := g.sessionLog(p)
	opts := tcp.Options{
		Options: client.Options{
			Name:    p.User,
			Color:   p.Color,
			Room:    p.Room,
			Latency: g.Latency,
			Jitter:  g.Jitter,
		},
		Dial:   g.dialFor(p),
		Logger: slog.Logger(),
	}
	if p.Record {
		finish, err := g.startRecording(p, &opts)
		if err != nil {
			return err
		}
		defer finish()
	}
	room, resuming := p.Room, false
	if p.Fingerprint != "" {
		if tok, kept, ok := g.kept.take(p.Fingerprint, time.Now()); ok {
			// The game server routes the token to the room that issued
			// it, whatever room this session named.
			opts.Resume, room, resuming = tok, kept, true
			slog.Info("", g.Front+" player comes back", "fingerprint", p.Fingerprint, "room", room)
		}
	}
	// The log is the server's: its path means nothing to a remote player.
	// A refusal by the game server shows on the screen, then ends the
	// session with its error.
	topts := tui.Options{Title: g.Title + tui.RoomTitle(room), Logger: slog.Logger()}
	lobby := tcp.Lobby{Ctx: ctx, Addr: g.Addr, Options: opts}
	if !resuming && !p.Record && (p.Lobby || p.Room == "" && lobby.HasRooms()) {
		sess, joined, err := tui.RunLobbySession(p.Screen, tcp.NewAsyncLobby(joinedLobby{lobby, p.Joined}), topts)
		if sess == nil {
			return err
		}
		return g.end(p, sess, joined, err)
	}
	conn, err := tcp.Connect(ctx, g.Addr, opts)
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	if p.Joined != nil {
		p.Joined(conn, resuming)
	}
	err = tui.Run(p.Screen, conn, topts)
	return g.end(p, conn, room, err)
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

// joinedLobby is the lobby of a game server, which tells Player.Joined of
// the session of the room the player joins.
type joinedLobby struct {
	tcp.Lobby
	joined func(s client.Session, resumed bool)
}

func (l joinedLobby) Join(room string) (client.Session, error) {
	s, err := l.Lobby.Join(room)
	if err == nil && l.joined != nil {
		l.joined(s, false)
	}
	return s, err
}

// watch is the session of a player who asked to watch: a spectator of the
// game server, drawn by the tui's spectator screen. It takes no player
// slot; the game server caps spectators on their own.
func (g *Game) watch(ctx context.Context, p *Player) error {
	logger := g.sessionLog(p).Logger()
	w, err := tcp.ConnectSpectator(ctx, g.Addr, tcp.Options{Options: client.Options{Name: p.User, Room: p.Room}, Dial: g.dialFor(p), Logger: logger})
	if err != nil {
		return fmt.Errorf("cannot watch the game: %w", err)
	}
	defer w.Close()
	return tui.RunSpectate(p.Screen, w, tui.Options{Title: g.Title + " — spectating" + tui.RoomTitle(p.Room), Logger: logger})
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
	w, err := tcp.ConnectSpectator(ctx, g.Addr, tcp.Options{Options: client.Options{Name: p.User, Room: p.Room, Teach: true}, Dial: dial, Logger: logger})
	if err != nil {
		return fmt.Errorf("cannot teach: %w", err)
	}
	defer w.Close()
	return tui.RunTeach(p.Screen, w, tui.Options{Title: g.Title + " — teaching" + tui.RoomTitle(p.Room), Logger: logger})
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
