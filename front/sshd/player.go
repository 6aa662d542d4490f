package sshd

import (
	"gridlag/front/remote"
	"gridlag/internal/names"
	"gridlag/protocol"
)

// Player is one SSH session's player, handed to the session handler. Its
// Fingerprint is the SHA256 fingerprint of the public key the player
// authenticated with ("" without a key); Mode is what the session's
// command asked for (SpectateCommand, RoomCommand, LobbyCommand); User is
// the SSH user name made valid (PlayerName).
type Player = remote.Player

// DefaultPlayerName is the name of a player whose SSH user name has nothing
// printable in it.
const DefaultPlayerName = "player"

// PlayerName turns an SSH user name into a valid player name: control
// characters, escape sequences and invisible characters removed, white space
// folded, cut to protocol.MaxNameRunes characters; DefaultPlayerName if
// nothing is left or if what is left is reserved for bots (see
// names.CheckPlayer), so the session is never refused for its name.
func PlayerName(user string) string {
	name := protocol.SanitizeName(user)
	if names.CheckPlayer(name, false) != nil {
		return DefaultPlayerName
	}
	return name
}
