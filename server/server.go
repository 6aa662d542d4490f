package server

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/protocol"
	"gridlag/ratelog"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Close.
var ErrServerClosed = errors.New("server: server closed")

// lingerTime is how long a connection being closed after a final frame
// (an Error, a Bye) waits for the peer to close its side, so that the peer
// reads the frame instead of a reset.
const lingerTime = time.Second

// Server is the TCP adapter around the Cores of its rooms (room.go): the
// default room, and the named rooms its clients open. Create it with New,
// run it with Serve or ListenAndServe, stop it with Close.
type Server struct {
	opts Options
	log  *log.Logger
	warn *ratelog.Log // refusals, drops and resumes, summarised when they repeat

	shards     []*shard
	posted     chan struct{} // signalled when something was posted to a shard's inbox
	quit       chan struct{} // closed to stop the loop
	loopDone   chan struct{} // closed when the loop has ended: nothing more is queued
	acceptDone chan struct{} // closed when the accept loop has ended
	done       chan struct{} // closed when Close has finished
	up         chan struct{} // closed when Serve has started the loop
	closeOnce  sync.Once
	wg         sync.WaitGroup // the loop, the writers, the readers and lingering closes

	mu        sync.Mutex
	ln        net.Listener
	closed    bool
	nextID    ConnID
	published map[string]Stats // each open room's counters as of its last flush
	retired   Stats            // the counters of the rooms closed
	live      map[ConnID]*conn // connections whose goroutines still run
	connsFrom map[string]int   // live connections per remote IP
	serving   bool
	drainEnd  time.Time // set by Drain: when it ends; newcomers are refused meanwhile

	beat atomic.Int64 // the loop's last heartbeat, in Unix nanoseconds (Health)

	// Owned by the loop goroutine (start is set before any other goroutine
	// reads it).
	rooms   map[string]*room // the open rooms by name; "" is the default room
	share   *MapShare        // the map every room plays on, and its chunks' frames
	touched []*room          // the rooms given something since the last flush
	start   time.Time
	conns   map[ConnID]*conn
	players addrCount // joined players per remote IP
	told    string    // the Notice every connection got, "" if none
	enc     encoder
	slow    []*conn
	gone    map[ConnID]*conn // dropped since the last flush: the log's events still name their address

	// Admission, per remote address (admit.go).
	joins      *addrRate      // Hello, Spectate and Resume
	roomOpens  *addrRate      // new rooms
	roomsBy    map[string]int // open rooms by the address that opened them
	lobby      *addrRate      // room lists, per address
	lobbyAll   *addrRate      // room lists, all addresses together ("")
	lobbySpare *addrRate      // room lists for addresses that asked for none lately, past lobbyAll
	list       roomList       // the room list, encoded once per change

	countdown <-chan time.Time // the next beat of a drain's countdown (drain.go), nil if none; the loop's
}

// New returns a server with the given options; zero options take their
// defaults. The game numbers are checked by Serve.
//
// The connections are shared among GOMAXPROCS shards, each with one
// writer goroutine; each connection has a reader goroutine of its own.
func New(opts Options) *Server {
	opts = opts.withDefaults()
	shards := make([]*shard, max(runtime.GOMAXPROCS(0), 1))
	for i := range shards {
		shards[i] = newShard()
	}
	return &Server{
		opts:       opts,
		log:        opts.Logger,
		warn:       ratelog.New(opts.Logger, 0, nil),
		shards:     shards,
		posted:     make(chan struct{}, 1),
		quit:       make(chan struct{}),
		loopDone:   make(chan struct{}),
		acceptDone: make(chan struct{}),
		done:       make(chan struct{}),
		up:         make(chan struct{}),
		conns:      make(map[ConnID]*conn),
		rooms:      make(map[string]*room),
		published:  make(map[string]Stats),
		live:       make(map[ConnID]*conn),
		connsFrom:  make(map[string]int),
		players:    addrCount{hosts: make(map[ConnID]string), count: make(map[string]int)},
		gone:       make(map[ConnID]*conn),
		joins:      newAddrRate(time.Second/time.Duration(opts.JoinRate), JoinBurst*opts.JoinRate),
		roomOpens:  newAddrRate(time.Minute/time.Duration(opts.RoomRate), opts.RoomRate),
		roomsBy:    make(map[string]int),
		lobby:      newAddrRate(time.Second/time.Duration(opts.LobbyRate), LobbyBurst*opts.LobbyRate),
		lobbyAll:   newAddrRate(time.Second/time.Duration(opts.LobbyRateTotal), LobbyBurst*opts.LobbyRateTotal),
		lobbySpare: newAddrRate(time.Second/time.Duration(max(opts.LobbyRateTotal/10, 1)), LobbyBurst*max(opts.LobbyRateTotal/10, 1)),
	}
}

