// Package front is what every front end runs for a player on a terminal:
// the local terminal (cmd/gridlag), an SSH session (sshd) and a browser's
// (web), the last two through package remote.
//
// A Mode is what the player asked for, parsed once from the front end's
// own syntax: gridlag's commands (play, lobby, watch, with -room NAME),
// an SSH session's command (lobby, spectate NAME, room NAME) or a page's
// address (/lobby, /spectate/NAME, /room/NAME). It is one of three kinds, each
// with its room: Play (with no room, the lobby when the server has rooms
// besides its default one), Lobby and Watch.
//
// Run runs a Mode on a screen: the game (tui.Run over a client/tcp
// connection), the lobby (tui.RunLobbySession) or the spectator's screen
// (tui.RunSpectate). What differs between front ends is in its Options: the
// titles, the log, a dropped avatar to resume and what to do with the
// game session at the end (remote keeps it for a resume by identity).
package front
