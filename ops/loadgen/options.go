package loadgen

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"time"

	"gridlag/internal/cli"
	"gridlag/protocol"
)

// The kinds of a run's flags: -n, at least one player; -rooms, 0 for the
// server's default room.
var (
	PlayersRange = cli.IntRange{Lo: 1, Hi: MaxPlayers}
	RoomsRange   = cli.IntRange{Lo: 0, Hi: protocol.MaxRooms}
)

// Defaults and limits of Options.
const (
	// MaxPlayers bounds Options.N: as many players as a server can hold.
	MaxPlayers = 65534
	// DefaultNamePrefix names the players load-1, load-2, ...
	DefaultNamePrefix = "load"
	// RampPerThousand is the default Options.Ramp for each 1,000 players.
	RampPerThousand = time.Second
	// DefaultHandshakeTimeout is the default Options.HandshakeTimeout.
	DefaultHandshakeTimeout = 10 * time.Second
	// DrainTimeout is how long the players wait, once they stop walking,
	// for their last inputs to be acknowledged.
	DrainTimeout = 5 * time.Second
)

// Options configure a load run.
type Options struct {
	// Addr is the game server's TCP address, host:port.
	Addr string
	// N is the number of players, 1 to MaxPlayers.
	N int
	// Duration is how long every player walks once all are connected; 0
	// means until the context is done.
	Duration time.Duration
	// Ramp is the time over which the players connect, evenly spaced.
	// 0 means RampPerThousand for each 1,000 players.
	Ramp time.Duration
	// MoveTime is the time between two inputs of a player. 0 means the
	// server's speed limit, from its Welcome.
	MoveTime time.Duration
	// NamePrefix names the players NamePrefix-1, NamePrefix-2, ...; empty
	// means DefaultNamePrefix. The players say they are bots, so
	// "bot" is allowed.
	NamePrefix string
	// Seed seeds the walks; the same seed gives the same choices.
	Seed int64
	// LocalAddrs are the source addresses the connections are spread
	// over, in turn (e.g. loopback aliases, so that a server's cap per
	// address does not refuse the load); empty lets the system choose.
	LocalAddrs []netip.Addr
	// HandshakeTimeout is how long a player's connection has to be
	// welcomed; one that is not is refused, "timed out". 0 means
	// DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// Rooms spreads the players over this many rooms of the server, named
	// room-1, room-2, ..., in turn (player n in room ((n-1) mod Rooms)+1);
	// 0 puts every player in the server's default room.
	Rooms int
	// ServerMetrics is the URL of the server's Prometheus metrics (its
	// -metrics address and /metrics), read when the walk starts and ends
	// for the server's side of the figures (Summary.Server); empty reads
	// nothing.
	ServerMetrics string
	// Say, if not nil, hears what the run decided by itself: that it
	// spreads its players over loopback addresses, and why.
	Say io.Writer
}

// room is the room player n (from 1) joins: "" for the default room.
func (o Options) room(n int) string {
	if o.Rooms == 0 {
		return ""
	}
	return "room-" + strconv.Itoa((n-1)%o.Rooms+1)
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Ramp == 0 {
		o.Ramp = time.Duration(o.N) * RampPerThousand / 1000
	}
	if o.NamePrefix == "" {
		o.NamePrefix = DefaultNamePrefix
	}
	if o.HandshakeTimeout == 0 {
		o.HandshakeTimeout = DefaultHandshakeTimeout
	}
	return o
}

// check refuses options out of range.
func (o Options) check() error {
	switch {
	case o.Addr == "":
		return errors.New("loadgen: no server address")
	case o.N < 1 || o.N > MaxPlayers:
		return fmt.Errorf("loadgen: %d players: want 1 to %d", o.N, MaxPlayers)
	case o.Duration < 0 || o.Ramp < 0 || o.MoveTime < 0 || o.HandshakeTimeout < 0:
		return errors.New("loadgen: negative duration, ramp, move time or handshake timeout")
	case o.Rooms < 0 || o.Rooms > min(o.N, protocol.MaxRooms):
		return fmt.Errorf("loadgen: %d rooms for %d players: want 0 to %d", o.Rooms, o.N, min(o.N, protocol.MaxRooms))
	}
	return nil
}
