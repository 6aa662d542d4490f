package server

import (
	"io"
	"net/netip"
	"time"

	"github.com/charmbracelet/log"
)

// Defaults of the adapter's options, applied by New.
const (
	DefaultHandshakeTimeout = 5 * time.Second
	DefaultIdleTimeout      = 30 * time.Second
	DefaultWriteTimeout     = 5 * time.Second
	// DefaultSendQueue has room for a newcomer's Join of every player in
	// its area of interest (at most protocol.MaxAreaPlayers), sent at once,
	// and for seconds of States.
	DefaultSendQueue = 4096
	// DefaultMaxConns is sized for a 2-core machine with GiBs of memory:
	// each connection costs a reading goroutine and its socket's buffers
	// (at most about 150 KB with the default write buffer).
	DefaultMaxConns       = 4096
	DefaultMaxMessageRate = 200
	DefaultPingInterval   = time.Second
	// DefaultMaxConnsPerAddr and DefaultMaxPlayersPerAddr leave room for a
	// classroom of about 30 behind one NAT address, and stop one address
	// from taking more than its share of MaxConns and of the player slots.
	DefaultMaxConnsPerAddr   = 64
	DefaultMaxPlayersPerAddr = 32
	// DefaultWriteBuffer is the kernel send buffer cmd/gridlag gives every
	// client socket: a few seconds of States for a full server.
	DefaultWriteBuffer = 64 << 10
	DefaultHeartbeat   = 2 * time.Second
	// DefaultRoomPlayers caps a named room: a match of a few dozen.
	DefaultRoomPlayers = 32
	// DefaultMaxRooms caps the rooms open at once, the default room
	// included (each costs a Core and its map's world).
	DefaultMaxRooms = 256
	// DefaultSendQueueBytes bounds the bytes waiting for one client: a
	// big map's chunks (225 KB), a newcomer's Joins and seconds of States
	// fit many times over, and a client that reads nothing is owed no
	// more than this, whatever it asks for.
	DefaultSendQueueBytes = 4 << 20
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
)

