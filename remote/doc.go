// Package remote runs a game session on a terminal at the far end of a
// connection: what the SSH front end (sshd) and the web front end (web)
// share.
//
//   - Tty is a tcell.Tty over the connection: output written to it,
//     input pumped from it, the window size the client says; LookupTerm
//     and ClampWindow pick the terminal's description and bound its size.
//   - Game runs one session's game, as a local terminal would: play (in
//     the lobby when the server has rooms), a room, the lobby or the
//     spectator's screen, each with its own game client. A player with an
//     identity (an SSH key's fingerprint, a browser's) whose connection
//     dropped keeps the avatar for the game server's resume window, and
//     a new session with the same identity comes back as it.
//   - Watchdog ends a session whose player pressed no key for the idle
//     time or whose client stopped reading; EndReason says why a session
//     ended, for the log and the player.
//   - Slots counts sessions or connections in all and per remote address
//     (HostOf), under caps, with the refusal's words.
package remote
