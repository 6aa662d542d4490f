package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/bot"
	"gridlag/client/tcp"
	"gridlag/front"
	"gridlag/front/remote"
	"gridlag/front/sshd"
	"gridlag/front/web"
	"gridlag/grid"
	"gridlag/lab/record"
	"gridlag/ops/metrics"
	"gridlag/protocol"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/tui"
)

// gameFlags are the flags of the default mode (play), -connect and -server.
type gameFlags struct {
	serve    bool
	addr     string
	connect  string
	spectate bool
	room     string
	lobby    bool
	mode     front.Mode // the terminal's: -spectate, -lobby and -room, parsed once (check)
	name     string
	latency  time.Duration
	jitter   time.Duration
	loss     float64
	rate     int
	moveTime time.Duration
	mapPath  string
	lag      lagFlags
	round    time.Duration
	bots     int
	botsSet  bool // -bots was given
	ssh      string
	sshKey   string
	teachers string // -teachers: the SSH keys that may teach
	teach    string // -teach: the room this terminal teaches
	sshLimit sshLimits
	web      webFlags
	limits   gameLimits
	drain    time.Duration
	resume   time.Duration
	logPath  string
	debug    bool
	agones   agonesFlags
	scale    scaleFlags
	ops      opsFlags
	rec      recordFlags
}

// scaleFlags are the flags of the tools for scale: -map-gen, -seed and
// -metrics.
type scaleFlags struct {
	mapGen  mapSize
	seed    int64
	metrics string
}

// sshLimits are the SSH front end's caps, -ssh-per-addr, -ssh-max,
// -ssh-handshakes, -ssh-handshakes-per-addr, -ssh-idle, -ssh-handshake and
// -ssh-banner.
type sshLimits struct {
	perAddr, max                  int
	handshakes, handshakesPerAddr int
	idle, handshake, banner       time.Duration
	records                       int   // -ssh-records: recordings kept, 0 = none
	recordMax                     int64 // -ssh-record-max
}

// gameLimits are the game port's caps: -max-players, -max-conns,
// -max-conns-per-addr, -max-players-per-addr, -send-queue,
// -send-queue-bytes, -write-buffer, -write-timeout, -room-players,
// -max-rooms, and the shares and rates of each address: -join-rate,
// -room-rate, -rooms-per-addr, -spectators-per-addr, -lobby-rate,
// -lobby-rate-total, with -bot-addrs; and admission by load, -tick-budget
// and -load-floor.
type gameLimits struct {
	players, conns, connsPerAddr, playersPerAddr int
	sendQueue, sendQueueBytes, writeBuffer       int
	writeTimeout, tickBudget                     time.Duration
	roomPlayers, rooms, loadFloor                int
	joinRate, roomRate, lobbyRate, lobbyTotal    int
	roomsPerAddr, spectatorsPerAddr              int
	botAddrs                                     []netip.Prefix
}

// defaultMaxPlayers is -max-players' default, sized for a 2-core machine:
// 1,000 players take about a quarter of a core (README, Figures).
const defaultMaxPlayers = 1000

// options are the server options of the limits (the player cap is a game
// number: see serverConfig).
func (l gameLimits) options() server.Options {
	return server.Options{
		Hub: hub.Options{MaxPlayersPerAddr: l.playersPerAddr, RoomPlayers: l.roomPlayers, MaxRooms: l.rooms,
			JoinRate: l.joinRate, RoomRate: l.roomRate, LobbyRate: l.lobbyRate, LobbyRateTotal: l.lobbyTotal,
			RoomsPerAddr: l.roomsPerAddr, SpectatorsPerAddr: l.spectatorsPerAddr, TickBudget: l.tickBudget, LoadFloor: l.loadFloor},
		MaxConns: l.conns, MaxConnsPerAddr: l.connsPerAddr,
		SendQueue: l.sendQueue, SendQueueBytes: l.sendQueueBytes, WriteBuffer: l.writeBuffer, WriteTimeout: l.writeTimeout,
		BotAddrs: l.botAddrs}
}

