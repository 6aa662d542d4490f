package sshd

import (
	"errors"
	"strings"

	"gridlag/front"
)

// The commands a session may ask for (ssh -t -p 2222 host COMMAND), the
// words of front's modes:
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
	RoomCommand      = front.RoomWord
	LobbyCommand     = front.LobbyWord
	SpectateCommand  = front.WatchWord
	TeachCommand     = "teach"
	RecordCommand    = "record"
	RecordingCommand = "recording"
)

// command is what a session asked for: a mode of front's (play, lobby,
// watch, each with its room), to teach or to record its room, or to fetch
// the player's recording.
type command struct {
	mode   front.Mode
	teach  bool
	record bool
	fetch  bool // the recording command
}

// parseCommand reads a session's command line (see RoomCommand): its
// first word is the mode's, the rest, white space folded, the room's
// name.
func parseCommand(raw string) (command, error) {
	words := strings.Fields(raw)
	if len(words) == 0 {
		return command{}, nil
	}
	word, room := words[0], strings.Join(words[1:], " ")
	switch word {
	case RecordingCommand:
		if room != "" {
			return command{}, errors.New("recording takes nothing more")
		}
		return command{fetch: true}, nil
	case TeachCommand, RecordCommand:
		// Play's mode names the room taught or recorded in.
		m := front.Mode{Kind: front.Play, Room: room}
		if err := m.Check(); err != nil {
			return command{}, err
		}
		return command{mode: m, teach: word == TeachCommand, record: word == RecordCommand}, nil
	}
	m, err := front.Parse(word, room)
	return command{mode: m}, err
}