// ListenAndServe listens on the TCP address addr and serves, like Serve.
func (s *Server) ListenAndServe(addr string) error {
	if err := s.opts.Config.Validate(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve accepts connections on ln and plays the game until Close. It
// returns ErrServerClosed after Close, or the error that stopped it
// (invalid game numbers, a listener that fails for good); then the server
// is closed.
func (s *Server) Serve(ln net.Listener) error {
	if err := s.opts.Config.Validate(); err != nil {
		ln.Close()
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	if s.serving {
		s.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	s.serving = true
	s.ln = ln
	def := s.openRoom("")
	s.start = time.Now()
	s.beat.Store(s.start.UnixNano()) // the loop starts now
	s.published[""] = def.core.Stats()
	s.wg.Add(1 + len(s.shards))
	go s.loop()
	for _, sh := range s.shards {
		go s.writeLoop(sh)
	}
	close(s.up)
	s.mu.Unlock()

	cfg := def.core.Config()
	// Debug: the program's start line says what matters, once (cmd/gridlag).
	s.log.Debug("listening", "addr", ln.Addr().String(), "rate", cfg.Rate, "move", cfg.MoveTime,
		"burst", cfg.Burst, "max", cfg.MaxPlayers, "spectators", cfg.MaxSpectators, "map", mapSize(cfg), "spawn", cfg.Spawn,
		"room-players", s.opts.RoomPlayers, "max-rooms", s.opts.MaxRooms)
	if r := cfg.Map.Reach(); r.Unreachable() > 0 {
		s.log.Warn("map has floor cells no player can reach: players spawn only on its largest connected floor",
			"unreachable", r.Unreachable(), "floor", r.Floor())
	}
	err := s.acceptLoop(ln)
	close(s.acceptDone)
	if err != nil {
		s.log.Error("accept failed, stopping", "err", err)
		s.Close()
		return err
	}
	<-s.done
	return ErrServerClosed
}

func mapSize(c Config) string {
	return strconv.Itoa(c.Map.Width()) + "x" + strconv.Itoa(c.Map.Height())
}

// acceptLoop accepts connections until the listener is closed (nil) or
// fails for good.
func (s *Server) acceptLoop(ln net.Listener) error {
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosed() {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Out of file descriptors and the like: wait and retry.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.log.Warn("accept", "err", err, "retry", delay)
			select {
			case <-time.After(delay):
			case <-s.quit:
				return nil
			}
			continue
		}
		delay = 0
		s.accept(nc)
	}
}

// accept starts the goroutines of a new connection and introduces it to
// the loop, unless a cap refuses it.
func (s *Server) accept(nc net.Conn) {
	host := hostOf(nc.RemoteAddr())
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		nc.Close()
		return
	}
	if kind, text := s.connRefusal(host); kind != "" {
		s.mu.Unlock()
		s.opts.Metrics.Refused(ReasonKind(text))
		s.refuseConn(nc, host, kind, text)
		return
	}
	s.nextID++
	c := newConn(s.nextID, nc, host, s.shards[int(s.nextID)%len(s.shards)], s.opts.SendQueue, s.opts.SendQueueBytes, s.now())
	c.running = 2
	// The server's own players (Dial from Own: its bots) count against no
	// address's caps, shares or rates, and are believed when they say
	// they are bots; so is a Hello from Options.BotAddrs.
	c.own = host == ownHost
	c.botOK = c.own || s.botAddr(host)
	s.live[c.id] = c
	s.connsFrom[host]++
	s.wg.Add(1)
	s.mu.Unlock()
	if s.opts.WriteBuffer > 0 {
		if wb, ok := nc.(interface{ SetWriteBuffer(int) error }); ok {
			wb.SetWriteBuffer(s.opts.WriteBuffer)
		}
	}
	// The loop learns of the connection before any of its messages: the
	// reader starts only after this post, to the same inbox. (Close stops
	// the loop only after the accept loop has ended; an in-process
	// connection, Dial, may come later: then the server is stopping and
	// the socket is closed at once.)
	if !s.post(c.shard, event{kind: evConnect, c: c}) {
		s.hardClose(c)
	}
	go s.read(c)
}

// connRefusal says why a new connection from host is refused (a short
// kind for the log's summary, the text for the client), or "" if it is
// welcome. s.mu is held.
func (s *Server) connRefusal(host string) (kind, text string) {
	switch {
	case !s.drainEnd.IsZero():
		return "shutting down", s.stopNoticeLocked()
	case len(s.live) >= s.opts.MaxConns:
		return "connection cap", fmt.Sprintf("server busy: %d connections open, the most allowed", s.opts.MaxConns)
	case host != ownHost && s.connsFrom[host] >= s.opts.MaxConnsPerAddr:
		return "per-address connection cap", fmt.Sprintf("too many connections from your address: %d open, the most allowed from one address", s.opts.MaxConnsPerAddr)
	}
	return "", ""
}

// refuseConn tells a refused connection why, closes it at once and logs
// it, summarised when it repeats.
func (s *Server) refuseConn(nc net.Conn, host, kind, text string) {
	s.warn.Warn("refused connection "+host+" "+kind, "refused connection", "remote", host, "reason", text)
	code := protocol.ErrCodeFull
	if kind == "shutting down" {
		code = protocol.ErrCodeShutdown
	}
	if f, err := protocol.Marshal(&protocol.Error{Code: code, Text: text}); err == nil {
		// A new socket's buffer is empty: this write does not block.
		nc.SetWriteDeadline(time.Now().Add(time.Second))
		nc.Write(f)
	}
	nc.Close()
}

// release records that one of c's goroutines has ended.
func (s *Server) release(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.running--; c.running == 0 {
		delete(s.live, c.id)
		if s.connsFrom[c.host]--; s.connsFrom[c.host] <= 0 {
			delete(s.connsFrom, c.host)
		}
	}
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Addr returns the address the server listens on, or nil before Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Stats returns the Cores' counters as of the last event the server
// handled, summed over its rooms, open and closed (Ticks counts each
// room's ticks).
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.retired
	for _, st := range s.published {
		t.add(st)
	}
	return t
}

// Close stops the server: it says Bye{"server shutting down"} to every
// client, closes every connection and the listener, and returns once every
// goroutine of the server has ended. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		ln, serving := s.ln, s.serving
		s.mu.Unlock()
		if serving {
			ln.Close()
			<-s.acceptDone
			close(s.quit)
			s.wg.Wait()
			s.log.Info("stopped")
		}
		close(s.done)
	})
	<-s.done
	return nil
}

