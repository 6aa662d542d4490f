// Package host runs a game server's services as one group: the game
// server, its SSH and web front ends, the metrics and health pages, the
// log's summaries, the server's own bots and its Agones side. Start binds
// every listener before anything starts, so that a busy port fails at
// once, naming its flag; Run serves until its context ends (a signal),
// then stops the group in one place (stop.go): the drain, then each
// service closed in order. A player's embedded server is the same host in
// the player's process.
package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client/bot"
	"gridlag/front"
	"gridlag/front/sshd"
	"gridlag/front/web"
	"gridlag/grid"
	"gridlag/ops/agones"
	"gridlag/ops/metrics"
	"gridlag/server"
	"gridlag/server/world"
)

// Config is a game server and what runs beside it, as a command line
// gives it (RegisterFlags).
type Config struct {
	// Addr is the game port's address (-addr); "" keeps the game port on
	// loopback, for the front ends alone.
	Addr string
	// Server are the game server's caps, its hub's rules and the game
	// numbers (Server.Hub.Config, the map apart); Start sets its Logger
	// and Metrics.
	Server server.Options
	// Map is where the map comes from (-map, -map-gen, -seed).
	Map server.MapSource
	// SSHAddr serves players over SSH there (-ssh); "" serves none. SSH
	// are the front end's settings; Start sets what joins it to the game.
	SSHAddr string
	SSH     sshd.Options
	// Teachers is the file of the SSH keys that may teach (-teachers).
	Teachers string
	// WebAddr serves players in a browser there (-web); "" serves none.
	WebAddr string
	Web     web.Options
	// MetricsAddr serves the metrics, the health checks and, with Pprof,
	// the profiler (-metrics); HealthAddr the health checks alone
	// (-health). "" serves none.
	MetricsAddr, HealthAddr string
	Pprof                   bool
	// Summary logs a summary line this often (-summary); 0 logs none.
	Summary time.Duration
	// Agones makes the server an Agones game server (-agones): Run then
	// serves as agones.Game.Serve says.
	Agones agones.Config
	// Bots walk in the world, the server's own (-bots).
	Bots int
	// Latency and Jitter are the injected link SSH and web players and
	// the bots start with.
	Latency, Jitter time.Duration
	// Drain is how long the players are warned and play on when the
	// server stops, before it closes (-drain); 0 closes at once.
	Drain time.Duration
	// MemoryLimit is the process's soft memory limit (-memory-limit),
	// applied by the command that runs the host: it is the process's,
	// not one host's.
	MemoryLimit server.MemoryLimit
	// Hurry brings the signals after the first (Signals): one ends the
	// drain at once.
	Hurry <-chan os.Signal
	// Invite logs the addresses friends join at, over SSH and in a
	// browser: a player's own server's.
	Invite bool
	// StateDir is where the SSH players' recordings are kept (its
	// recordings/), and the answers of the rooms' perception tests (its
	// perception/).
	StateDir string
	// Logger receives the services' logs; nil discards them.
	Logger *log.Logger
	// Version and GoVersion name the build in the start line; Settings
	// are the start line's keys and values after the addresses (the
	// flags that differ from their defaults).
	Version, GoVersion string
	Settings           []any

	// Exit ends the process when a close asked to be at once is still
	// not over ExitGrace later (os.Exit); nil never exits (a test's).
	Exit func(code int)
	// After is the drain's clock; nil is time.After (a test's clock).
	After func(time.Duration) <-chan time.Time
	// Hook, if set, completes the server's options before it starts.
	Hook func(*server.Options)
}

// Host is a running group of services.
type Host struct {
	cfg     Config
	world   world.Config // the game numbers in force, defaults filled in
	log     *log.Logger
	srv     *server.Server
	ssh     *sshd.Server // nil without -ssh
	browser *web.Server  // nil without -web
	webs    []*http.Server
	ag      *agones.Game // nil without -agones
	exp     *metrics.Exporter
	addr    string // the game port bound
	metrics string // the metrics page's address bound, "" without
	local   string // where a client in this process reaches it
	// sshInvites and webInvites are what to give friends (Invites),
	// guarded by invMu: a teacher's session reads them (JoinCode).
	invMu                  sync.Mutex
	sshInvites, webInvites []string

	bots    func()        // stops the bots
	summary chan struct{} // closed to stop the summaries, nil without
	// The scale panel in the teacher's room (crowd.go): the teachers'
	// bots (nil when -teach-bots is 0), and the counters they are told,
	// stopped by closing counters.
	crowds       *crowds
	counters     chan struct{}
	countMu      sync.Mutex
	counted      metrics.Snapshot // the registry at the last telling
	lastCounters CountersReading
	failed       chan error // a service's Serve that returned
	closed       bool
	done         chan struct{} // closed once Close is over
}

