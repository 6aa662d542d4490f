package sshd

import (
	"crypto/sha256"
	"net"

	"github.com/gdamore/tcell/v2"

	"gridlag/protocol"
)

// Player is one SSH session's player, handed to the session handler.
type Player struct {
	// Screen is bound to the session's channel and not yet initialised:
	// the handler calls Init (tview's Run does) and Fini.
	Screen tcell.Screen
	// User is the SSH user name made into a valid player name (see
	// PlayerName).
	User string
	// Fingerprint is the SHA256 fingerprint of the public key the player
	// authenticated with, "" if they joined without a key.
	Fingerprint string
	// Color is the player's palette colour, 1 to protocol.NumColors: from the key's
	// fingerprint, so a returning player keeps it. It is 0 for players
	// without a key: the game server colours them by player, so two
	// players of one name look different.
	Color uint8
	// RemoteAddr is the client's network address.
	RemoteAddr net.Addr
	// Spectate says the session asked to watch the game rather than play
	// (the command SpectateCommand).
	Spectate bool
	// Room is the room the session asked for (RoomCommand, or
	// SpectateCommand with a name); "" for the default room.
	Room string
	// Lobby says the session asked for the lobby (LobbyCommand).
	Lobby bool
}

// DefaultPlayerName is the name of a player whose SSH user name has nothing
// printable in it.
const DefaultPlayerName = "player"

// PlayerName turns an SSH user name into a valid player name: control
// characters, escape sequences and invisible characters removed, white space
// folded, cut to protocol.MaxNameRunes characters; DefaultPlayerName if
// nothing is left or if what is left is reserved for bots (see
// protocol.CheckPlayerName), so the session is never refused for its name.
func PlayerName(user string) string {
	name := protocol.SanitizeName(user)
	if protocol.CheckPlayerName(name, false) != nil {
		return DefaultPlayerName
	}
	return name
}

// FingerprintColor is the colour (1 to protocol.NumColors) of a player who
// authenticated with the key of this SHA256 fingerprint: the same key always
// gets the same colour.
func FingerprintColor(fingerprint string) uint8 {
	sum := sha256.Sum256([]byte("gridlag key colour\x00" + fingerprint))
	return sum[0]%protocol.NumColors + 1
}