// stopping reports whether Close has begun stopping the connections.
func (s *Server) stopping() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// loop is the one goroutine that owns the rooms' Cores. One ticker ticks
// every room in turn: at 50 rooms that costs less than 50 tickers waking
// the loop apart, and the rooms' States leave in one flush.
func (s *Server) loop() {
	defer s.wg.Done()
	defer close(s.loopDone)
	var tick <-chan time.Time
	if rate := s.opts.Config.Rate; rate > 0 {
		t := time.NewTicker(time.Second / time.Duration(rate))
		defer t.Stop()
		tick = t.C
	}
	ping := time.NewTicker(s.opts.PingInterval)
	defer ping.Stop()
	summaries := time.NewTicker(time.Second)
	defer summaries.Stop()
	janitor := time.NewTicker(s.opts.janitorInterval())
	defer janitor.Stop()
	// The heartbeat says the loop goes on: Health reads its time, and
	// Options.Heartbeat (an Agones health ping) is called with it.
	beat := time.NewTicker(s.opts.HeartbeatInterval)
	defer beat.Stop()
	for {
		select {
		case <-s.posted:
			s.handleInboxes()
		case <-tick:
			began := time.Now()
			now := s.now()
			for _, r := range s.rooms {
				r.core.Tick(now)
				s.touch(r)
			}
			s.flush()
			s.opts.Metrics.Tick(time.Since(began))
			continue
		case <-ping.C:
			now := s.now()
			for _, r := range s.rooms {
				r.core.Ping(now)
				s.touch(r)
			}
		case <-summaries.C:
			s.warn.Flush()
		case <-janitor.C:
			s.dropSilent()
			s.sweepRates()
		case <-s.countdown:
			s.countDown()
		case <-beat.C:
			s.beat.Store(time.Now().UnixNano()) // not the tick's time: a stuck loop reads an old one
			if s.opts.Heartbeat != nil {
				s.opts.Heartbeat()
			}
		case <-s.quit:
			s.shutdown()
			return
		}
		s.flush()
	}
}