// listener is one address to bind, named by its flag.
type listener struct {
	flag, addr string
	ln         net.Listener
}

// Start binds every listener, then starts every service; on an error,
// which names the flag at fault, nothing is left running.
func Start(c Config) (*Host, error) {
	if c.Logger == nil {
		c.Logger = log.New(io.Discard)
	}
	h := &Host{cfg: c, log: c.Logger, failed: make(chan error, 5), bots: func() {}, done: make(chan struct{})}
	if err := h.prepare(); err != nil {
		return nil, err
	}
	lns, err := h.bind()
	if err != nil {
		return nil, err
	}
	if err := h.serve(lns); err != nil {
		h.Close()
		return nil, err
	}
	h.announce(lns)
	if err := h.startSummaries(); err != nil {
		h.Close()
		return nil, err
	}
	if err := h.startCounters(); err != nil {
		h.Close()
		return nil, err
	}
	h.startBots()
	return h, nil
}

// prepare does what may fail before anything is bound: the game numbers
// and the map, the teachers' keys, the Agones client.
func (h *Host) prepare() error {
	c := &h.cfg
	m, err := c.Map.Load()
	if err != nil {
		return err
	}
	cfg := c.Server.Hub.Config
	cfg.Map = m
	if err := cfg.Validate(); err != nil {
		return err
	}
	h.world = cfg.WithDefaults() // once: a big map's main floor is found once
	c.Server.Hub.Config = h.world
	if c.Teachers != "" {
		if c.SSH.Teachers, err = sshd.LoadTeachers(c.Teachers, h.log.WithPrefix("ssh")); err != nil {
			return fmt.Errorf("-teachers: %w", err)
		}
	}
	if c.Agones.On {
		c.Agones.Logger = h.log.WithPrefix("agones")
		if h.ag, err = agones.NewGame(c.Agones.Options); err != nil {
			return err
		}
	}
	return nil
}

// bind listens on every address, the game port first; a busy one closes
// those bound and fails, naming its flag.
func (h *Host) bind() ([]*listener, error) {
	c := h.cfg
	game := c.Addr
	if game == "" {
		game = "127.0.0.1:0"
	}
	want := []*listener{{flag: "addr", addr: game}}
	for _, l := range []*listener{{"ssh", c.SSHAddr, nil}, {"web", c.WebAddr, nil}, {"metrics", c.MetricsAddr, nil}, {"health", c.HealthAddr, nil}} {
		if l.addr != "" {
			want = append(want, l)
		}
	}
	for i, l := range want {
		var err error
		if l.ln, err = net.Listen("tcp", l.addr); err != nil {
			for _, bound := range want[:i] {
				bound.ln.Close()
			}
			return nil, fmt.Errorf("-%s %s: %w", l.flag, c.flagAddr(l.flag, l.addr), err)
		}
	}
	return want, nil
}

// flagAddr is the address as the flag gave it ("" for -addr on
// loopback).
func (c Config) flagAddr(flag, bound string) string {
	if flag == "addr" {
		return c.Addr
	}
	return bound
}

// serve starts the services on their listeners: the game server, then the
// front ends joined to it, then the metrics and health pages. Each
// service's Serve ends in failed.
func (h *Host) serve(lns []*listener) error {
	c := h.cfg
	opts := c.Server
	opts.Logger = h.log
	switch {
	case opts.PerceptionDir == "-":
		opts.PerceptionDir = "" // not saved: the teachers are told so
	case c.StateDir != "" && opts.PerceptionDir == "":
		opts.PerceptionDir = filepath.Join(c.StateDir, "perception")
	}
	if opts.Hub.PerceptionSeed == 0 {
		opts.Hub.PerceptionSeed = uint64(time.Now().UnixNano()) // another order of rounds every start
	}
	// The metrics are always kept: a teacher's scale panel shows them
	// (crowd.go), as /metrics and the summaries do, where asked.
	h.exp = metrics.New()
	opts.Metrics = h.exp
	exp := h.exp
	h.startCrowds(&opts)
	if h.ag != nil {
		h.hookAgones(&opts)
	}
	if c.Hook != nil {
		c.Hook(&opts)
	}
	h.srv = server.New(opts)
	game := lns[0].ln
	h.addr, h.local = game.Addr().String(), game.Addr().String()
	if tcp, ok := game.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		h.local = net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
	}
	if exp != nil {
		exp.Watch(h.srv.Stats)
		exp.WatchRooms(h.srv.Rooms)
		exp.WatchLoad(h.srv.Load)
		exp.WatchGate(h.srv.Gate)
	}
	h.run(func() error { return h.srv.Serve(game) })
	for _, l := range lns[1:] {
		var err error
		switch l.flag {
		case "ssh":
			err = h.serveSSH(l.ln, exp)
		case "web":
			err = h.serveWeb(l.ln)
			if err == nil && exp != nil {
				browser := h.browser
				exp.WatchAbandoned("web", func() uint64 { return browser.Stats().Abandoned })
				exp.WatchAttempts("web", func() uint64 { return browser.Stats().AttemptsRefused })
			}
		case "metrics":
			h.metrics = l.ln.Addr().String()
			h.servePages(l.ln, metrics.Routes{Metrics: exp, Health: h.srv.Health, Profiler: c.Pprof})
		case "health":
			h.servePages(l.ln, metrics.Routes{Health: h.srv.Health})
		}
		if err != nil {
			for _, l := range lns {
				l.ln.Close() // those not served yet (a served one's Close returns an error)
			}
			return fmt.Errorf("-%s %s: %w", l.flag, l.addr, err)
		}
	}
	return nil
}

