// Package hub is the sans-I/O driver of a gridlag server's worlds, after
// yojimbo's BaseServer: the TCP server (package server) and the simulator
// (package sim) run the same Hub, so that what one does the other does.
//
// A Hub owns the rooms by name (room.go): the default room ("") opens
// with it and never closes; a named room, its own world.Core with its own
// round, map world and players (at most Options.RoomPlayers), opens when
// a Hello or Spectate first names it and closes once its last connection
// is gone and nobody is kept for resume; at most Options.MaxRooms are
// open, and every room plays on one world.MapShare. A connection is
// routed by its first message: the room its Hello or Spectate names, the
// room whose world issued its Resume's token; a ListRooms is answered
// with the room list, built once per change.
//
// Admission (admit.go) is keyed by an address, a string (Origin.Host):
// the players of each address (Options.MaxPlayersPerAddr, a Resume from a
// new address counted against it), its share of the rooms and of a
// room's spectator slots, whose last places go to addresses holding
// none, and the rates of its joins, new rooms and room lists. The
// server's own connections (Origin.Own: its bots) are exempt, and only
// they and Origin.Bots are believed when their Hello says it is a bot.
//
// Connections come in and go out through Connect, Receive, Disconnect
// (the connection ended: its player may be kept for resume) and Close
// (the server ends it: its player leaves). Time comes in through
// Advance, which the adapter calls at NextWake: the rooms' ticks, pings
// and resume windows (world.Core.NextWake), the drain's countdown
// (Drain), the rates' sweep. Everything that happened comes out of
// Outbox: the envelopes to send (Close: end the connection after it),
// Notes to log and count (a world's Events, a room opened or closed, a
// refusal with its reason, a connection gone), and the counters of the
// rooms touched. The hub reads no clock, touches no socket, starts no
// goroutine and takes no lock (a test holds it to that).
package hub
