// Package world is the authoritative core of one gridlag world: a room's
// players, their world (a grid.World), its round and its spectators.
//
// Core is sans-I/O: it turns decoded client messages, disconnections and
// its own times, each with an explicit time, into messages to send
// (Envelopes) and Events to log. It never reads a clock, touches a
// socket, starts a goroutine or takes a lock (a test holds it to that),
// so the same inputs at the same times always give the same outputs.
// Package hub drives many of them, for the TCP server and the simulator
// alike; NextWake and Advance are its schedule (schedule.go): the ticks
// at the update rate, the Pings that measure round trips, the end of an
// away player's window.
//
// A Core follows the netcode notes: clients send numbered intents
// (Input), the world applies them under the speed limit and broadcasts
// ONE batched State per client per tick, each carrying the number of the
// last input it processed for its recipient, so the client can
// reconcile, and what changed in the recipient's area of interest since
// its last State (aoi.go, areaindex.go, area.go): a client hears of the
// players around it only. The map travels once for all the Cores that
// share it (MapShare): in the Welcome when it is small, else after it as
// MapBits to clients of protocol version 4 and as the MapChunks of before
// to version 3 (each connection's version is recorded by its handshake,
// Core.sendMap).
//
// Spectators (a connection that opens with Spectate instead of Hello)
// watch without a player: no slot, no avatar, a cap of their own. Each
// tick they get one Overview: every player's cell, the last input
// processed for them and the round trip measured with the world's own
// Pings. Core.Overview gives the same facts to code that holds the Core.
//
// A client of protocol version 5 may ask for its inputs' stages
// (protocol.Trace): then each State that acknowledges inputs is preceded
// by a protocol.Stages saying when each arrived, when it was applied and
// what it did (stages.go). A client that does not ask costs nothing more.
//
// A player whose connection drops (Drop) is kept, standing still, for
// Config.Resume: the token of its Welcome brings it back on a new
// connection (resume.go).
//
// Zap tag (zap.go, history.go, round.go): a Zap is a numbered input that
// carries the server time of the world its client was drawing. With
// Config.LagComp the Core rewinds the other players to that time, at most
// Config.Unlag back, from a trail of every player's cells kept for at
// least HistoryKeep, and traces the beam there (grid.Trace), through the
// players that could not be tagged at that moment: frozen then, tagged
// since, or under spawn protection (Config.Protect; standingAt,
// protect.go); the shooter is told the outcome (ZapResult), the tagged
// player who saw it where (Tagged), and every player the room's
// scoreboard (Ranking to a client of protocol version 4, scoreboard.go;
// Scores to one of version 3, which is sent only what a server of version
// 3 sent). Freezes, respawns and the end of a round happen at the first
// tick, ping or message at or after their time, so in immediate mode
// within a ping interval.
package world