// run runs a service's Serve, which ends in failed.
func (h *Host) run(serve func() error) {
	go func() { h.failed <- serve() }()
}

// serveSSH starts the SSH front end on ln, each player joining the game
// through the server itself, so that it counts as its SSH connection's
// address.
func (h *Host) serveSSH(ln net.Listener, exp *metrics.Exporter) error {
	c := h.cfg
	o := c.SSH
	o.Addr, o.GameAddr, o.Dial, o.DialTeacher = c.SSHAddr, h.local, h.srv.Dial, h.srv.DialTeacher
	o.ClassCode, o.JoinCode = h.srv.ClassCode, h.JoinCode
	o.Latency, o.Jitter, o.Logger = c.Latency, c.Jitter, h.log.WithPrefix("ssh")
	if r := o.Recordings; r == nil || r.Keep == 0 {
		o.Recordings = nil
	} else {
		r.Dir, r.Logger = filepath.Join(c.StateDir, "recordings"), o.Logger
	}
	var err error
	if h.ssh, err = sshd.New(o); err != nil {
		return err
	}
	if exp != nil {
		ssh := h.ssh
		exp.WatchSSH(sshd.RefusalKinds(), func() map[string]uint64 { return ssh.Stats().Refused })
		exp.WatchAbandoned("ssh", func() uint64 { return ssh.Stats().Abandoned })
		exp.WatchAttempts("ssh", func() uint64 { return ssh.Stats().Refused[sshd.KindAttempts] })
	}
	if c.Invite {
		ifaddrs, _ := net.InterfaceAddrs()
		h.invMu.Lock()
		h.sshInvites = sshd.Invites(ln.Addr(), ifaddrs)
		h.invMu.Unlock()
	}
	h.run(func() error { return h.ssh.Serve(ln) })
	return nil
}

// serveWeb starts the web front end on ln, each player joining the game
// through the server itself, so that it counts as its browser's address.
func (h *Host) serveWeb(ln net.Listener) error {
	c := h.cfg
	o := c.Web
	o.GameAddr, o.Dial = h.local, h.srv.Dial
	o.ClassCode = h.srv.ClassCode
	o.Latency, o.Jitter, o.Logger = c.Latency, c.Jitter, h.log.WithPrefix("web")
	var err error
	if h.browser, err = web.New(o); err != nil {
		return err
	}
	if c.Invite {
		ifaddrs, _ := net.InterfaceAddrs()
		h.invMu.Lock()
		h.webInvites = web.Invites(ln.Addr(), ifaddrs)
		h.invMu.Unlock()
	}
	h.run(func() error { return h.browser.Serve(ln) })
	return nil
}

// servePages serves routes (metrics, health checks, profiler) on ln.
func (h *Host) servePages(ln net.Listener, routes metrics.Routes) {
	page := metrics.NewHTTPServer(routes.Handler(), routes.Profiler)
	h.webs = append(h.webs, page)
	h.run(func() error { return page.Serve(ln) })
}

// announce logs the one start line: the build, the addresses bound by
// their flags' names, then the settings; and the invites, if asked for.
func (h *Host) announce(lns []*listener) {
	c := h.cfg
	kv := []any{"version", c.Version, "go", c.GoVersion}
	for _, l := range lns { // addr, ssh, web, metrics, health
		kv = append(kv, l.flag, l.ln.Addr().String())
		if l.flag == "ssh" {
			kv = append(kv, "hostkey", h.ssh.HostKeyFingerprint())
			if t := c.SSH.Teachers; t != nil {
				kv = append(kv, "teacher_keys", t.Count())
			}
		}
	}
	h.log.Info("gridlag server", append(kv, c.Settings...)...)
	if len(h.sshInvites) > 0 {
		h.log.Info("friends join over SSH with: " + strings.Join(h.sshInvites, " or "))
	}
	if len(h.webInvites) > 0 {
		h.log.Info("friends play in a browser at: " + strings.Join(h.webInvites, " or "))
	}
}