// check refuses a send queue too short for a newcomer's Joins: it is sent
// one per player in its area of interest at once, and there are at most
// world.MaxAreaPlayers of those, whatever the number online.
func (l gameLimits) check() error {
	if l.sendQueue != 0 && l.sendQueue <= world.MaxAreaPlayers {
		return fmt.Errorf("-send-queue %d must be more than %d, the most players one area of interest holds: a newcomer is sent one Join per player in view at once", l.sendQueue, world.MaxAreaPlayers)
	}
	return nil
}

func gameMain(args []string) error {
	f, err := parseGameFlags(args, os.Stdout)
	if err != nil {
		return err
	}
	if f.serve {
		return serveGame(f)
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	return playMain(ctx, f)
}

// parseGameFlags parses and checks the flags of the game modes (play,
// -connect, -server); -help goes to help.
func parseGameFlags(args []string, help io.Writer) (gameFlags, error) {
	var f gameFlags
	fs := newFlagSet("gridlag", help, nil)
	fs.BoolVar(&f.serve, "server", false, "run a headless server (no terminal interface); logs go to standard error unless -log is given")
	fs.StringVar(&f.addr, "addr", ":7777", "with -server: the TCP address to listen on; \"\" with -ssh = SSH players only (the game port stays on loopback)")
	fs.StringVar(&f.connect, "connect", "", "join the server at HOST:PORT instead of starting an embedded one")
	fs.BoolVar(&f.spectate, "spectate", false, "with -connect: watch the server's view (every player, their acks and round trips) instead of playing")
	fs.StringVar(&f.room, "room", "", "with -connect: the room to join or watch (1-16 printable characters); default: the server's default room, or its lobby if it has other rooms")
	fs.BoolVar(&f.lobby, "lobby", false, "show the lobby: the server's rooms, to pick one or name a new one")
	fs.StringVar(&f.name, "name", defaultName(), "your player name (1-16 printable characters)")
	fs.duration(&f.latency, "latency", 0, latencyKind, "injected round-trip latency, half each way (the slider changes it live)")
	fs.duration(&f.jitter, "jitter", 0, jitterKind, "injected jitter: 0..J extra per message, never reordering")
	fs.loss(&f.loss, "loss", "injected loss of your client's messages, either way")
	fs.int(&f.rate, "rate", world.DefaultRate, rateKind, "server update rate in Hz (states per second); 0 = one state per processed input")
	fs.duration(&f.moveTime, "move-time", world.DefaultMoveTime, moveTimeKind, "server speed limit: one move per this time")
	fs.StringVar(&f.mapPath, "map", "", "server map file ('#' wall, '.' floor); default: the embedded map")
	f.lag.define(fs, world.DefaultProtect)
	fs.duration(&f.round, "round", world.DefaultRound, roundKind, "length of a round of zap tag: the winner is announced, scores start again")
	fs.int(&f.bots, "bots", 3, botsKind, "bots walking in the world (with -server the default is 0)")
	fs.StringVar(&f.ssh, "ssh", "", "also serve players over SSH on this address, e.g. :2222")
	fs.StringVar(&f.sshKey, "ssh-key", defaultKeyPath(), "SSH host key file (ed25519, created on first start)")
	fs.StringVar(&f.teachers, "teachers", "", "the SSH keys that may teach a room (ssh -p 2222 host teach ROOM): a `FILE` in authorized_keys format, read again when it changes")
	fs.StringVar(&f.teach, "teach", "", "with -server: this terminal teaches `ROOM` (the teacher's screen: the room's network, switches and students); logs go to -log or the default log file")
	fs.int(&f.sshLimit.perAddr, "ssh-per-addr", sshd.DefaultMaxPerAddr, sessionsKind, "SSH sessions at once from one address")
	fs.int(&f.sshLimit.max, "ssh-max", sshd.DefaultMaxSessions, sessionsKind, "SSH sessions at once in all")
	fs.int(&f.sshLimit.handshakes, "ssh-handshakes", sshd.DefaultMaxHandshakes, sessionsKind, "SSH connections at once still in their handshake (apart from the players)")
	fs.int(&f.sshLimit.handshakesPerAddr, "ssh-handshakes-per-addr", sshd.DefaultMaxHandshakesPerAddr, sessionsKind, "of which from one address")
	fs.duration(&f.sshLimit.idle, "ssh-idle", sshd.DefaultIdleTimeout, timeoutKind, "an SSH session without a key press for this long ends")
	fs.duration(&f.sshLimit.handshake, "ssh-handshake", sshd.DefaultHandshakeTimeout, timeoutKind, "time an SSH connection has to finish its handshake and start the game")
	fs.duration(&f.sshLimit.banner, "ssh-banner", sshd.DefaultBannerTimeout, timeoutKind, "time a new SSH connection has to send its banner (the version line every client sends at once)")
	fs.int(&f.sshLimit.records, "ssh-records", remote.DefaultKeep, recordsKind, "SSH players' game recordings kept (ssh -t HOST record; fetched with ssh HOST recording > game.rec), the oldest removed first; 0 = SSH players cannot record")
	f.sshLimit.recordMax = 16 << 20
	fs.value(&sizeValue{p: &f.sshLimit.recordMax, r: recordSize}, "ssh-record-max", fmt.Sprintf("the largest SSH player's recording (a `size`, %v): it stops there, saying so", recordSize))
	f.web.define(fs)
	fs.int(&f.limits.players, "max-players", defaultMaxPlayers, sessionsKind, "players in the world at once (spectators apart)")
	fs.int(&f.limits.conns, "max-conns", server.DefaultMaxConns, connsKind, "game connections open at once in all, joined or not")
	fs.int(&f.limits.connsPerAddr, "max-conns-per-addr", server.DefaultMaxConnsPerAddr, connsKind, "game connections open at once from one address")
	fs.int(&f.limits.playersPerAddr, "max-players-per-addr", hub.DefaultMaxPlayersPerAddr, sessionsKind, "players joined at once from one address (a classroom behind one NAT is one address)")
	fs.int(&f.limits.sendQueue, "send-queue", server.DefaultSendQueue, queueKind, "frames that may wait for a game client before it is dropped as too slow; more than the 2048 players an area of interest holds")
	fs.int(&f.limits.writeBuffer, "write-buffer", server.DefaultWriteBuffer, bufferKind, "kernel send buffer of each game connection, in bytes: what a client that stops reading can hold")
	fs.int(&f.limits.roomPlayers, "room-players", hub.DefaultRoomPlayers, sessionsKind, "players at once in each named room (the default room takes -max-players)")
	fs.int(&f.limits.rooms, "max-rooms", hub.DefaultMaxRooms, maxRoomsKind, "rooms open at once, the default room included")
	fs.int(&f.limits.sendQueueBytes, "send-queue-bytes", server.DefaultSendQueueBytes, queueBytesKind, "bytes that may wait for a game client before it is dropped as too slow")
	fs.int(&f.limits.joinRate, "join-rate", hub.DefaultJoinRate, rateLimitKind, fmt.Sprintf("joins (Hello, Spectate, Resume) one address may make a second, %d seconds' worth at once", hub.JoinBurst))
	fs.int(&f.limits.roomRate, "room-rate", hub.DefaultRoomRate, rateLimitKind, "rooms one address may open a minute")
	fs.int(&f.limits.roomsPerAddr, "rooms-per-addr", hub.DefaultRoomsPerAddr, maxRoomsKind, "of the rooms open, how many one address may have opened (the last eighth of -max-rooms only for an address that opened none)")
	fs.int(&f.limits.spectatorsPerAddr, "spectators-per-addr", hub.DefaultSpectatorsPerAddr, spectatorsKind, "of a room's spectator slots, how many one address may take (the last eighth only for an address watching it from none)")
	fs.int(&f.limits.lobbyRate, "lobby-rate", hub.DefaultLobbyRate, rateLimitKind, fmt.Sprintf("room lists one address is answered a second, %d seconds' worth at once", hub.LobbyBurst))
	fs.int(&f.limits.lobbyTotal, "lobby-rate-total", hub.DefaultLobbyRateTotal, rateLimitKind, "room lists all addresses together are answered a second; past it, only addresses that asked for none lately")
	fs.value(&prefixesValue{p: &f.limits.botAddrs}, "bot-addrs", "addresses or networks (`LIST`, comma-separated, e.g. 127.0.0.0/8) whose players may say they are bots (gridlag bots, gridlag load); default: only the server's own -bots")
	fs.duration(&f.limits.writeTimeout, "write-timeout", server.DefaultWriteTimeout, stallKind, "a game client that reads nothing for this long is dropped")
	fs.duration(&f.limits.tickBudget, "tick-budget", server.DefaultTickBudget, lengthKind, "newcomers are refused (\"server full: at capacity\") while the last second's ticks take this long from when they were due until their frames are in the sockets (their 90th percentile), or would with them; 0 = off")
	fs.int(&f.limits.loadFloor, "load-floor", server.DefaultLoadFloor, loadFloorKind, "nobody is refused for load (-tick-budget) while the server has fewer players and spectators than this: slow ticks with so few are another process's doing")
	fs.duration(&f.drain, "drain", 10*time.Second, lengthKind, "with -server: on SIGTERM or Ctrl-C, warn the players and play on this long before closing (a second signal closes at once)")
	fs.duration(&f.resume, "resume", world.DefaultResume, resumeKind, "a player whose connection drops gets the same avatar back if it returns within this time; 0 = off")
	fs.StringVar(&f.logPath, "log", "", "log file (\"-\" = standard error); default "+defaultLogPath()+" when playing, standard error with -server")
	fs.BoolVar(&f.debug, "debug", false, "log at debug level")
	// The tools for scale.
	fs.value(&mapSizeValue{p: &f.scale.mapGen}, "map-gen", "generate a `WxH` map of rooms and corridors (see -seed) instead of -map")
	fs.seed(&f.scale.seed, "seed", 1, "seed of -map-gen: the same seed, the same map")
	fs.StringVar(&f.scale.metrics, "metrics", "", "serve Prometheus metrics (/metrics) and the health checks (/healthz, /readyz) on this address, e.g. 127.0.0.1:9100; off by default")
	f.ops.define(fs)
	f.agones.define(fs)
	f.rec.define(fs, "your game (every message in and out with its time, every key)", true)
	fs.usage = gameUsage
	if err := fs.parse(args); err != nil {
		return f, err
	}
	f.botsSet = fs.set("bots")
	if f.serve && !f.botsSet {
		f.bots = 0
	}
	f.ops.changed = changedSettings(fs, f.serve)
	if err := f.check(); err != nil {
		return f, fs.usageError(err)
	}
	return f, nil
}

// serveGame runs a headless server: serveMain, or a test's stand-in.
var serveGame = serveMain

// gameUsage is the head of gridlag -help: every mode, the keys, the log.
func gameUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage:")
	writeUsageLines(w, "", "  ")
	fmt.Fprintf(w, `Each mode lists its own flags: gridlag MODE -help (gridlag lab -help).

Keys while playing:
  %s
Keys in the lobby:
  %s
Keys while watching (-spectate):
  %s
Keys while teaching (-teach, ssh -p 2222 host teach ROOM):
  %s
Log file while playing: %s

Flags:
`, strings.Join(tui.KeyHelp(), "\n  "), strings.Join(tui.LobbyKeyHelp(), "\n  "), strings.Join(tui.SpectateKeyHelp(), "\n  "), strings.Join(tui.TeachKeyHelp(), "\n  "), defaultLogPath())
}