// now is the Core's clock: time since Serve began.
func (s *Server) now() time.Duration { return time.Since(s.start) }

// handleInboxes applies what the connection goroutines posted, a shard's
// inbox at a time. The Core's output so far is queued before a connection
// ends, so that it gets what was answered to it (a Bye's goodbye).
func (s *Server) handleInboxes() {
	for _, sh := range s.shards {
		for _, ev := range sh.takeInbox() {
			if ev.kind == evGone {
				s.flush()
			}
			s.handle(ev)
		}
	}
}

// handle applies one event from a connection goroutine.
func (s *Server) handle(ev event) {
	c := ev.c
	switch ev.kind {
	case evConnect:
		s.conns[c.id] = c
		s.log.Debug("connect", "conn", c.id, "remote", c.remote)
		if s.told != "" {
			// Accepted just before Drain refused newcomers.
			s.notify(c, s.told)
		}
	case evMessage:
		c.unhandled.Add(-1)
		defer c.signalRoom() // its answer is queued by the next flush: the reader counts it one late at most
		if c.dropped {
			return
		}
		if c.world == nil {
			if v, ok := handshakeVersion(ev.msg); ok {
				c.version = v
			}
			if lr, ok := ev.msg.(*protocol.ListRooms); ok {
				s.listRooms(c, lr)
				return
			}
			if e := s.joinRefusal(c, ev.msg); e != nil {
				s.refuse(c, e)
				return
			}
			if !s.enter(c, ev.msg) {
				return
			}
		}
		if e := s.playerRefusal(c, ev.msg); e != nil {
			s.refuse(c, e)
			return
		}
		s.receive(c, ev.msg)
	case evGone:
		s.drop(c, ev.reason, ev.final, ev.abuse)
	case evNotice:
		s.countDown()
	}
}

// noticeAll queues a Notice of text for every connection, and for those
// that are still on their way to the loop.
func (s *Server) noticeAll(text string) {
	s.told = text
	for _, c := range s.conns {
		s.notify(c, text)
	}
}

// notify queues a Notice of text for c.
func (s *Server) notify(c *conn, text string) {
	s.send(c, &protocol.Notice{Text: text})
}

// send queues m for c outside a room's flush, and drops c if its queue
// is full.
func (s *Server) send(c *conn, m protocol.Message) {
	if c.closing || c.stalled != "" {
		return
	}
	f, err := s.enc.one(m)
	if err != nil {
		s.log.Error("cannot encode", "type", m.Type(), "err", err)
		return
	}
	s.push(c, f)
}

// push queues the frame f for c outside a room's flush, counting it, and
// drops c if its queue is full.
func (s *Server) push(c *conn, f frame) {
	if !c.push(f) {
		c.stalled = c.queueFull()
		s.drop(c, c.stalled, nil, true)
		return
	}
	s.opts.Metrics.Sent(1, len(f.head))
}

