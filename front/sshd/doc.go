// Package sshd is gridlag's SSH front end: players run
// `ssh -p 2222 name@host` and are in the game, with nothing to install.
//
// Every SSH session with a terminal gets its own tcell screen bound to the
// session's channel (a remote.Tty) and, by default, its own full game
// client: its own connection to the game server, prediction, ledger,
// latency slider and toggles. The server offers nothing else: no shell, no
// commands, no subsystems, no forwarding of ports, agents or X11.
//
// Identity is light: the SSH user name is the player's name (sanitised for
// display), any public key is accepted and its SHA256 fingerprint picks the
// player's colour so a returning player keeps it, and players without a key
// join through keyboard-interactive authentication that asks no questions.
//
// A teacher (`ssh -t -p 2222 host teach ROOM`) is a key the operator named
// in an authorized_keys file (Teachers, -teachers): its session gets the
// teacher's screen of the room, over a connection the game server in the
// same process takes for a teacher's (Options.DialTeacher); any other key,
// or none, is refused, saying why.
//
// Abuse limits, each logged with its reason (summarised when it repeats)
// and counted (Server.Stats): deadlines for a new connection to send its
// SSH banner and to start a game session, caps on connections still in
// their handshake (per remote address and in total, apart from the
// players), caps on sessions per remote address and in total, an idle
// timeout on keyboard input, a stall timeout on output to a client that
// stopped reading, and window changes clamped to the largest screen the
// interface can use (tui.MaxWidth x tui.MaxHeight) and coalesced, the
// latest, at most four at once then four a second (remote.Resizer at
// remote.WindowChanges, as the web's sizes),
// a screen smaller than its terminal centred on it (remote.WindowOf); a
// session's channel that floods requests gets its connection closed. The
// shared pools are fair (admit.Pool): each keeps its last places for
// addresses holding few, and a full pool of handshakes makes room for a
// newcomer by closing the oldest of the address holding the most, so that
// no few addresses can lock the others out.
package sshd