// place is where gridlag runs: a player's terminal on an embedded server
// (no -server, no -connect), a headless server (-server), or a player's
// terminal on a remote server (-connect).
type place uint8

const (
	embedded place = 1 << iota
	serving
	connecting
)

func (f *gameFlags) place() place {
	switch {
	case f.serve:
		return serving
	case f.connect != "":
		return connecting
	}
	return embedded
}

// placed are the flags that only some places take, in the order check
// looks at them: given anywhere else, gridlag refuses them, saying why.
var placed = []struct {
	given func(*gameFlags) bool
	in    place
	why   string
}{
	{func(f *gameFlags) bool { return f.logPath == "-" }, serving,
		"-log - is for -server: while playing, the screen is the game's (logs go to a file)"},
	{func(f *gameFlags) bool { return f.loss > 0 }, embedded | connecting,
		"-loss is the terminal client's (playing or spectating); a server's SSH players and bots have none"},
	{func(f *gameFlags) bool { return f.spectate }, connecting,
		"-spectate needs -connect HOST:PORT: the server to watch"},
	{func(f *gameFlags) bool { return f.agones.on }, serving,
		"-agones is for -server"},
	{func(f *gameFlags) bool { return f.botsSet && f.bots > 0 }, embedded | serving,
		"-bots starts bots on the embedded server; use `gridlag bots -connect` for a remote one"},
	{func(f *gameFlags) bool { return f.room != "" }, embedded | connecting,
		"-room is the client's: a server opens rooms as clients name them"},
	{func(f *gameFlags) bool { return f.scale.metrics != "" || f.ops.health != "" }, embedded | serving,
		"-metrics and -health serve a server's figures and health; with -connect there is no server here"},
	{func(f *gameFlags) bool { return f.web.addr != "" }, embedded | serving,
		"-web serves a server's players in a browser; with -connect there is no server here"},
}