// drop ends connection c for reason: its player leaves (or, with a resume
// window, is kept for a while: see Core.Drop), and it is closed,
// after final if that is not nil. abuse logs it as a warning, summarised
// when the same reason repeats for the same address.
func (s *Server) drop(c *conn, reason string, final protocol.Message, abuse bool) {
	if c.dropped {
		return
	}
	c.dropped = true
	delete(s.conns, c.id)
	s.gone[c.id] = c
	if c.watching {
		c.watching = false
		c.world.unwatched(c.host)
	}
	if abuse {
		// Keyed by the reason's kind: reasons that carry numbers or a
		// decoder's words ("malformed frame: ...") are one summary.
		s.warn.Warn("disconnect "+c.host+" "+ReasonKind(reason), "disconnect", "conn", c.id, "remote", c.remote, "reason", reason)
	} else {
		s.log.Debug("disconnect", "conn", c.id, "remote", c.remote, "reason", reason)
	}
	if r := c.world; r != nil {
		s.touch(r)
		r.conns--
		known := r.core.Stats().Connections
		r.core.Drop(s.now(), c.id, reason)
		if r.core.Stats().Connections == known {
			// The Core never heard of it: refused before it was handled.
			s.opts.Metrics.Refused(ReasonKind(reason))
		}
	} else if !c.lobby {
		// It ended before its first message.
		s.opts.Metrics.Refused(ReasonKind(reason))
	}
	if c.closing {
		return // a final frame is queued; the writer closes after it
	}
	if final != nil {
		f, err := s.enc.one(final)
		f.close = true
		if err == nil && c.push(f) {
			s.opts.Metrics.Sent(1, len(f.head))
			c.closing = true
			return
		}
	}
	s.hardClose(c)
}

// flush queues the output of the rooms touched since the last flush,
// wakes the writers, and closes the rooms left empty.
func (s *Server) flush() {
	s.publishStats()
	for i := 0; i < len(s.touched); i++ { // a drop may touch one more
		s.flushRoom(s.touched[i])
	}
	clear(s.gone) // their events are logged
	s.wakeWriters()
	s.closeEmptyRooms()
}

// flushRoom logs r's Core's events and queues its outbox, then drops the
// clients whose frames could not be queued, which may produce more output.
func (s *Server) flushRoom(r *room) {
	for again := false; ; again = true {
		batch := r.core.Outbox()
		if len(batch.Events) == 0 && len(batch.Envelopes) == 0 {
			return
		}
		if again {
			s.publishStats() // the drops changed them
		}
		for _, ev := range batch.Events {
			ev.Room = r.name
			s.logEvent(r, ev)
			if s.opts.OnEvent != nil {
				s.opts.OnEvent(ev)
			}
		}
		out := batch.Envelopes
		frames := s.enc.encode(out, s.stateStream, r.core.share.frames, func(env Envelope, err error) {
			s.log.Error("cannot encode", "type", env.Msg.Type(), "conn", env.To, "err", err)
		})
		s.slow = s.slow[:0]
		sent, size := 0, 0
		for i, env := range out {
			c := s.conns[env.To]
			if c == nil || c.closing || c.stalled != "" {
				continue
			}
			switch {
			case frames[i].head == nil:
				// Cannot happen with a valid Config; if it does, the
				// client would be out of step: drop it rather than skip.
				c.stalled = "a " + env.Msg.Type().String() + " for it could not be encoded"
			case !c.push(frames[i]):
				c.stalled = c.queueFull()
			default:
				sent, size = sent+1, size+len(frames[i].head)
				c.closing = env.Close
			}
			if c.stalled != "" {
				s.slow = append(s.slow, c)
			}
		}
		s.opts.Metrics.Sent(sent, size)
		if len(s.slow) == 0 {
			return
		}
		for _, c := range s.slow {
			s.drop(c, c.stalled, nil, true)
		}
	}
}

// stateStream returns the stream of States to connection id, nil if it is
// gone.
func (s *Server) stateStream(id ConnID) *protocol.StateStream {
	if c := s.conns[id]; c != nil {
		return &c.states
	}
	return nil
}

// wakeWriters wakes every shard's writer for the frames just queued.
func (s *Server) wakeWriters() {
	for _, sh := range s.shards {
		sh.signal()
	}
}

