package sshd

import (
	"context"
	"net"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/front/remote"
	"gridlag/server/admit"
)

// Title is the top line of the game's screen over SSH.
const Title = "gridlag over ssh"

// Defaults for the zero values of Options: the caps and timeouts of
// every front end (remote's), and SSH's own.
const (
	DefaultAddr             = ":2222"
	DefaultMaxSessions      = remote.DefaultMaxSessions
	DefaultMaxPerAddr       = remote.DefaultMaxPerAddr
	DefaultHandshakeTimeout = remote.DefaultHandshakeTimeout
	DefaultIdleTimeout      = remote.DefaultIdleTimeout
	// DefaultMaxHandshakes and DefaultMaxHandshakesPerAddr cap the
	// connections still in their handshake, apart from the players: a
	// crowd of connections that never send a banner cannot take the
	// places of players, and one address takes at most an eighth of
	// them. A full pool makes room for a newcomer from an address holding
	// fewer by closing the oldest pending handshake of the address
	// holding the most.
	DefaultMaxHandshakes        = 64
	DefaultMaxHandshakesPerAddr = 8
	// DefaultBannerTimeout is how long a new connection has to send its
	// SSH banner, the line every client sends at once: a socket that sends
	// nothing gives its place back sooner than the whole handshake's
	// deadline.
	DefaultBannerTimeout = 3 * time.Second
)

// Options configure a Server.
type Options struct {
	// Addr is the TCP address ListenAndServe listens on; DefaultAddr if
	// empty.
	Addr string
	// HostKeyPath is the ed25519 host key file, in OpenSSH format. It is
	// generated on first start (mode 0600, parent directories created)
	// and reused on every restart, so players' known_hosts stay valid.
	HostKeyPath string
	// GameAddr is the game server's TCP address each session's client
	// dials, unless Dial is set.
	GameAddr string
	// Dial, if set, opens each session's connections to the game server
	// in place of a TCP connection to GameAddr, for the session's player
	// from remote, the SSH connection's remote address. A server in the
	// same process passes its own (server.Server.Dial): the player then
	// counts as remote against the game's per-address caps, rather than
	// as the loopback address every session would share.
	Dial func(ctx context.Context, remote net.Addr) (net.Conn, error)
	// Teachers are the keys whose sessions may teach a room
	// (TeachCommand); nil: nobody may. DialTeacher opens a teacher's
	// connection to a game server in the same process
	// (server.Server.DialTeacher), which takes its Teach; without it
	// nobody may teach either.
	Teachers    *Teachers
	DialTeacher func(ctx context.Context, remote net.Addr) (net.Conn, error)
	// ClassCode, if set, says whether a code is a class's now, and its
	// room (server.Server.ClassCode): a session whose login is one is
	// held to the cap in all only, not to its address's (classcode.go).
	ClassCode func(code string) (room string, ok bool)
	// JoinCode, if set, says on a teacher's screen how students join
	// with the class's code (tui.Options.JoinCode).
	JoinCode func(code string) []string
	// Latency is each session's starting injected round trip; a player
	// changes their own with the latency slider.
	Latency time.Duration
	// Jitter is each session's injected jitter per message.
	Jitter time.Duration
	// Logger receives the server's log; nil discards it.
	Logger *log.Logger
	// MaxSessions caps the game sessions running at once;
	// DefaultMaxSessions if zero or less. Open connections are capped at
	// twice this, which bounds connections still in their handshake.
	MaxSessions int
	// MaxPerAddr caps the game sessions from one remote IP address;
	// DefaultMaxPerAddr if zero or less. Open connections from one address
	// are capped at twice this.
	MaxPerAddr int
	// MaxHandshakes caps the connections that have not opened a session
	// yet (still in their SSH handshake), apart from the sessions'
	// caps; DefaultMaxHandshakes if zero or less.
	MaxHandshakes int
	// MaxHandshakesPerAddr caps those from one remote IP address (one
	// IPv6 /64); DefaultMaxHandshakesPerAddr if zero or less.
	MaxHandshakesPerAddr int
	// HandshakeTimeout is how long a new connection has to complete its
	// SSH handshake and start a game session, and how long a connection
	// may stay open without one; DefaultHandshakeTimeout if zero or less.
	HandshakeTimeout time.Duration
	// BannerTimeout is how long a new connection has to send its SSH
	// banner (the client's version line); DefaultBannerTimeout if zero or
	// less, and never more than HandshakeTimeout.
	BannerTimeout time.Duration
	// IdleTimeout ends a session whose player pressed no key for this long;
	// DefaultIdleTimeout if zero or less.
	IdleTimeout time.Duration
	// Recordings keeps the games of players who play with the record
	// command, for them to fetch with the recording command; nil: those
	// commands are refused, saying so.
	Recordings *remote.Recordings
	// Handler runs one session. Nil runs the game: a client of the game
	// server at GameAddr drawn by the tui.
	Handler remote.Handler
	// Attempts is how many connections a minute one address may open,
	// AttemptBurst of them at once; past it a connection is closed as it
	// arrives, before its key exchange (see attempts.go);
	// admit.DefaultAttempts and admit.DefaultAttemptBurst if zero or
	// less.
	Attempts, AttemptBurst int
	// attemptClock is the rate's clock, a test's; nil is the wall clock's.
	attemptClock func() time.Duration
}

// withDefaults returns o with its zero values replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	remote.SetDefaults(&o.MaxSessions, &o.MaxPerAddr, &o.HandshakeTimeout, &o.IdleTimeout, &o.Logger)
	o.MaxHandshakes = admit.Or(o.MaxHandshakes, DefaultMaxHandshakes)
	o.MaxHandshakesPerAddr = admit.Or(o.MaxHandshakesPerAddr, DefaultMaxHandshakesPerAddr)
	o.BannerTimeout = admit.Or(o.BannerTimeout, DefaultBannerTimeout)
	remote.SetAttemptDefaults(&o.Attempts, &o.AttemptBurst)
	return o
}