// check refuses flags that do not go together (each flag's value was
// checked as it was parsed) and parses the terminal's mode.
func (f *gameFlags) check() error {
	if f.serve && f.connect != "" {
		return errors.New("-server and -connect do not go together")
	}
	at := f.place()
	for _, p := range placed {
		if p.given(f) && p.in&at == 0 {
			return errors.New(p.why)
		}
	}
	switch {
	case f.serve && f.addr == "" && f.ssh == "" && f.web.addr == "":
		return errors.New("-addr \"\" needs -ssh or -web: nobody could join")
	case f.mapPath != "" && f.scale.mapGen != (mapSize{}):
		return errors.New("-map and -map-gen do not go together")
	case f.teachers != "" && f.ssh == "":
		return errors.New("-teachers names teachers by their SSH keys: give -ssh too")
	case f.teach != "" && !f.serve:
		return errors.New("-teach is for -server: this terminal teaches a room of the server it runs (a remote teacher: ssh -p PORT host teach ROOM)")
	case f.teach != "" && f.agones.on:
		return errors.New("-teach and -agones do not go together: an Agones game server has no terminal (a teacher connects with ssh -p PORT host teach ROOM)")
	case f.teach != "" && f.logPath == "-":
		return errors.New("-log - and -teach do not go together: the terminal is the teacher's screen (logs go to a file)")
	case f.ops.pprof && f.scale.metrics == "":
		return errors.New("-pprof serves the profiler on the -metrics address: give -metrics ADDR")
	case (f.rec.path != "" || f.rec.cast != "") && f.serve:
		return errors.New("-record and -cast are a player's: a server's SSH players record with ssh -t HOST record")
	case f.rec.path != "" && (f.lobby || f.spectate):
		return errors.New("-record records one game in one room: give -room NAME instead of -lobby (a spectator records nothing)")
	}
	var err error
	if f.mode, err = f.parseMode(); err != nil {
		return err
	}
	if f.teach != "" {
		if err := protocol.CheckName(f.teach); err != nil {
			return fmt.Errorf("-teach %q: %w", f.teach, err)
		}
	}
	if err := protocol.CheckPlayerName(f.name, false); err != nil {
		return fmt.Errorf("-name %q: %w", f.name, err)
	}
	return f.limits.check()
}

