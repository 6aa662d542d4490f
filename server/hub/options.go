package hub

import (
	"time"

	"gridlag/internal/link"
	"gridlag/server/world"
)

// Defaults of the hub's options, applied by New.
const (
	DefaultPingInterval = time.Second
	// DefaultMaxPlayersPerAddr leaves room for a classroom of about 30
	// behind one NAT address, and stops one address from taking more than
	// its share of the player slots.
	DefaultMaxPlayersPerAddr = 32
	// DefaultRoomPlayers caps a named room: a match of a few dozen.
	DefaultRoomPlayers = 32
	// DefaultMaxRooms caps the rooms open at once, the default room
	// included (each costs a Core and its map's world).
	DefaultMaxRooms = 256
	// DefaultJoinRate is how many joins (Hello, Spectate, Resume) one
	// address may make a second, in bursts of JoinBurst times as many: a
	// class of 40 behind one NAT address joins at once, and one address
	// cannot have the big map sent to it hundreds of times a second.
	DefaultJoinRate = 10
	// JoinBurst is how many seconds of joins an address may make at once.
	JoinBurst = 4
	// DefaultRoomRate is how many rooms one address may open a minute,
	// all at once if it likes.
	DefaultRoomRate = 30
	// DefaultRoomsPerAddr is how many of the open rooms one address may
	// have opened: 16 of the 256, so that filling them takes many
	// addresses, and the last eighth of MaxRooms opens only for an
	// address that has none.
	DefaultRoomsPerAddr = 16
	// DefaultSpectatorsPerAddr is how many of a room's spectator slots
	// one address may take: a projector and a few more, of the 16; the
	// last eighth of the slots (at least one) go to addresses watching it
	// from none.
	DefaultSpectatorsPerAddr = 4
	// DefaultLobbyRate is how many room lists (ListRooms) one address may
	// ask for a second, in bursts of LobbyBurst times as many: 40 lobbies
	// refreshing every 2 s behind one address and more.
	DefaultLobbyRate = 25
	// DefaultLobbyRateTotal is how many room lists all addresses together
	// are answered a second, in bursts of LobbyBurst times as many; past
	// it, only addresses that asked for none lately are answered, a tenth
	// as many again.
	DefaultLobbyRateTotal = 250
	// LobbyBurst is how many seconds of room lists may be asked for at once.
	LobbyBurst = 2
	// DefaultCodeTries is how many wrong class codes one address may
	// present a minute, all at once if it likes: a class's typos, and
	// far too few to guess a code (classcode.go).
	DefaultCodeTries = 20
)

