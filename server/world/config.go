package world

import (
	"fmt"
	"math"
	"time"

	"gridlag/grid"
)

// Defaults of the game numbers, applied by Config.WithDefaults.
const (
	DefaultMoveTime   = 100 * time.Millisecond
	DefaultBurst      = 6
	DefaultRate       = 20 // the adapter's and cmd's default; the Core takes Rate as given
	DefaultMaxPlayers = 256
	// DefaultMaxSpectators is how many spectators may watch at once unless
	// told otherwise: a class's projector and a few more.
	DefaultMaxSpectators = 16
	// DefaultUnlag is how far back lag compensation may rewind the other
	// players: the adapter's and cmd's default; the Core takes Unlag as
	// given.
	DefaultUnlag = 500 * time.Millisecond
	// DefaultRound is the length of a round of zap tag.
	DefaultRound = time.Duration(grid.DefaultRound)
	// DefaultProtect is how long a player who joins or respawns cannot be
	// tagged: cmd's default; the Core takes Protect as given.
	DefaultProtect = 2 * time.Second
)

// Limits of the game numbers: what the wire format can carry.
const (
	MaxRate  = 1000          // updates per second
	MaxBurst = math.MaxUint8 // Welcome.Burst is one byte
	// MaxPlayersCap bounds MaxPlayers: player IDs are 16 bits. A State
	// carries only its recipient's area of interest, which holds at most
	// MaxAreaPlayers, so the world's population is not bound by
	// a frame.
	MaxPlayersCap = math.MaxUint16
	MaxMoveTime   = 65535 * time.Millisecond // Welcome.MoveTimeMS is 16 bits
	// MaxSpectatorsCap bounds MaxSpectators: each spectator gets an
	// Overview of every player per tick, up to a whole frame.
	MaxSpectatorsCap = 1024
	// MaxUnlag bounds Unlag: the Core keeps HistoryKeep of positions.
	MaxUnlag = HistoryKeep
	// MinRound and MaxRound bound Round.
	MinRound = time.Second
	MaxRound = 24 * time.Hour
	// MaxProtect bounds Protect.
	MaxProtect = 30 * time.Second
)

// Config are the game numbers.
type Config struct {
	// Map is the map to play on; nil means grid.DefaultMap().
	Map *grid.Map
	// Spawn is the human spawn cell. Its zero value means the floor cell
	// nearest to grid.DefaultSpawn: grid.DefaultSpawn itself on the default
	// map.
	Spawn grid.Pos
	// Spawns are further human spawn cells, tried in order when Spawn is
	// taken (then the free cell nearest to Spawn is used). Bots spawn on
	// Spawn or any of these only when no other cell of the floor is free.
	Spawns []grid.Pos
	// MoveTime is the speed limit: one move per MoveTime on average.
	// Default 100ms. It is sent to clients in whole milliseconds.
	MoveTime time.Duration
	// Burst is how many moves are accepted back to back. Default 6: enough
	// for the bunching of a player walking while the latency slider drops
	// from its 1000 ms maximum to 0 (500 ms one way, five moves).
	Burst int
	// Rate is the update rate in Hz. The Core takes it as given (the
	// adapter's and cmd's default is DefaultRate). 0 is "immediate mode":
	// a State goes to every client right after each processed input.
	Rate int
	// MaxPlayers is how many players may be in the world at once. Default
	// 256.
	MaxPlayers int
	// MaxSpectators is how many spectators may watch at once. They take no
	// player slot: this is their own cap. Default 16.
	MaxSpectators int
	// Resume is how long a player whose connection dropped keeps its
	// avatar for the resume token its Welcome gave (see Core.Drop). The
	// Core takes it as given: 0 (the zero value) turns resuming off;
	// cmd passes DefaultResume unless told otherwise.
	Resume time.Duration
	// LagComp turns lag compensation on: a zap is judged against the other
	// players rewound to the moment the shooter saw (within Unlag). The
	// Core takes it as given, like Rate; cmd turns it on unless told
	// otherwise (SetLagComp changes it live).
	LagComp bool
	// Unlag is how far back lag compensation may rewind, 0 to MaxUnlag; 0
	// rewinds nothing. The Core takes it as given; cmd passes
	// DefaultUnlag.
	Unlag time.Duration
	// Round is the length of a round of zap tag, MinRound to MaxRound.
	// Default 3 minutes.
	Round time.Duration
	// Protect is spawn protection: for this long after a player joins or
	// respawns (from the broadcast that shows it there) no zap tags it,
	// including a zap judged against a moment of that time. 0 to
	// MaxProtect; the Core takes it as given (0, the zero value, protects
	// nobody); cmd passes DefaultProtect.
	Protect time.Duration
	// AreasOff turns the areas of interest off: each State tells of
	// every player on the map (up to MaxAreaPlayers, as a State can
	// carry), as a server without them would; for the scale lab, which
	// shows what they save. SetAreas changes it live.
	AreasOff bool
}