// parseMode is the terminal's mode: -lobby, -spectate [-room NAME] or
// -room NAME; none plays.
func (f *gameFlags) parseMode() (front.Mode, error) {
	m := front.Mode{Kind: front.Play, Room: f.room}
	switch {
	case f.lobby && f.room != "":
		return m, errors.New("-room and -lobby do not go together: the lobby is for choosing a room")
	case f.lobby && f.spectate:
		return m, errors.New("-lobby is for playing; to watch a room, give -spectate -room NAME")
	case f.lobby:
		m.Kind = front.Lobby
	case f.spectate:
		m.Kind = front.Watch
	}
	if err := m.Check(); err != nil {
		return m, fmt.Errorf("-%w", err) // -room "NAME": what is wrong with it
	}
	return m, nil
}

func defaultName() string {
	if n := protocol.SanitizeName(os.Getenv("USER")); n != "" {
		return n
	}
	return "player"
}

// serverConfig builds the game numbers from the flags.
func (f *gameFlags) serverConfig() (world.Config, error) {
	m, err := server.LoadMap(f.mapPath)
	if err != nil {
		return world.Config{}, fmt.Errorf("-map: %w", err)
	}
	if g := f.scale.mapGen; g != (mapSize{}) {
		if m, err = grid.Generate(g.w, g.h, f.scale.seed); err != nil {
			return world.Config{}, fmt.Errorf("-map-gen: %w", err)
		}
	}
	cfg := world.Config{Map: m, Rate: f.rate, MoveTime: f.moveTime, LagComp: f.lag.on, Unlag: f.lag.unlag, Protect: f.lag.protect, Round: f.round,
		MaxPlayers: f.limits.players, Resume: f.resume}
	return cfg, cfg.Validate()
}

