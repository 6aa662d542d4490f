package front

import (
	"context"
	"fmt"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/protocol"
	"gridlag/tui"
)

// Options are what Run needs besides the mode: the game server, the
// player's client, the screen's, and what the front end does around the
// session.
type Options struct {
	// Addr is the game server's address, for its log and for Client's
	// Dial (a TCP connection to it without one).
	Addr string
	// Client is the game client's: the player's name and colour, the
	// injected latency, jitter and loss, Dial, the logger. Run sets the
	// room.
	Client tcp.Options
	// Screen is the screen's: its title (Run adds the room's), the log's
	// path, the invite, Stop, the logger.
	Screen tui.Options
	// WatchTitle is the spectator's title ("" for Screen.Title and "—
	// spectating"); Run adds the room's.
	WatchTitle string
	// Resume, if not zero, is a dropped avatar of the player's that Play
	// and Lobby bring back, in ResumeRoom, the room whose server issued
	// the token (whatever room the mode names), without the lobby.
	Resume     protocol.Token
	ResumeRoom string
	// Joined, if set, is told of each game session Run starts (in the
	// room named or chosen in the lobby) and whether it resumes an
	// avatar. It must not block.
	Joined func(s client.Session, resumed bool)
	// End, if set, ends the game session s of room once the screen
	// returned err, and returns what Run returns (remote keeps the avatar
	// of a dropped connection for a resume); else Run closes s.
	End func(s client.Session, room string, err error) error
	// Direct plays in the mode's room without the lobby, whatever rooms
	// the server has (a session that records one game in one room).
	Direct bool
	// Log, if set, gets a line when the session starts: what it runs, on
	// which server, as whom (the local terminal's log; a remote front
	// end logs its sessions itself, summarised).
	Log *log.Logger
}

// Run runs m for one player on screen (bound to their terminal, not yet
// initialised) until they quit or the session ends:
//
//   - Watch: the spectator's screen of m's room;
//   - Lobby, and Play with no room on a server that has rooms besides its
//     default one: the lobby, then the game in the room chosen;
//   - Play: the game in m's room. The screen comes up at once and says it
//     is waiting for the server (a round trip, up to a second at the
//     slider's maximum); q works meanwhile.
//
// A refusal by the game server shows on the screen, then Run returns its
// error; a player who quits makes Run return nil.
func Run(ctx context.Context, screen tcell.Screen, m Mode, o Options) error {
	if m.Kind == Watch {
		return watch(ctx, screen, m, o)
	}
	copts, sopts, room := o.Client, o.Screen, m.Room
	copts.Room = m.Room
	copts.Dial = CountGame(sopts.Wire, copts.Dial)
	resuming := !o.Resume.IsZero()
	if resuming {
		// The game server routes the token to the room that issued it.
		copts.Resume, room = o.Resume, o.ResumeRoom
	}
	sopts.Title += tui.RoomTitle(room)
	lobby := tcp.Lobby{Ctx: ctx, Addr: o.Addr, Options: copts}
	if !resuming && !o.Direct && (m.Kind == Lobby || m.Room == "" && lobby.HasRooms()) {
		o.logStart("lobby", room)
		sess, joined, err := tui.RunLobbySession(screen, tcp.NewAsyncLobby(joinedLobby{lobby, o.Joined}), sopts)
		if sess == nil {
			return err
		}
		return o.end(sess, joined, err)
	}
	conn, err := tcp.Connect(ctx, o.Addr, copts)
	if err != nil {
		return fmt.Errorf("cannot join the game: %w", err)
	}
	if o.Joined != nil {
		o.Joined(conn, resuming)
	}
	o.logStart("playing", room)
	err = tui.Run(screen, conn, sopts)
	return o.end(conn, room, err)
}

// watch runs the spectator's screen of m's room. It takes no player slot;
// the game server caps spectators on their own.
func watch(ctx context.Context, screen tcell.Screen, m Mode, o Options) error {
	copts, sopts := o.Client, o.Screen
	copts.Room = m.Room
	sopts.Title = o.WatchTitle
	if sopts.Title == "" {
		sopts.Title = o.Screen.Title + " — spectating"
	}
	sopts.Title += tui.RoomTitle(m.Room)
	w, err := tcp.ConnectSpectator(ctx, o.Addr, copts)
	if err != nil {
		return fmt.Errorf("cannot watch the game: %w", err)
	}
	defer w.Close()
	o.logStart("spectating", m.Room)
	return tui.RunSpectate(screen, w, sopts)
}

// Teach runs the teacher's screen of room on screen: the room's board
// and the panel of its network, until the teacher quits or the screen's
// Stop. A game server takes a teacher's Teach only from a connection it
// knows to be a teacher's: o.Client.Dial is the server's DialTeacher.
func Teach(ctx context.Context, screen tcell.Screen, room string, o Options) error {
	copts, sopts := o.Client, o.Screen
	copts.Room, copts.Teach = room, true
	sopts.Title += " — teaching" + tui.RoomTitle(room)
	w, err := tcp.ConnectSpectator(ctx, o.Addr, copts)
	if err != nil {
		return fmt.Errorf("cannot teach: %w", err)
	}
	defer w.Close()
	o.logStart("teaching", room)
	return tui.RunTeach(screen, w, sopts)
}

// end ends the game session s of room once the screen returned err.
func (o Options) end(s client.Session, room string, err error) error {
	if o.End != nil {
		return o.End(s, room, err)
	}
	s.Close()
	return err
}

// logStart logs the session's start, if Options.Log is set.
func (o Options) logStart(what, room string) {
	if o.Log == nil {
		return
	}
	c := o.Client
	o.Log.Info(what, "server", o.Addr, "room", room, "name", c.Name, "latency", c.Latency, "jitter", c.Jitter, "loss", c.Loss)
}

// joinedLobby is the lobby of a game server, which tells Options.Joined
// of the session of the room the player joins.
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