// Options configure the TCP server.
type Options struct {
	// Config are the game numbers. The Core takes Rate as given; cmd
	// passes DefaultRate (20) unless told otherwise.
	Config
	// Logger receives the server's log; nil discards it.
	Logger *log.Logger
	// HandshakeTimeout is how long a new connection has to send its
	// Hello. Default 5s.
	HandshakeTimeout time.Duration
	// IdleTimeout disconnects a client that sends nothing for this long.
	// Default 30s (clients ping every second).
	IdleTimeout time.Duration
	// WriteTimeout disconnects a client whose socket accepts no data for
	// this long: a client that stopped reading, once its socket buffers are
	// full. A client that reads slowly but reads makes progress and stays.
	// Default 5s.
	WriteTimeout time.Duration
	// SendQueue is how many frames may wait for a client before it counts
	// as stalled and is disconnected. It must exceed
	// protocol.MaxAreaPlayers: a newcomer is sent one Join per player in
	// its area of interest at once. Default 4096.
	SendQueue int
	// MaxMessageRate is how many messages per second a client may send,
	// sustained, with bursts of twice as many. Above it the client is
	// disconnected for flooding. Default 200.
	MaxMessageRate int
	// MaxConns caps the connections open at once, joined or not (each
	// costs a goroutine and its socket's buffers). Above it a new
	// connection gets Error{ErrCodeFull} and is closed. Default 4096.
	MaxConns int
	// PingInterval is how often the server pings every player to measure
	// the round trips spectators are shown (Core.Ping). Default 1s.
	PingInterval time.Duration
	// Metrics receives the server's measurements (tick durations, bytes
	// out, refusals and leaves by reason); nil drops them.
	Metrics Metrics
	// MaxConnsPerAddr caps the connections open at once from one remote
	// IP address; above it a new connection from that address gets
	// Error{ErrCodeFull} and is closed. Default 64.
	MaxConnsPerAddr int
	// MaxPlayersPerAddr caps the players joined at once from one remote
	// IP address; above it a Hello gets Error{ErrCodeFull}. Default 32.
	MaxPlayersPerAddr int
	// WriteBuffer, if positive, sets the kernel send buffer (SO_SNDBUF) of
	// every client socket, bounding the memory a stalled client can hold
	// and making it count as stalled sooner. 0 keeps the system default.
	WriteBuffer int
	// Heartbeat, if set, is called every HeartbeatInterval from the
	// goroutine that owns the world, between its ticks: a stuck world stops
	// the beats, which is what a health check wants to notice. It must
	// return at once (hand the work to another goroutine): the world waits
	// for it.
	Heartbeat func()
	// HeartbeatInterval is how often Heartbeat is called, and the world's
	// goroutine notes the beat that Health reads (whether or not Heartbeat
	// is set). Default 2s.
	HeartbeatInterval time.Duration
	// OnEvent, if set, is called from the goroutine that owns the world with
	// every Event the Core reports (joins, leaves, refusals, spectators), in
	// order, after it is logged. Like Heartbeat it must return at once.
	OnEvent func(Event)
	// RoomPlayers caps the players of each named room (the default room
	// takes MaxPlayers). Default 32.
	RoomPlayers int
	// MaxRooms caps the rooms open at once, the default room included: a
	// Hello or Spectate naming a new room above it gets Error{ErrCodeFull}.
	// Default 256.
	MaxRooms int
	// SendQueueBytes bounds the bytes of the frames waiting for one
	// client, as SendQueue bounds their number: a client owed more is
	// disconnected as too slow. Default 4 MiB.
	SendQueueBytes int
	// JoinRate is how many joins (Hello, Spectate or Resume, each of which
	// may send the whole map) one remote address may make a second, in
	// bursts of JoinBurst seconds' worth; a join over it gets
	// Error{ErrCodeFlood}. Default 10.
	JoinRate int
	// RoomRate is how many rooms one remote address may open a minute (a
	// minute's worth at once); a new room's name over it gets
	// Error{ErrCodeFlood}. Default 30.
	RoomRate int
	// RoomsPerAddr is how many of the rooms open at once one remote address
	// may have opened; the last eighth of MaxRooms opens only for an
	// address that has opened none of those open. Default 16.
	RoomsPerAddr int
	// SpectatorsPerAddr is how many of a room's MaxSpectators slots one
	// remote address may take; the last eighth (at least one) go only to
	// an address watching that room from none. Default 4.
	SpectatorsPerAddr int
	// LobbyRate is how many room lists (ListRooms) one remote address is
	// answered a second, in bursts of LobbyBurst seconds' worth. Default 25.
	LobbyRate int
	// LobbyRateTotal is how many room lists all addresses together are
	// answered a second (bursts of LobbyBurst seconds' worth); past it
	// only an address that asked for none lately is answered, from a
	// reserve of a tenth as many. Default 250.
	LobbyRateTotal int
	// BotAddrs are the remote addresses whose Hello may say it is a bot
	// (gridlag bots, gridlag load): a Hello's Bot flag is believed from
	// the server's own connections (Dial from Own) and from these only, and a
	// name reserved for bots (protocol.CheckPlayerName) is refused to
	// everyone else. Nil: the server's own bots only.
	BotAddrs []netip.Prefix
}

// withDefaults fills the zero fields of the adapter's options (not the game
// numbers: the Core does that).
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = log.New(io.Discard)
		o.Logger.SetLevel(log.FatalLevel + 1) // skip formatting as well
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.SendQueue <= 0 {
		o.SendQueue = DefaultSendQueue
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxConnsPerAddr <= 0 {
		o.MaxConnsPerAddr = DefaultMaxConnsPerAddr
	}
	if o.MaxPlayersPerAddr <= 0 {
		o.MaxPlayersPerAddr = DefaultMaxPlayersPerAddr
	}
	if o.MaxMessageRate <= 0 {
		o.MaxMessageRate = DefaultMaxMessageRate
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.Metrics == nil {
		o.Metrics = noMetrics{}
	}
	if o.HeartbeatInterval <= 0 {
		o.HeartbeatInterval = DefaultHeartbeat
	}
	if o.RoomPlayers <= 0 {
		o.RoomPlayers = DefaultRoomPlayers
	}
	if o.MaxRooms <= 0 {
		o.MaxRooms = DefaultMaxRooms
	}
	if o.SendQueueBytes <= 0 {
		o.SendQueueBytes = DefaultSendQueueBytes
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
	return o
}