// recordings is where the SSH players' recordings are kept, in the state
// directory; nil with -ssh-records 0.
func (l sshLimits) recordings(logger *log.Logger) *remote.Recordings {
	if l.records == 0 {
		return nil
	}
	return &remote.Recordings{Dir: filepath.Join(stateDir(), "recordings"), Max: l.recordMax, Keep: l.records, Logger: logger}
}

// game is a running server with its optional SSH front end and bots.
type game struct {
	cfg     world.Config // the game numbers in force, defaults filled in
	srv     *server.Server
	ssh     *sshd.Server
	browser *web.Server // -web
	bots    func()
	webs    []*http.Server // -metrics and -health
	summary chan struct{}  // closed to stop the summaries, nil without
	addr    string
	invites []string // what to give friends to join over SSH: "ssh -p 2222 HOST", one per address
	// webInvites are the page's addresses to give friends: "http://HOST:8080/".
	webInvites []string
	errCh      chan error
}

// startGame starts the game server on addr, then the SSH front end and
// bots if asked. hook, if not nil, completes the server's options.
func startGame(ctx context.Context, f gameFlags, addr string, logger *log.Logger, bots int, hook func(*server.Options)) (*game, error) {
	cfg, err := f.serverConfig()
	if err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults() // once: a big map's main floor is found once
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	opts := f.limits.options()
	opts.Hub.Config, opts.Logger = cfg, logger
	var exp *metrics.Exporter
	if f.scale.metrics != "" || f.ops.summary > 0 {
		exp = metrics.New()
		opts.Metrics = exp
	}
	if hook != nil {
		hook(&opts)
	}
	g := &game{cfg: cfg, srv: server.New(opts), errCh: make(chan error, 3), bots: func() {}}
	g.addr = ln.Addr().String()
	if exp != nil {
		exp.Watch(g.srv.Stats)
		exp.WatchRooms(g.srv.Rooms)
		exp.WatchLoad(g.srv.Load)
	}
	webs, err := g.serveWebs(f, exp)
	if err != nil {
		ln.Close()
		g.close()
		return nil, err
	}
	go func() { g.errCh <- g.srv.Serve(ln) }()
	gameAddr := g.addr
	listening := []any{"addr", g.addr}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		gameAddr = net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
	}
	if f.ssh != "" {
		var teachers *sshd.Teachers
		if f.teachers != "" {
			if teachers, err = sshd.LoadTeachers(f.teachers, logger.WithPrefix("ssh")); err != nil {
				g.close()
				return nil, fmt.Errorf("-teachers: %w", err)
			}
		}
		g.ssh, err = sshd.New(sshd.Options{
			// Each SSH player connects through the server itself, so
			// that it counts as its SSH connection's address.
			Addr: f.ssh, HostKeyPath: f.sshKey, GameAddr: gameAddr, Dial: g.srv.Dial,
			Teachers: teachers, DialTeacher: g.srv.DialTeacher,
			Latency: f.latency, Jitter: f.jitter, Logger: logger.WithPrefix("ssh"),
			MaxPerAddr: f.sshLimit.perAddr, MaxSessions: f.sshLimit.max,
			MaxHandshakes: f.sshLimit.handshakes, MaxHandshakesPerAddr: f.sshLimit.handshakesPerAddr,
			IdleTimeout: f.sshLimit.idle, HandshakeTimeout: f.sshLimit.handshake, BannerTimeout: f.sshLimit.banner,
			Recordings: f.sshLimit.recordings(logger.WithPrefix("ssh")),
		})
		var sln net.Listener
		if err == nil {
			// Bound here, not in the goroutine: a busy port is an error
			// now, while playing as well as serving.
			sln, err = net.Listen("tcp", f.ssh)
		}
		if err != nil {
			g.close()
			return nil, fmt.Errorf("-ssh %s: %w", f.ssh, err)
		}
		if exp != nil {
			ssh := g.ssh
			exp.WatchSSH(sshd.RefusalKinds(), func() map[string]uint64 { return ssh.Stats().Refused })
		}
		go func() { g.errCh <- g.ssh.Serve(sln) }()
		listening = append(listening, "ssh", sln.Addr().String(), "hostkey", g.ssh.HostKeyFingerprint())
		if teachers != nil {
			listening = append(listening, "teacher_keys", teachers.Count())
		}
		if !f.serve {
			ifaddrs, _ := net.InterfaceAddrs()
			g.invites = sshd.Invites(sln.Addr(), ifaddrs)
		}
	}
	if f.web.addr != "" {
		bound, err := g.startWeb(f, gameAddr, logger)
		if err != nil {
			g.close()
			return nil, err
		}
		listening = append(listening, bound...)
	}
	logStart(logger, readBuild(), append(listening, webs...), f.ops.changed)
	if len(g.invites) > 0 {
		logger.Info("friends join over SSH with: " + strings.Join(g.invites, " or "))
	}
	if len(g.webInvites) > 0 {
		logger.Info("friends play in a browser at: " + strings.Join(g.webInvites, " or "))
	}
	if f.ops.summary > 0 {
		if err := g.summarise(exp, f.ops.summary, logger); err != nil {
			g.close()
			return nil, err
		}
	}
	if bots > 0 {
		// The server's own bots dial in as Own: they count against no
		// address's caps, and theirs is the one route (besides -bot-addrs)
		// on which the server believes a Hello that says it is a bot.
		own := func(ctx context.Context, _ string) (net.Conn, error) { return g.srv.Dial(ctx, server.Own) }
		stop := bot.Start(ctx, bot.Options{
			Addr: gameAddr, N: bots, Latency: f.latency, Jitter: f.jitter, Dial: own,
			Avoid: append([]grid.Pos{g.cfg.Spawn}, g.cfg.Spawns...), Logger: logger.WithPrefix("bots"),
		})
		g.bots = func() { stop() }
	}
	return g, nil
}