// WithDefaults returns c with its zero fields (Map, Spawn, MoveTime, Burst,
// MaxPlayers, MaxSpectators, Round) filled in. Rate, LagComp, Unlag and
// Protect stay as given.
func (c Config) WithDefaults() Config {
	if c.Map == nil {
		c.Map = grid.DefaultMap()
	}
	if c.Spawn == (grid.Pos{}) {
		// A map without floor keeps the zero Spawn: the Core refuses
		// every player, as it has no free cell for them.
		c.Spawn, _ = nearestFloor(c.Map, grid.DefaultSpawn)
	}
	if c.MoveTime == 0 {
		c.MoveTime = DefaultMoveTime
	}
	if c.Burst == 0 {
		c.Burst = DefaultBurst
	}
	if c.MaxPlayers == 0 {
		c.MaxPlayers = DefaultMaxPlayers
	}
	if c.MaxSpectators == 0 {
		c.MaxSpectators = DefaultMaxSpectators
	}
	if c.Round == 0 {
		c.Round = DefaultRound
	}
	return c
}

// Validate reports the first game number that is out of range, after
// defaults are applied.
func (c Config) Validate() error {
	c = c.WithDefaults()
	switch {
	case c.MoveTime < time.Millisecond || c.MoveTime > MaxMoveTime:
		return fmt.Errorf("server: move time %v is out of range (1ms to %v)", c.MoveTime, MaxMoveTime)
	case c.MoveTime%time.Millisecond != 0:
		return fmt.Errorf("server: move time %v is not a whole number of milliseconds", c.MoveTime)
	case c.Burst < 1 || c.Burst > MaxBurst:
		return fmt.Errorf("server: burst %d is out of range (1 to %d)", c.Burst, MaxBurst)
	case c.Rate < 0 || c.Rate > MaxRate:
		return fmt.Errorf("server: update rate %d Hz is out of range (0 to %d)", c.Rate, MaxRate)
	case c.MaxPlayers < 1 || c.MaxPlayers > MaxPlayersCap:
		return fmt.Errorf("server: max players %d is out of range (1 to %d)", c.MaxPlayers, MaxPlayersCap)
	case c.MaxSpectators < 1 || c.MaxSpectators > MaxSpectatorsCap:
		return fmt.Errorf("server: max spectators %d is out of range (1 to %d)", c.MaxSpectators, MaxSpectatorsCap)
	case c.Resume < 0 || c.Resume > MaxResume:
		return fmt.Errorf("server: resume window %v is out of range (0 to %v)", c.Resume, MaxResume)
	case c.Unlag < 0 || c.Unlag > MaxUnlag:
		return fmt.Errorf("server: unlag %v is out of range (0 to %v)", c.Unlag, MaxUnlag)
	case c.Round < MinRound || c.Round > MaxRound:
		return fmt.Errorf("server: round %v is out of range (%v to %v)", c.Round, MinRound, MaxRound)
	case c.Protect < 0 || c.Protect > MaxProtect:
		return fmt.Errorf("server: spawn protection %v is out of range (0 to %v)", c.Protect, MaxProtect)
	case !c.Map.Inside(c.Spawn):
		return fmt.Errorf("server: spawn %v is outside the %dx%d map", c.Spawn, c.Map.Width(), c.Map.Height())
	}
	for _, p := range c.Spawns {
		if c.Map.Wall(p) {
			return fmt.Errorf("server: spawn %v is a wall or outside the %dx%d map", p, c.Map.Width(), c.Map.Height())
		}
	}
	return nil
}