// Options are a hub's rules: the game numbers of its rooms, how many
// rooms and of what size, and what each address may take of what all
// share. Zero fields take their defaults (New).
type Options struct {
	// Config are the game numbers of every room. The default room takes
	// its MaxPlayers; a named room RoomPlayers.
	Config world.Config
	// PingInterval is how often every room pings its players to measure
	// the round trips spectators are shown (world.Core.Ping). Default 1s;
	// PingEvery changes it.
	PingInterval time.Duration
	// MaxPlayersPerAddr caps the players joined at once from one address
	// (an Origin's Host); above it a Hello gets Error{ErrCodeFull}, and so
	// does a Resume that would move a player to it. Default 32.
	MaxPlayersPerAddr int
	// RoomPlayers caps the players of each named room (the default room
	// takes Config.MaxPlayers). Default 32.
	RoomPlayers int
	// MaxRooms caps the rooms open at once, the default room included: a
	// Hello or Spectate naming a new room above it gets Error{ErrCodeFull}.
	// Default 256.
	MaxRooms int
	// JoinRate is how many joins (Hello, Spectate or Resume, each of which
	// may send the whole map) one address may make a second, in bursts of
	// JoinBurst seconds' worth; a join over it gets Error{ErrCodeFlood}.
	// Default 10.
	JoinRate int
	// RoomRate is how many rooms one address may open a minute (a
	// minute's worth at once); a new room's name over it gets
	// Error{ErrCodeFlood}. Default 30.
	RoomRate int
	// RoomsPerAddr is how many of the rooms open at once one address may
	// have opened; the last eighth of MaxRooms opens only for an address
	// that has opened none of those open. Default 16.
	RoomsPerAddr int
	// SpectatorsPerAddr is how many of a room's MaxSpectators slots one
	// address may take; the last eighth (at least one) go only to an
	// address watching that room from none. Default 4.
	SpectatorsPerAddr int
	// LobbyRate is how many room lists (ListRooms) one address is
	// answered a second, in bursts of LobbyBurst seconds' worth. Default 25.
	LobbyRate int
	// LobbyRateTotal is how many room lists all addresses together are
	// answered a second (bursts of LobbyBurst seconds' worth); past it
	// only an address that asked for none lately is answered, from a
	// reserve of a tenth as many. Default 250.
	LobbyRateTotal int
	// TickBudget is what a tick may cost the adapter, from when it was due
	// until its frames were handed to the sockets, as it measures and
	// reports with Load: while the last second's ticks cost it, or would
	// with a newcomer, a Hello or Spectate gets Error{ErrCodeFull}
	// "server full: at capacity" (capacity.go). 0: nobody is refused for
	// load (an adapter that reports none refuses nobody either). The TCP
	// server's default is DefaultTickBudget.
	TickBudget time.Duration
	// LoadFloor is how many members (players and spectators, every
	// room's) the server may have before anybody is refused for load: a
	// few players cost a tick next to nothing, so ticks over the budget
	// with fewer are the machine's doing (other processes, SSH sessions
	// drawing in the same process), which refusing a newcomer would not
	// mend. 0: from the first. The TCP server's default is
	// DefaultLoadFloor.
	LoadFloor int
	// Traces are the traces a teacher may give a room's network (a
	// network that changes over time; see link.Trace), in the order the
	// teacher's screen lists them: a teacher of protocol version 6 is
	// told the first protocol.MaxTraces. None: a teacher sets the
	// network by its figures alone. RegisterFlags makes them the bundled
	// traces and the -trace files (OfferedTraces).
	Traces []*link.Trace
	// ownTraces are the -trace files, which RegisterFlags' check adds to
	// the bundled traces.
	ownTraces []*link.Trace
	// LineWait is the longest a newcomer the server cannot take at once
	// may wait in line (line.go): one whose estimated wait is longer is
	// refused at once, one still waiting after it is refused then. 0: no
	// line, and newcomers are refused "server full: at capacity" while the
	// ticks cost their budget (capacity.go). The line needs a TickBudget
	// and ticks (Config.Rate above 0). The TCP server's default is
	// DefaultLineWait.
	LineWait time.Duration
	// LineMax is how many may wait in line at once: past it a newcomer is
	// refused "the line is full". One address may hold MaxPlayersPerAddr
	// of its places (joined players counted), and its last eighth only
	// addresses with nobody in it. Default DefaultLineMax.
	LineMax int
	// PerceptionSeed seeds the order of the rounds of every student in
	// every run of a perception test (perceive.go), so that a student
	// cannot learn it from another server or session; 0 is a seed like
	// any other, for tests.
	PerceptionSeed uint64
	// CodeTries is how many wrong class codes one address may present a
	// minute (a minute's worth at once); past them its codes are refused
	// unread, "rate limited" (classcode.go). Default DefaultCodeTries.
	CodeTries int
	// CodeSeed seeds the generator of the classes' codes: a secret, so
	// that nobody can foretell a code (an adapter draws it from
	// crypto/rand); the zero seed is a seed like any other, for tests.
	CodeSeed [32]byte
	// TeachBots is the most of the server's own bots a teacher may put in
	// a room (crowd.go; -teach-bots); 0: none. Its adapter runs them
	// (Out.Crowds).
	TeachBots int
	// MaxConns is the adapter's cap on connections, which the bots a
	// teacher asks for count against; 0: none the hub knows of.
	MaxConns int
}

// WithDefaults returns o with its zero fields filled in (not the game
// numbers: the Core does that).
func (o Options) WithDefaults() Options {
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.MaxPlayersPerAddr <= 0 {
		o.MaxPlayersPerAddr = DefaultMaxPlayersPerAddr
	}
	if o.RoomPlayers <= 0 {
		o.RoomPlayers = DefaultRoomPlayers
	}
	if o.MaxRooms <= 0 {
		o.MaxRooms = DefaultMaxRooms
	}
	if o.JoinRate <= 0 {
		o.JoinRate = DefaultJoinRate
	}
	if o.RoomRate <= 0 {
		o.RoomRate = DefaultRoomRate
	}
	if o.RoomsPerAddr <= 0 {
		o.RoomsPerAddr = DefaultRoomsPerAddr
	}
	if o.SpectatorsPerAddr <= 0 {
		o.SpectatorsPerAddr = DefaultSpectatorsPerAddr
	}
	if o.LobbyRate <= 0 {
		o.LobbyRate = DefaultLobbyRate
	}
	if o.LobbyRateTotal <= 0 {
		o.LobbyRateTotal = DefaultLobbyRateTotal
	}
	if o.CodeTries <= 0 {
		o.CodeTries = DefaultCodeTries
	}
	return o
}
