package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/protocol"
)

// LobbyRefresh is how often the lobby asks the server for its rooms again
// while it is shown.
const LobbyRefresh = 2 * time.Second

// LobbyModel is what the lobby screen needs from a server: the list of
// its rooms, and a way into one. Its calls take a round trip, which the
// model makes on its own side (tcp.AsyncLobby makes them on goroutines of
// its own): AskRooms and Join return at once, and an answer waits in the
// model, Changed saying so, until the screen takes it on its loop. The
// screen asks one of each at a time. tui starts no goroutine for it.
type LobbyModel interface {
	// AskRooms asks the server for the rooms it hosts.
	AskRooms()
	// TakeRooms returns the answer to AskRooms once it came, once: the
	// rooms, or why there are none. ok is false while none waits.
	TakeRooms() (rooms *protocol.Rooms, err error, ok bool)
	// Join asks to connect to room ("" for the default room) as a
	// player, without waiting for the Welcome (tcp.Connect).
	Join(room string)
	// TakeJoin returns the answer to Join once it came, once: the
	// session of the room, the screen's from then on, or why there is
	// none. ok is false while none waits.
	TakeJoin() (s client.Session, err error, ok bool)
	// Changed receives when an answer waits.
	Changed() <-chan struct{}
	// Close ends the lobby: a session that came and was not taken, or
	// that comes later, is closed.
	Close()
}

// LobbyScreen is the lobby: the rooms of a server (name, players and
// cap, round and time left), the arrow keys to choose one, Enter to join
// it, n to name a new one. Once a room is joined, the game's screen takes
// the terminal over (see handoff). It belongs to one goroutine: the loop
// of RunLobby, or a test calling HandleKey and Frame in turn.
type LobbyScreen struct {
	screenBase
	screen tcell.Screen
	model  LobbyModel

	fetching bool // AskRooms was called and its answer not taken
	joining  bool // Join was called and its answer not taken

	list     *protocol.Rooms
	listedAt time.Time // when the last answer to AskRooms was taken
	sel      int       // the chosen row: a room, or len(rooms) for "new room"
	name     []rune    // the new room's name so far, while it is typed (the state lobbyNaming)
	status   string    // the last error or what is under way

	session client.Session // the room joined, once Join answered
	room    string         // its name
	game    *UI            // its screen, once handed off
}

// NewLobbyScreen returns the lobby of model drawn on screen, which must
// already be initialised, and asks for the rooms.
func NewLobbyScreen(screen tcell.Screen, model LobbyModel, opts Options) *LobbyScreen {
	s := &LobbyScreen{screen: screen, model: model}
	s.screenBase = newBase(s, screen, opts, lobbyKeyTable, "gridlag lobby: keys", false)
	s.fetch()
	return s
}

// RunLobby runs the lobby of model on screen, which must not be
// initialised yet, then the game in the room the user joins (titled
// Options.Title and the room's name), until they quit, Options.Stop is
// closed or the game's session ends (as Run). It closes the model, and so
// a session that comes after the user quit, and the session it joined.
func RunLobby(screen tcell.Screen, model LobbyModel, opts Options) error {
	sess, _, err := RunLobbySession(screen, model, opts)
	if sess != nil {
		sess.Close()
	}
	return err
}

// RunLobbySession is RunLobby, but hands the session of the room the user
// joined, and its name, to the caller, who must close it (or, with a
// tcp.Conn, abandon it to keep the avatar for a resume); it is nil if
// no room was joined. It closes the model, and so a session that comes
// after the user quit.
func RunLobbySession(screen tcell.Screen, model LobbyModel, opts Options) (client.Session, string, error) {
	var s *LobbyScreen
	over, err := runApp(screen, opts, func() app {
		s = NewLobbyScreen(screen, model, opts)
		return s
	})
	model.Close()
	if s == nil || s.session == nil {
		return nil, "", err
	}
	if err == nil && over {
		err = s.session.View().Err
	}
	return s.session, s.room, err
}

// Frame takes what the server answered, asks for the rooms again when
// LobbyRefresh has passed, and draws the lobby; it shows the frame if it
// changed anything and reports whether it did.
func (s *LobbyScreen) Frame() bool {
	s.take()
	if s.refreshIn() == 0 {
		s.fetch()
	}
	return s.show(s.render)
}

// refreshIn returns how soon the rooms are asked for again: 0 when it is
// time, -1 while an answer is awaited or a room was joined.
func (s *LobbyScreen) refreshIn() time.Duration {
	if s.fetching || s.joining || s.session != nil {
		return -1
	}
	return max(LobbyRefresh-s.opts.Clock.Now().Sub(s.listedAt), 0)
}

