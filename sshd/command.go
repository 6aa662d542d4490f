package sshd

import (
	"errors"
	"fmt"
	"strings"

	"gridlag/protocol"
)

// The commands a session may ask for (ssh -t -p 2222 host COMMAND):
//
//	(none)          play: in the lobby if the game server has rooms
//	                besides its default one, else in the default room
//	room NAME       play in room NAME, opening it if needed
//	lobby           the lobby: the rooms, to pick one or name a new one
//	spectate [NAME] watch the default room, or room NAME
//	teach [NAME]    teach the default room, or room NAME: its board and
//	                the panel of its network, for a key the operator
//	                named a teacher's (Options.Teachers)
//	record [NAME]   play in the default room, or room NAME, recording the
//	                game under the player's key (Options.Recordings)
//	recording       write the player's last recording to standard output
//	                (no terminal: ssh -p 2222 host recording > game.rec)
const (
	RoomCommand      = "room"
	LobbyCommand     = "lobby"
	SpectateCommand  = "spectate"
	TeachCommand     = "teach"
	RecordCommand    = "record"
	RecordingCommand = "recording"
)

// command is what a session asked for.
type command struct {
	spectate bool
	lobby    bool
	teach    bool
	record   bool
	fetch    bool   // the recording command
	room     string // "" = the default room
}

// parseCommand reads a session's command line (see RoomCommand).
func parseCommand(raw string) (command, error) {
	words := strings.Fields(raw)
	if len(words) == 0 {
		return command{}, nil
	}
	room := strings.Join(words[1:], " ")
	switch words[0] {
	case LobbyCommand:
		if room != "" {
			return command{}, errors.New("lobby takes no room")
		}
		return command{lobby: true}, nil
	case RecordingCommand:
		if room != "" {
			return command{}, errors.New("recording takes nothing more")
		}
		return command{fetch: true}, nil
	case SpectateCommand, RoomCommand, TeachCommand, RecordCommand:
		if words[0] == RoomCommand && room == "" {
			return command{}, errors.New("room needs the room's name")
		}
		if room != "" {
			if err := protocol.CheckName(room); err != nil {
				return command{}, fmt.Errorf("room %q: %w", room, err)
			}
		}
		return command{spectate: words[0] == SpectateCommand, teach: words[0] == TeachCommand, record: words[0] == RecordCommand, room: room}, nil
	}
	return command{}, fmt.Errorf("unknown command %q", words[0])
}