// startBots starts the server's own bots. They dial in as Own: they count
// against no address's caps, and theirs is the one route (besides
// -bot-addrs) on which the server believes a Hello that says it is a
// bot.
func (h *Host) startBots() {
	c := h.cfg
	if c.Bots <= 0 {
		return
	}
	own := func(ctx context.Context, _ string) (net.Conn, error) { return h.srv.Dial(ctx, server.Own) }
	stop := bot.Start(context.Background(), bot.Options{
		Addr: h.local, N: c.Bots, Latency: c.Latency, Jitter: c.Jitter, Dial: own,
		Avoid: append([]grid.Pos{h.world.Spawn}, h.world.Spawns...), Logger: h.log.WithPrefix("bots"),
	})
	h.bots = func() { stop() }
}

// Addr is the game port's address, as bound.
func (h *Host) Addr() string { return h.addr }

// LocalAddr is where a client in this process reaches the game port: its
// address, on loopback when it listens on every address.
func (h *Host) LocalAddr() string { return h.local }

// Invites are the addresses to give friends: "ssh -p 2222 HOST", one per
// address of the machine, then "http://HOST:8080/"; none unless
// Config.Invite.
func (h *Host) Invites() []string {
	h.invMu.Lock()
	defer h.invMu.Unlock()
	return slices.Concat(h.sshInvites, h.webInvites)
}

// JoinAt is what to give friends, or a class, to join room ("" for the
// game's own): the first SSH invite and the first web page's URL, on one
// line ("ssh -p 2222 HOST  or  http://HOST:8080/"), each of room's when
// room is set ("ssh -t -p 2222 HOST room 3b", ".../room/3b"); "" unless
// Config.Invite and a front end serves.
func (h *Host) JoinAt(room string) string {
	h.invMu.Lock()
	defer h.invMu.Unlock()
	var ways []string
	if len(h.sshInvites) > 0 {
		ssh := h.sshInvites[0]
		if room != "" {
			ssh = strings.Replace(ssh, "ssh ", "ssh -t ", 1) + " " + front.RoomWord + " " + room
		}
		ways = append(ways, ssh)
	}
	if len(h.webInvites) > 0 {
		web := h.webInvites[0]
		if room != "" {
			web += front.RoomWord + "/" + url.PathEscape(room)
		}
		ways = append(ways, web)
	}
	return strings.Join(ways, "  or  ")
}

// JoinCode is how a class joins its teacher's room with the class's
// code: the first web page's URL carrying it
// ("http://HOST:8080/?code=3b-K7Q2XM"), then the first SSH invite with
// the code as its login ("ssh -p 2222 3b-K7Q2XM@HOST"); none unless
// Config.Invite and a front end serves (tui.Options.JoinCode).
func (h *Host) JoinCode(code string) []string {
	h.invMu.Lock()
	defer h.invMu.Unlock()
	var ways []string
	if len(h.webInvites) > 0 {
		ways = append(ways, h.webInvites[0]+"?code="+url.QueryEscape(code))
	}
	if len(h.sshInvites) > 0 {
		f := strings.Fields(h.sshInvites[0])
		f[len(f)-1] = code + "@" + f[len(f)-1]
		ways = append(ways, strings.Join(f, " "))
	}
	return ways
}

// MetricsAddr is the metrics page's address, as bound; "" without one.
func (h *Host) MetricsAddr() string { return h.metrics }

// Exporter is the server's metrics, nil without -metrics or -summary:
// what /metrics serves, read in the process.
func (h *Host) Exporter() *metrics.Exporter { return h.exp }

// Server is the game server.
func (h *Host) Server() *server.Server { return h.srv }

// SSH is the SSH front end, nil without one.
func (h *Host) SSH() *sshd.Server { return h.ssh }

// Web is the web front end, nil without one.
func (h *Host) Web() *web.Server { return h.browser }

// cleanStop returns nil for the error a service's Serve returns when it
// was closed: a clean stop, not a failure.
func cleanStop(err error) error {
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, server.ErrServerClosed) || errors.Is(err, sshd.ErrServerClosed) || errors.Is(err, web.ErrServerClosed) {
		return nil
	}
	return err
}
