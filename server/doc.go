// Package server is gridlag's authoritative game server.
//
// It has two layers. Core is sans-I/O: it owns the world (a grid.World) and
// turns decoded client messages, disconnections and update ticks, each with
// an explicit time, into messages to send (Envelopes). It never reads a
// clock, touches a socket or starts a goroutine, so the same inputs at the
// same times always give the same outputs; the sim package drives it on a
// virtual clock.
//
// Server is the TCP adapter around the Cores of its rooms (room.go). A
// client names its room in its Hello or Spectate; the default room (no
// name) opens with the server and never closes, so clients that name none
// play as on a server without rooms. A named room, its own Core with its
// own round, map world and players (at most Options.RoomPlayers), opens
// when first named and closes when its last connection is gone; at most
// Options.MaxRooms are open. ListRooms, before a handshake, gets the list
// for a lobby. One goroutine owns every Core: it
// runs the update ticker and handles, in batches, the messages that
// per-connection reader goroutines post to their shard's inbox, then
// encodes what the Core produced and queues the frames in bounded queues,
// never blocking. A few writer goroutines, one per shard of the
// connections, write each connection's frames of a tick in one write that
// never waits; a socket that takes nothing for WriteTimeout is dropped, and
// a periodic check, not a deadline per message, finds the silent clients.
// The flood limit charges a message at the time its bytes were read from
// the kernel. A client that does not read fast enough, sends garbage or floods
// the server is disconnected alone; nobody else notices. Connections and
// players are capped per remote address as well as in all, so that one
// address cannot lock the others out, and so is what addresses share
// (admit.go): joins, new rooms and room lists are rate-limited per
// address, one address holds at most its share of the rooms and of a
// room's spectator slots, whose last places go to addresses holding none,
// and a resume counts against the address it comes from. Refusals, and
// every line that repeats per connection or per room (joins, leaves,
// rooms opened and closed, spectators), are logged once, then summarised
// per address (package ratelog). A front end in the server's process
// connects through Server.Dial (inprocess.go), an in-process socket that
// counts as the address it names: the SSH front end dials as each SSH
// connection's address, and the server's own bots dial as Own, which no
// per-address cap, share or rate applies to. Only from Own, and from
// Options.BotAddrs, is a Hello that says it is a bot believed.
//
// The server follows the netcode notes: clients send numbered intents
// (Input), the server applies them under the speed limit and broadcasts ONE
// batched State per client per tick, each carrying the number of the last
// input it processed for its recipient, so the client can reconcile, and
// what changed in the recipient's area of interest since its last State
// (aoi.go, areaindex.go): a client hears of the players around it only.
// The adapter encodes each connection's States on a stream of its own
// (protocol.StateStream, on conn), so that an idle State travels as a step
// of a few bytes, and the map once for every room (kept.go, MapShare),
// whatever the number of joins and rooms: as MapBits to clients of
// protocol version 4, as the MapChunks of before to version 3 (each
// connection's version is recorded by its handshake, Core.sendMap).
//
// Spectators (a connection that opens with Spectate instead of Hello) watch
// without a player: no slot, no avatar, a cap of their own. Each tick they
// get one Overview: every player's cell, the last input processed for them
// and the round trip the server measured with its own Pings (Core.Ping).
// Core.Overview gives the same facts to code that holds the Core.
//
// Zap tag (zap.go, history.go, round.go): a Zap is a numbered input that
// carries the server time of the world its client was drawing. With
// Config.LagComp the Core rewinds the other players to that time, at most
// Config.Unlag back, from a trail of every player's cells kept for at
// least HistoryKeep, and traces the beam there (grid.Trace), through the
// players that could not be tagged at that moment: frozen then, tagged
// since, or under spawn protection (Config.Protect; standingAt, protect.go);
// the shooter is told the outcome (ZapResult), the tagged player who saw
// it where (Tagged), and every player the room's scoreboard (Ranking to a
// client of protocol version 4, scoreboard.go; Scores to one of version 3,
// which is sent only what a server of version 3 sent). Freezes, respawns
// and the end of a round happen at the first call with a time that is due
// (Tick, Ping, a message), so in immediate mode within a ping interval.
package server
