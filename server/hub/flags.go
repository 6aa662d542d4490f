package hub

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"gridlag/internal/cli"
	"gridlag/internal/link"
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
	// TeachBotsRange: -teach-bots, none to what a Crowd asks for.
	TeachBotsRange = cli.IntRange{Lo: 0, Hi: 1<<16 - 1}
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
	fs.Int(&o.CodeTries, "code-tries", DefaultCodeTries, RateLimitRange, "wrong class codes one address may present a minute; past them its codes are refused unread until it has tries again (a class code lets a class behind one address join its teacher's room)")
	fs.Int(&o.TeachBots, "teach-bots", DefaultTeachBots, TeachBotsRange, "the most of the server's own bots a teacher may put in a room (the scale panel's b), counted against the room's and the server's caps like anyone; 0: none")
	fs.Int(&o.LobbyRateTotal, "lobby-rate-total", DefaultLobbyRateTotal, RateLimitRange, "room lists all addresses together are answered a second; past it, only addresses that asked for none lately")
	fs.Check(func() (err error) {
		o.Traces, err = OfferedTraces(o.ownTraces)
		return err
	})
}

// RegisterTraceFlag registers -trace, a server's: a trace file (or a
// bundled trace's name) a room's teacher may choose besides the bundled
// traces, again for more; each is opened with open and checked as the
// flag is set. A player's embedded server has no -trace (the player's
// own is its link's): its teachers are offered the bundled traces.
func (o *Options) RegisterTraceFlag(fs *cli.FlagSet, open func(string) (io.ReadCloser, error)) {
	fs.Checked(&traceList{p: &o.ownTraces, open: open}, "trace",
		"a network that changes over time, a trace `FILE` (docs/traces.md) a room's teacher may give the students' network, offered besides the bundled ones ("+
			strings.Join(link.BundledTraces(), ", ")+"; a file of one's name takes its place); again for more")
}

// traceList is -trace, which may be given more than once.
type traceList struct {
	p    *[]*link.Trace
	open func(string) (io.ReadCloser, error)
}

// String lists the traces' names.
func (v *traceList) String() string {
	if v.p == nil {
		return ""
	}
	var names []string
	for _, tr := range *v.p {
		names = append(names, tr.Name)
	}
	return strings.Join(names, ",")
}

// Set loads one more trace.
func (v *traceList) Set(s string) error {
	tr, err := link.LoadTrace(s, v.open)
	if err != nil {
		return err
	}
	*v.p = append(*v.p, tr)
	return nil
}

// OfferedTraces are the traces a server offers its teachers: the bundled
// ones, then own, a file's replacing a bundled one of the same name; an
// error if a teacher could not be told them all (protocol.MaxTraces).
func OfferedTraces(own []*link.Trace) ([]*link.Trace, error) {
	var all []*link.Trace
	for _, name := range link.BundledTraces() {
		tr, err := link.BundledTrace(name)
		if err != nil {
			return nil, err
		}
		all = append(all, tr)
	}
	for _, tr := range own {
		all = slices.DeleteFunc(all, func(b *link.Trace) bool { return b.Name == tr.Name })
		all = append(all, tr)
	}
	if len(all) > protocol.MaxTraces {
		return nil, fmt.Errorf("-trace: %d traces; a teacher is offered at most %d", len(all), protocol.MaxTraces)
	}
	return all, nil
}
