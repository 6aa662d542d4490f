package sshd

import (
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
const (
	RoomCommand     = front.RoomWord
	LobbyCommand    = front.LobbyWord
	SpectateCommand = front.WatchWord
)

// parseCommand reads a session's command line (see RoomCommand): its
// first word is the mode's, the rest, white space folded, the room's
// name.
func parseCommand(raw string) (front.Mode, error) {
	words := strings.Fields(raw)
	if len(words) == 0 {
		return front.Mode{}, nil
	}
	return front.Parse(words[0], strings.Join(words[1:], " "))
}