// fetch asks for the rooms.
func (s *LobbyScreen) fetch() {
	if s.fetching || s.joining || s.session != nil {
		return
	}
	s.fetching = true
	s.model.AskRooms()
}

// join asks to join room.
func (s *LobbyScreen) join(room string) {
	if s.joining || s.session != nil {
		return
	}
	s.joining, s.room = true, room
	s.status = "joining " + roomLabel(room) + "…"
	s.model.Join(room)
}

// take applies the answers that came since the last frame: a list of
// rooms, a session of the room joined, or why not.
func (s *LobbyScreen) take() {
	if rooms, err, ok := s.model.TakeRooms(); ok {
		s.fetching, s.listedAt = false, s.opts.Clock.Now()
		if err != nil {
			s.status = err.Error()
		} else {
			s.list = rooms
			s.sel = min(s.sel, len(rooms.Rooms))
		}
	}
	if sess, err, ok := s.model.TakeJoin(); ok {
		s.joining = false
		if err != nil {
			s.status, s.listedAt = err.Error(), s.opts.Clock.Now()
		} else {
			s.session, s.status = sess, ""
		}
	}
}

// rooms are the rooms listed last.
func (s *LobbyScreen) rooms() []protocol.RoomInfo {
	if s.list == nil {
		return nil
	}
	return s.list.Rooms
}

// move moves the choice by d rows, the "new room" row included.
func (s *LobbyScreen) move(d int) {
	s.sel = min(max(s.sel+d, 0), len(s.rooms()))
}

// enter joins the room chosen, or starts naming a new one.
func (s *LobbyScreen) enter() {
	if rooms := s.rooms(); s.sel < len(rooms) {
		s.join(rooms[s.sel].Name)
		return
	}
	s.startNaming()
}

// naming reports whether a new room's name is being typed.
func (s *LobbyScreen) naming() bool { return s.state == lobbyNaming }

// startNaming starts typing a new room's name.
func (s *LobbyScreen) startNaming() {
	s.state, s.name = lobbyNaming, s.name[:0]
	s.status = ""
}

// stopNaming goes back to the list.
func (s *LobbyScreen) stopNaming() { s.state = "" }

// typeRune adds a character to the new room's name, up to the longest
// name.
func (s *LobbyScreen) typeRune(r rune) {
	if len(s.name) < protocol.MaxNameRunes {
		s.name = append(s.name, r)
	}
}

// rubOut takes the last character off the new room's name.
func (s *LobbyScreen) rubOut() {
	if len(s.name) > 0 {
		s.name = s.name[:len(s.name)-1]
	}
}

// joinNamed joins the room named if the name is acceptable, else says
// why not.
func (s *LobbyScreen) joinNamed() {
	name := string(s.name)
	if err := protocol.CheckName(name); err != nil {
		s.status = "room name: " + err.Error()
		return
	}
	s.stopNaming()
	s.join(name)
}

// nextChange returns when the rooms are asked for again (LobbyRefresh
// after the last answer); 0 while an answer is awaited, which signals
// says.
func (s *LobbyScreen) nextChange() time.Duration { return max(s.refreshIn(), 0) }

// signals returns the model's: an answer came. The lobby itself never
// ends.
func (s *LobbyScreen) signals() (changed, done <-chan struct{}) { return s.model.Changed(), nil }

// handedOff returns the game's screen once a room was joined, so that the
// loop runs it from then on.
func (s *LobbyScreen) handedOff() app {
	if s.session == nil || s.game != nil {
		return nil
	}
	opts := s.opts
	opts.Title += RoomTitle(s.room)
	s.game = New(s.screen, s.session, opts)
	return s.game
}

// RoomTitle is what a screen's title says of room: nothing for the
// default room.
func RoomTitle(room string) string {
	if room == "" {
		return ""
	}
	return " — room " + room
}

// roomLabel is how the lobby names a room.
func roomLabel(name string) string {
	if name == "" {
		return "(default)"
	}
	return name
}

// lobbyRow is a room's row: name, players and cap, spectators, round and
// time left.
func lobbyRow(r protocol.RoomInfo) string {
	left := time.Duration(r.LeftMS) * time.Millisecond
	return fmt.Sprintf("%-16s %4d/%-4d %4d %6d %3d:%02d", roomLabel(r.Name), r.Players, r.MaxPlayers, r.Spectators, r.Round,
		int(left/time.Minute), int(left%time.Minute/time.Second))
}
