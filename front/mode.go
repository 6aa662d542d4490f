package front

import (
	"errors"
	"fmt"

	"gridlag/protocol"
)

// Kind is what a session does.
type Kind uint8

const (
	// Play plays in the mode's room; with no room, in the server's
	// default room, or in its lobby when it has rooms besides the
	// default one.
	Play Kind = iota
	// Lobby shows the server's rooms, to pick one or name a new one.
	Lobby
	// Watch watches the mode's room (the default room if none) without
	// playing: the server's view, no avatar, no player slot.
	Watch
)

// Mode is what a player asked for: a kind and its room ("" for the
// default room). The zero Mode plays.
type Mode struct {
	Kind Kind
	Room string
}

// The words of the modes, as a player types them after ssh (ssh -t -p
// 2222 host room NAME) and in a page's address (/room/NAME).
const (
	RoomWord  = "room"     // room NAME: play in room NAME, opening it if needed
	LobbyWord = "lobby"    // lobby: the lobby
	WatchWord = "spectate" // spectate [NAME]: watch the default room, or room NAME
)

// Parse reads a mode from its word and its room: "" (and no room) plays,
// room NAME plays in room NAME, lobby is the lobby, spectate [NAME]
// watches. A room's name must pass protocol.CheckName.
func Parse(word, room string) (Mode, error) {
	var m Mode
	switch word {
	case "":
		if room != "" {
			return Mode{}, errors.New("a room needs its word: " + RoomWord + " NAME")
		}
		return Mode{}, nil
	case LobbyWord:
		if room != "" {
			return Mode{}, errors.New(LobbyWord + " takes no room")
		}
		return Mode{Kind: Lobby}, nil
	case RoomWord:
		if room == "" {
			return Mode{}, errors.New(RoomWord + " needs the room's name")
		}
		m = Mode{Kind: Play, Room: room}
	case WatchWord:
		m = Mode{Kind: Watch, Room: room}
	default:
		return Mode{}, fmt.Errorf("unknown command %q", word)
	}
	if err := m.Check(); err != nil {
		return Mode{}, err
	}
	return m, nil
}

// Check says what is wrong with m's room, nil if nothing is.
func (m Mode) Check() error {
	if m.Kind == Lobby && m.Room != "" {
		return errors.New(LobbyWord + " takes no room")
	}
	if m.Room == "" {
		return nil
	}
	if err := protocol.CheckName(m.Room); err != nil {
		return fmt.Errorf("room %q: %w", m.Room, err)
	}
	return nil
}

// Plays reports whether the session takes an avatar (Play, Lobby), so
// that a dropped avatar of the player's may come back in it.
func (m Mode) Plays() bool { return m.Kind != Watch }

// String names the mode in a few words, for a page's title and the log:
// "play", "room kitchen", "lobby", "spectating", "spectating room
// kitchen".
func (m Mode) String() string {
	switch {
	case m.Kind == Watch && m.Room != "":
		return "spectating room " + m.Room
	case m.Kind == Watch:
		return "spectating"
	case m.Kind == Lobby:
		return "lobby"
	case m.Room != "":
		return "room " + m.Room
	}
	return "play"
}