func (g *game) close() {
	g.bots()
	if g.summary != nil {
		close(g.summary)
		g.summary = nil // close may be called twice (the Agones game closes before its deferred close)
	}
	for _, web := range g.webs {
		web.Close()
	}
	if g.ssh != nil {
		g.ssh.Close()
	}
	if g.browser != nil {
		g.browser.Close()
	}
	g.srv.Close()
}

// serveMain runs a headless server until a signal, then shuts it down
// (see shutdown).
func serveMain(f gameFlags) error {
	path := f.logPath
	switch {
	case path == "" && f.teach != "":
		path = defaultLogPath() // the terminal is the teacher's
	case path == "":
		path = "-"
	}
	logger, closeLog, err := openLog(path, level(f.debug))
	if err != nil {
		return err
	}
	defer closeLog()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bots := f.bots
	addr := f.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ag, err := f.agones.start(logger)
	if err != nil {
		return err
	}
	g, err := startGame(ctx, f, addr, logger, bots, ag.hook)
	if err != nil {
		return err
	}
	defer g.close()
	sd := shutdown{drain: f.drain, after: time.After, notify: g.srv.Drain, people: g.srv.People, log: logger}
	if ag != nil {
		return ag.serve(sigs, g, sd)
	}
	if f.teach != "" {
		return teachHere(ctx, f, g, logger, path, sigs, sd)
	}
	select {
	case sig := <-sigs:
		logger.Info("shutting down", "signal", sig.String(), "drain", f.drain)
		sd.run(sigs)
		return nil
	case err := <-g.errCh:
		return cleanStop(err)
	}
}

