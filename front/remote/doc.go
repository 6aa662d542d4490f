// Package remote runs a game session on a terminal at the far end of a
// connection: what the SSH front end (sshd) and the web front end (web)
// share.
//
//   - Tty is a tcell.Tty over the connection: output written to it,
//     input pumped from it, filtered (inputFilter: only what a terminal
//     sends) and scanned into the screen's events by the session itself,
//     not by tcell's input loop (tcell_test.go shows why), the window
//     size the client says; NewScreen is the session's screen on it,
//     whose Fini cannot hold the session; LookupTerm
//     picks the terminal's description, WindowOf bounds its size to the
//     largest screen the interface can use (tui.MaxWidth x tui.MaxHeight)
//     and centres that screen on a larger terminal (centre.go);
//     Resizer paces a client's new sizes at WindowChanges, on the
//     session's Clock, the same on every front end.
//   - Game runs one session's mode (Player.Mode) as the local terminal
//     does, through front.Run: play (in the lobby when the server has
//     rooms), a room, the lobby or the spectator's screen, each with its
//     own game client. A player with an
//     identity (an SSH key's fingerprint, a browser's) whose connection
//     dropped keeps the avatar for the game server's resume window, and
//     a new session with the same identity comes back as it.
//   - Watchdog ends a session whose player pressed no key for the idle
//     time or whose client stopped reading; EndReason says why a session
//     ended, for the log and the player.
//   - Lifecycle is the server skeleton SSH and the web share: their
//     defaults (SetDefaults), the context their sessions end with, the
//     count of their goroutines and sessions, their warnings flushed,
//     and Close, which ends the sessions in bounded time, leaving behind
//     one that will not end; Handler.Run runs a session's handler, a
//     panic of which is that session's failure only.
//   - The caps by address that the sessions count under (admit.Slots) are
//     package admit's, shared with the game port.
package remote