// logEvent logs a join, leave or refusal in room r, and counts the
// players of each address. Every line that can repeat per connection or
// per room is summarised per address (package ratelog): the first of an
// interval is written, the others counted, so churn from one address is
// a few lines a kind every interval, whatever its rate.
func (s *Server) logEvent(r *room, ev Event) {
	remote, host := "", ""
	c := s.conns[ev.Conn]
	if c == nil {
		c = s.gone[ev.Conn] // dropped since the last flush
	}
	if c != nil {
		remote, host = c.remote, c.host
	}
	switch ev.Kind {
	case EventJoin:
		if host != ownHost {
			s.players.join(ev.Conn, host) // at its Hello already (receive): once
		}
		s.list.dirty = true
		s.warn.Info("join "+host, "join", "room", r.name, "id", ev.Player, "name", ev.Name, "bot", ev.Bot, "remote", remote, "conn", ev.Conn, "spawn", ev.Pos, "version", ev.Version)
	case EventLeave:
		from := s.players.hosts[ev.Conn] // its connection may be long gone (away)
		s.players.leave(ev.Conn)
		s.list.dirty = true
		s.warn.Info("leave "+from, "leave", "room", r.name, "id", ev.Player, "name", ev.Name, "remote", from, "conn", ev.Conn, "reason", ev.Reason)
		s.opts.Metrics.Left(ReasonKind(ev.Reason))
	case EventRefused:
		s.warn.Warn("refused "+host+" "+ReasonKind(ev.Reason), "refused", "conn", ev.Conn, "remote", remote, "reason", ev.Reason)
		s.opts.Metrics.Refused(ReasonKind(ev.Reason))
	case EventAway:
		// Summarised per address: a client that drops and comes back in a
		// loop, or an outage behind one NAT address, is a few lines.
		from := s.players.hosts[ev.Conn] // its connection is gone already
		s.warn.Info("away "+from, "away, kept for resume", "id", ev.Player, "name", ev.Name, "remote", from, "conn", ev.Conn, "for", r.core.Config().Resume, "reason", ev.Reason)
	case EventResume:
		s.players.leave(ev.From)
		if host != ownHost {
			s.players.join(ev.Conn, host)
		}
		s.warn.Info("resume "+host, "resume", "id", ev.Player, "name", ev.Name, "remote", remote, "conn", ev.Conn, "from", ev.From, "version", ev.Version)
	case EventWatch:
		s.list.dirty = true
		s.warn.Info("spectator joined "+host, "spectator joined", "room", r.name, "name", ev.Name, "remote", remote, "conn", ev.Conn, "version", ev.Version)
	case EventUnwatch:
		s.list.dirty = true
		s.warn.Info("spectator left "+host, "spectator left", "room", r.name, "name", ev.Name, "remote", remote, "conn", ev.Conn, "reason", ev.Reason)
		s.opts.Metrics.Left(ReasonKind(ev.Reason))
	}
}

// shutdown takes every player out of the world, for the reason "server
// shutting down", and says Bye to every client. Connections accepted just
// before the listener closed are still in the inboxes: they get it too.
// The writers give up on a client that takes nothing for lingerTime.
func (s *Server) shutdown() {
	for _, sh := range s.shards {
		for _, ev := range sh.takeInbox() {
			if ev.kind == evConnect {
				s.conns[ev.c.id] = ev.c
			}
		}
	}
	s.log.Info("shutting down", "clients", len(s.conns))
	now := s.now()
	for id, c := range s.conns {
		c.dropped = true
		if c.world != nil {
			c.world.core.Disconnect(now, id, "server shutting down")
		}
	}
	for _, r := range s.rooms {
		for _, ev := range r.core.Outbox().Events {
			s.logEvent(r, ev)
		}
	}
	s.warn.Flush()
	f, err := s.enc.one(&protocol.Bye{Reason: protocol.ByeShutdown})
	f.close = true
	var gone []*conn
	s.mu.Lock()
	for id, c := range s.live {
		if _, ok := s.conns[id]; !ok {
			gone = append(gone, c) // dropped already, maybe stuck on a client that does not read
		}
	}
	s.mu.Unlock()
	for _, c := range gone {
		s.hardClose(c)
	}
	for _, c := range s.conns {
		if c.closing {
			continue
		}
		if err != nil || !c.push(f) {
			s.hardClose(c)
		}
		c.closing = true
	}
}
