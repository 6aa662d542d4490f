package server

import (
	"io"
	"net/netip"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/server/admit"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// Defaults of the adapter's options, applied by New (the hub's are the
// hub package's).
const (
	DefaultHandshakeTimeout = 5 * time.Second
	DefaultIdleTimeout      = 30 * time.Second
	DefaultWriteTimeout     = 5 * time.Second
	// DefaultSendQueue has room for a newcomer's Join of every player in
	// its area of interest (at most world.MaxAreaPlayers), sent at once,
	// and for seconds of States.
	DefaultSendQueue = 4096
	// DefaultMaxConns is sized for a 2-core machine with GiBs of memory:
	// each connection costs a reading goroutine and its socket's buffers
	// (at most about 150 KB with the default write buffer).
	DefaultMaxConns       = 4096
	DefaultMaxMessageRate = 200
	// DefaultMaxConnsPerAddr leaves room for a classroom of about 30
	// behind one NAT address (hub.DefaultMaxPlayersPerAddr), and stops one
	// address from taking more than its share of MaxConns.
	DefaultMaxConnsPerAddr = 64
	// DefaultWriteBuffer is the kernel send buffer cmd/gridlag gives every
	// client socket: a few seconds of States for a full server.
	DefaultWriteBuffer = 64 << 10
	DefaultHeartbeat   = 2 * time.Second
	// DefaultSendQueueBytes bounds the bytes waiting for one client: a
	// big map's chunks (225 KB), a newcomer's Joins and seconds of States
	// fit many times over, and a client that reads nothing is owed no
	// more than this, whatever it asks for.
	DefaultSendQueueBytes = 4 << 20
	// DefaultTickBudget is what cmd/gridlag gives hub.Options.TickBudget:
	// half an update interval at the default 20 Hz. A tick that costs
	// this much, from its due time until its frames are in the sockets,
	// delays a State by as much at most, so that a round trip (the wait
	// for the tick, up to an interval, and this) stays within about two
	// intervals, 100 ms; past it newcomers are refused "server full: at
	// capacity" (see hub.Hub.Load).
	DefaultTickBudget = 25 * time.Millisecond
	// DefaultLoadFloor is what cmd/gridlag gives hub.Options.LoadFloor:
	// below 256 players and spectators nobody is refused for load. At
	// that size a tick costs about a millisecond on a 1024x1024 map
	// (docs/performance.md): a budget of 25 ms missed with fewer is another
	// process's doing, or the server's SSH sessions'.
	DefaultLoadFloor = 256
)

// Options configure the TCP server.
type Options struct {
	// Hub are the game numbers (Hub.Config: a Core takes Rate as given;
	// cmd passes world.DefaultRate, 20, unless told otherwise), the rooms'
	// caps and what each address may take of what all share (package
	// hub).
	Hub hub.Options
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
	// world.MaxAreaPlayers: a newcomer is sent one Join per player in
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
	// Metrics receives the server's measurements (tick durations, bytes
	// out, refusals and leaves by reason); nil drops them.
	Metrics Metrics
	// MaxConnsPerAddr caps the connections open at once from one remote
	// IP address; above it a new connection from that address gets
	// Error{ErrCodeFull} and is closed. Default 64.
	MaxConnsPerAddr int
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
	// every Event a room's world reports (joins, leaves, refusals,
	// spectators), its Room set, in order, after it is logged. Like
	// Heartbeat it must return at once.
	OnEvent func(world.Event)
	// SendQueueBytes bounds the bytes of the frames waiting for one
	// client, as SendQueue bounds their number: a client owed more is
	// disconnected as too slow. Default 4 MiB.
	SendQueueBytes int
	// BotAddrs are the remote addresses whose Hello may say it is a bot
	// (gridlag bots, gridlag load): a Hello's Bot flag is believed from
	// the server's own connections (Dial from Own) and from these only, and a
	// name reserved for bots (names.CheckPlayer) is refused to
	// everyone else. Nil: the server's own bots only.
	BotAddrs []netip.Prefix
	// JoinWait is the longest a newcomer's Hello or Spectate is held
	// back for the ticks' spare time while the hub does not pace the
	// joins in its line (joingate.go); past it the newcomer is refused
	// "server busy". Default DefaultJoinWait.
	JoinWait time.Duration
	// PerceptionDir is where the answers of the rooms' perception tests
	// are saved, a CSV file per class (see hub.NotePerception); "": they
	// are not saved, and the teachers are told so.
	PerceptionDir string
	// Crowd, if set, runs the server's own bots in a room as a teacher
	// asked (hub.CrowdOrder: room is to have bots of them, 0 none); the
	// program running the server wires it (ops/host). It is called on the
	// loop's goroutine and must return at once. Without it no teacher is
	// given bots (Hub.TeachBots is 0).
	Crowd func(room string, bots int)

	// cadenceFloor, if set, replaces the package's cadenceFloor (the
	// fewest members from which the join gate judges the ticks' cadence):
	// a test's few players stand for a crowd.
	cadenceFloor int
}

// withDefaults fills the zero fields of the adapter's options and the
// hub's (not the game numbers: the Core does that).
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = log.New(io.Discard)
		o.Logger.SetLevel(log.FatalLevel + 1) // skip formatting as well
	}
	if o.Crowd == nil {
		o.Hub.TeachBots = 0 // nobody to run them
	}
	o.HandshakeTimeout = admit.Or(o.HandshakeTimeout, DefaultHandshakeTimeout)
	o.IdleTimeout = admit.Or(o.IdleTimeout, DefaultIdleTimeout)
	o.WriteTimeout = admit.Or(o.WriteTimeout, DefaultWriteTimeout)
	o.SendQueue = admit.Or(o.SendQueue, DefaultSendQueue)
	o.MaxConns = admit.Or(o.MaxConns, DefaultMaxConns)
	o.MaxConnsPerAddr = admit.Or(o.MaxConnsPerAddr, DefaultMaxConnsPerAddr)
	o.Hub.MaxConns = o.MaxConns
	o.MaxMessageRate = admit.Or(o.MaxMessageRate, DefaultMaxMessageRate)
	if o.Metrics == nil {
		o.Metrics = noMetrics{}
	}
	o.HeartbeatInterval = admit.Or(o.HeartbeatInterval, DefaultHeartbeat)
	o.SendQueueBytes = admit.Or(o.SendQueueBytes, DefaultSendQueueBytes)
	o.JoinWait = admit.Or(o.JoinWait, DefaultJoinWait)
	o.Hub = o.Hub.WithDefaults()
	return o
}
