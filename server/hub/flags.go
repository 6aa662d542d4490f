package hub

import (
	"fmt"

	"gridlag/internal/cli"
	"gridlag/protocol"
	"gridlag/server/world"
)

// The kinds of the hub's flags.
var (
	// RoomsRange: -max-rooms and -rooms-per-addr, at least one (the
	// default room), at most what a Rooms message lists.
	RoomsRange = cli.IntRange{Lo: 1, Hi: protocol.MaxRooms}
	// RateLimitRange: -join-rate, -room-rate, -lobby-rate,
	// -lobby-rate-total.
	RateLimitRange = cli.IntRange{Lo: 1, Hi: 1 << 20}
)

// RegisterFlags registers the hub's rules, the rooms' caps and what each
// address may take, with their defaults. The game numbers are its
// Config's (world.Config.RegisterFlags); the load's admission
// (TickBudget, LoadFloor) is the adapter's to set (server.Options).
func (o *Options) RegisterFlags(fs *cli.FlagSet) {
	fs.Int(&o.MaxPlayersPerAddr, "max-players-per-addr", DefaultMaxPlayersPerAddr, cli.Sessions, "players joined at once from one address (a classroom behind one NAT is one address)")
	fs.Int(&o.RoomPlayers, "room-players", DefaultRoomPlayers, cli.Sessions, "players at once in each named room (the default room takes -max-players)")
	fs.Int(&o.MaxRooms, "max-rooms", DefaultMaxRooms, RoomsRange, "rooms open at once, the default room included")
	fs.Int(&o.JoinRate, "join-rate", DefaultJoinRate, RateLimitRange, fmt.Sprintf("joins (Hello, Spectate, Resume) one address may make a second, %d seconds' worth at once", JoinBurst))
	fs.Int(&o.RoomRate, "room-rate", DefaultRoomRate, RateLimitRange, "rooms one address may open a minute")
	fs.Int(&o.RoomsPerAddr, "rooms-per-addr", DefaultRoomsPerAddr, RoomsRange, "of the rooms open, how many one address may have opened (the last eighth of -max-rooms only for an address that opened none)")
	fs.Int(&o.SpectatorsPerAddr, "spectators-per-addr", DefaultSpectatorsPerAddr, world.SpectatorsRange, "of a room's spectator slots, how many one address may take (the last eighth only for an address watching it from none)")
	fs.Int(&o.LobbyRate, "lobby-rate", DefaultLobbyRate, RateLimitRange, fmt.Sprintf("room lists one address is answered a second, %d seconds' worth at once", LobbyBurst))
	fs.Int(&o.LobbyRateTotal, "lobby-rate-total", DefaultLobbyRateTotal, RateLimitRange, "room lists all addresses together are answered a second; past it, only addresses that asked for none lately")
}