// cleanStop returns nil for the error a server's Serve returns when it was
// closed: a clean stop, not a failure.
func cleanStop(err error) error {
	if errors.Is(err, server.ErrServerClosed) || errors.Is(err, sshd.ErrServerClosed) || errors.Is(err, web.ErrServerClosed) {
		return nil
	}
	return err
}

// playMain runs the terminal client in f's mode (front.Run), on an
// embedded server unless -connect is given.
func playMain(ctx context.Context, f gameFlags) error {
	logger, closeLog, path, err := openScreenLog(f.logPath, f.debug)
	if err != nil {
		return err
	}
	defer closeLog()

	addr := f.connect
	title := "gridlag — " + addr
	invite := ""
	if addr == "" {
		g, err := startGame(ctx, f, "127.0.0.1:0", logger, f.bots, nil)
		if err != nil {
			return err
		}
		defer g.close()
		addr = g.addr
		title = "gridlag — embedded server " + addr
		if len(g.invites) > 0 {
			invite = g.invites[0]
		} else if len(g.webInvites) > 0 {
			invite = g.webInvites[0]
		}
	}
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	screen, castDone, err := f.rec.castScreen(screen, title)
	if err != nil {
		return err
	}
	defer castDone()
	// A signal ends the game like q: the terminal is restored, exit 0.
	opts := tcp.Options{Options: client.Options{Name: f.name, Latency: f.latency, Jitter: f.jitter, Loss: f.loss}, Logger: logger.WithPrefix("client")}
	direct := false
	if f.rec.path != "" {
		if f.connect != "" && f.room == "" && tcp.HasRooms(ctx, addr) {
			return errors.New("-record records one game in one room, and the server has rooms: give -room NAME")
		}
		done, err := recordGame(&opts, f.rec, addr)
		if err != nil {
			return err
		}
		defer done() // after the connection closes: its last calls are in
		direct = true
	}
	return front.Run(ctx, screen, f.mode, front.Options{
		Addr:       addr,
		Client:     opts,
		Screen:     tui.Options{LogPath: path, Title: title, Invite: invite, Logger: logger.WithPrefix("tui"), Stop: ctx.Done()},
		WatchTitle: "gridlag — spectating " + addr,
		Direct:     direct,
		Log:        logger,
	})
}

// recordGame makes opts record the player's game into r's file: the
// link's seed is set, so that the recording holds it; done ends the
// recording and says where it is.
func recordGame(opts *tcp.Options, r recordFlags, addr string) (done func(), err error) {
	opts.Seed = time.Now().UnixNano()
	h := record.Header{Kind: record.KindGame, Gridlag: recordVersion(), Created: time.Now().UTC().Format(time.RFC3339),
		Game: &record.Game{Name: opts.Name, Room: opts.Room, Server: addr, Latency: record.Duration(opts.Latency),
			Jitter: record.Duration(opts.Jitter), Loss: opts.Loss, Seed: opts.Seed, Predict: true, Reconcile: true, Interpolate: true}}
	w, err := record.Create(r.path, h, r.max)
	if err != nil {
		return nil, fmt.Errorf("-record: %w", err)
	}
	j := record.NewJournal(w)
	opts.Journal = j.Call
	return func() {
		if err := j.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "gridlag: -record %s: %v\n", r.path, err)
			return
		}
		if j.Err() == record.ErrFull {
			sayFull(r.path, r.max, j.Last())
		}
		sayRecorded(r.path, w.Size(), j.Last())
	}, nil
}

func level(debug bool) log.Level {
	if debug {
		return log.DebugLevel
	}
	return log.InfoLevel
}
