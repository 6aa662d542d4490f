package server

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/internal/ratelog"
	"gridlag/protocol"
	"gridlag/server/admit"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Close.
var ErrServerClosed = errors.New("server: server closed")

// lingerTime is how long a connection being closed after a final frame
// (an Error, a Bye) waits for the peer to close its side, so that the peer
// reads the frame instead of a reset.
const lingerTime = time.Second

// Server is the TCP adapter around a hub.Hub, the driver of its rooms'
// worlds. Create it with New, run it with Serve or ListenAndServe, stop
// it with Close.
type Server struct {
	opts Options
	log  *log.Logger
	warn *ratelog.Log // refusals, drops and resumes, summarised when they repeat

	shards     []*shard
	parallel   int           // the fewest envelopes of a flush the shards queue at once (parallelQueue)
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
	nextID    world.ConnID
	published map[string]world.Stats // each open room's counters as of the hub's last Outbox
	codes     map[string]string      // the classes' rooms by their codes (protocol.NormCode), as of the hub's last Outbox (classcode.go)
	retired   world.Stats            // the counters of the rooms closed
	live      map[world.ConnID]*conn // connections whose goroutines still run
	connsIn   admit.Pool             // live connections, in all and per address (admit.Key)
	serving   bool
	drainEnd  time.Time   // set by Drain: when it ends; newcomers are refused meanwhile
	load      hub.LoadNow // what the hub read of the ticks' costs at the last tick
	gateNow   GateNow     // the joins the loop holds, as of its last change (Gate)

	beat atomic.Int64 // the loop's last heartbeat, in Unix nanoseconds (Health)
	// areasOff is what SetAreas asked for, which the loop applies to the
	// hub when it differs from areasOffNow.
	areasOff    atomic.Bool
	areasOffNow bool
	// counters are the server's own counters of the last interval for
	// its teachers (TellCounters), which the loop hands the hub.
	counters atomic.Pointer[protocol.Counters]

	// Owned by the loop goroutine (Serve sets them up before any other
	// goroutine reads them).
	hub      *hub.Hub
	kept     keptFrames // the map's pieces, encoded once for every room
	start    time.Time
	clock    func() time.Duration // the loop's clock, if not the time since start: a test's own (set before Serve)
	conns    map[world.ConnID]*conn
	gone     map[world.ConnID]*conn // ended since the last flush: the log's notes still name their address
	enc      encoder                // the frames of a few messages of the loop's own (a final Error, the shutdown's Bye)
	queuer   queuer                 // the loop's encoder and queue of a flush's few envelopes
	slow     []*conn
	ticks    tickMarks // the ticks' costs, measured for the hub's admission
	gate     joinGate  // the handshakes held for the ticks' spare time (joingate.go)
	gateSeen GateNow   // the gate as last published
	fall     fall      // the watch on a crowd's going (release.go)

	answering []*conn // connections with messages handled since the last flush (conn.answered)
	answers   answers // the files of the perception tests' answers (perception.go)
}

// New returns a server with the given options; zero options take their
// defaults. The game numbers are checked by Serve.
//
// The connections are shared among GOMAXPROCS shards, each with one
// writer goroutine; each connection has a reader goroutine of its own.
func New(opts Options) *Server {
	opts = opts.withDefaults()
	shards := make([]*shard, max(runtime.GOMAXPROCS(0), shardsAtLeast, 1))
	for i := range shards {
		shards[i] = newShard()
	}
	s := &Server{
		parallel:   parallelQueue,
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
		conns:      make(map[world.ConnID]*conn),
		published:  make(map[string]world.Stats),
		codes:      make(map[string]string),
		live:       make(map[world.ConnID]*conn),
		connsIn:    admit.NewCaps(opts.MaxConns, opts.MaxConnsPerAddr),
		gone:       make(map[world.ConnID]*conn),
	}
	s.areasOffNow = opts.Hub.Config.AreasOff
	s.areasOff.Store(s.areasOffNow)
	return s
}

// ListenAndServe listens on the TCP address addr and serves, like Serve.
func (s *Server) ListenAndServe(addr string) error {
	if err := s.opts.Hub.Config.Validate(); err != nil {
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
	if err := s.opts.Hub.Config.Validate(); err != nil {
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
	al := admit.Listen(ln, nil, s.log)
	s.ln = al
	s.begin()
	cfg, ho := s.hub.Config(), s.hub.Options() // read before the loop owns the hub
	s.beat.Store(s.start.UnixNano())           // the loop starts now
	s.wg.Add(1 + len(s.shards))
	go s.loop()
	for _, sh := range s.shards {
		go s.writeLoop(sh)
		if sh.poller = newPoller(s, sh); sh.poller != nil {
			s.wg.Add(1)
			go sh.poller.run()
		}
	}
	close(s.up)
	s.mu.Unlock()

	// Debug: the program's start line says what matters, once (cmd/gridlag).
	s.log.Debug("listening", "addr", ln.Addr().String(), "rate", cfg.Rate, "move", cfg.MoveTime,
		"burst", cfg.Burst, "max", cfg.MaxPlayers, "spectators", cfg.MaxSpectators, "map", mapSize(cfg), "spawn", cfg.Spawn,
		"room-players", ho.RoomPlayers, "max-rooms", ho.MaxRooms)
	if r := s.hub.Share().Reach(); r.Unreachable() > 0 {
		s.log.Warn("map has floor cells no player can reach: players spawn only on its largest connected floor",
			"unreachable", r.Unreachable(), "floor", r.Floor())
	}
	err := s.acceptLoop(al)
	close(s.acceptDone)
	if err != nil {
		s.log.Error("accept failed, stopping", "err", err)
		s.Close()
		return err
	}
	<-s.done
	return ErrServerClosed
}

// begin builds the hub, its default room open, and encodes the map's
// pieces once, on the caller's goroutine (never the loop's): a big map is
// compressed and encoded here. The loop's clock starts.
func (s *Server) begin() {
	s.start = time.Now()
	seedCodes(&s.opts.Hub)
	s.hub = hub.New(0, s.opts.Hub)
	var err error
	if s.kept, err = keepPieces(s.hub.Share()); err != nil {
		panic(err) // cannot happen: a valid map's pieces encode
	}
	s.gate = joinGate{budget: s.joinBudget(), wait: s.opts.JoinWait,
		floor: max(s.opts.Hub.LoadFloor, admit.Or(s.opts.cadenceFloor, cadenceFloor))}
	s.published[""] = s.hub.Rooms()[0].Stats
	s.load = hub.LoadNow{Budget: s.hub.Options().TickBudget}
}

func mapSize(c world.Config) string {
	return strconv.Itoa(c.Map.Width()) + "x" + strconv.Itoa(c.Map.Height())
}

// acceptLoop accepts connections until the listener is closed (nil) or
// fails for good; it waits out a failure worth retrying (admit.Listener).
func (s *Server) acceptLoop(ln *admit.Listener) error {
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosed() {
				return nil
			}
			return err
		}
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
	if r := s.connRefusal(host); r.Refused() {
		s.mu.Unlock()
		s.opts.Metrics.Refused(ReasonKind(r.Text))
		s.refuseConn(nc, r)
		return
	}
	s.nextID++
	// The server's own players (Dial from Own: its bots) count against no
	// address's caps, shares or rates, and are believed when they say
	// they are bots; so is a Hello from Options.BotAddrs.
	own := host == ownHost
	from := hub.Origin{Host: host, Own: own, Bots: own || s.botAddr(nc.RemoteAddr()), Teacher: isTeacher(nc.RemoteAddr())}
	c := newConn(s.nextID, nc, from, s.shards[int(s.nextID)%len(s.shards)], s.opts.SendQueue, s.opts.SendQueueBytes, s.now())
	c.running = 2
	s.live[c.id] = c
	s.connsIn.Take(host)
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
	if p := c.shard.poller; p != nil && c.raw != nil {
		p.add(c) // a socket: the shard's poller reads it
		return
	}
	go s.read(c)
}

// connRefusal says why a new connection from host is refused (a short
// kind for the log's summary, the text for the client), or admits it.
// s.mu is held.
func (s *Server) connRefusal(host string) admit.Refusal {
	if !s.drainEnd.IsZero() {
		return admit.Refusal{Kind: "shutting down", Text: s.stopNoticeLocked()}
	}
	switch s.connsIn.Admit(host, host == ownHost) {
	case admit.PoolFull:
		return admit.Refusal{Kind: "connection cap", Text: fmt.Sprintf("server busy: %d connections open, the most allowed", s.opts.MaxConns)}
	case admit.AddrFull:
		return admit.Refusal{Kind: "per-address connection cap", Text: fmt.Sprintf("too many connections from your address: %d open, the most allowed from one address", s.opts.MaxConnsPerAddr)}
	}
	return admit.Refusal{}
}

// refuseConn turns a refused connection away, telling it why in an
// Error.
func (s *Server) refuseConn(nc net.Conn, r admit.Refusal) {
	code := protocol.ErrCodeFull
	if r.Kind == "shutting down" {
		code = protocol.ErrCodeShutdown
	}
	f, _ := protocol.Marshal(&protocol.Error{Code: code, Text: r.Text}) // an Error always encodes
	admit.Refuse(s.warn, "refused connection", nc, r, f)
}

// release records that one of c's goroutines has ended.
func (s *Server) release(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.running--; c.running == 0 {
		delete(s.live, c.id)
		s.connsIn.Give(c.from.Host)
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

// Stats returns the worlds' counters as of the last event the server
// handled, summed over its rooms, open and closed (Ticks counts each
// room's ticks).
func (s *Server) Stats() world.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.retired
	for _, st := range s.published {
		t.Add(st)
	}
	return t
}

// Load returns what the hub read of the ticks' costs at the last tick:
// their cost over the last second, the members they served, and the
// members the tick budget holds by its estimate (hub.Hub.Load).
func (s *Server) Load() hub.LoadNow {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load
}

// Rooms returns the counters of every open room, as of the last event the
// server handled, the default room first, the others by name.
func (s *Server) Rooms() []hub.RoomStats {
	s.mu.Lock()
	rooms := make([]hub.RoomStats, 0, len(s.published))
	for name, st := range s.published {
		rooms = append(rooms, hub.RoomStats{Name: name, Stats: st})
	}
	s.mu.Unlock()
	slices.SortFunc(rooms, func(a, b hub.RoomStats) int { return strings.Compare(a.Name, b.Name) })
	return rooms
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
			for _, sh := range s.shards {
				if sh.poller != nil {
					sh.poller.wake() // it ends once its connections are done with
				}
			}
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

// loop is the one goroutine that owns the hub. It waits on one timer, set
// to the first of the hub's NextWake (every room's ticks, pings and
// timers: one wake ticks every room, so their States leave in one flush)
// and the adapter's own beats (the log's summaries, the check for silent
// connections, the heartbeat), on the inboxes and on quit.
func (s *Server) loop() {
	defer s.wg.Done()
	defer close(s.loopDone)
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	now := s.now()
	// The heartbeat says the loop goes on: Health reads its time, and
	// Options.Heartbeat (an Agones health ping) is called with it.
	summaries := beat{every: time.Second, next: now + time.Second}
	janitor := beat{every: s.opts.janitorInterval(), next: now + s.opts.janitorInterval()}
	heart := beat{every: s.opts.HeartbeatInterval, next: now + s.opts.HeartbeatInterval}
	for {
		now = s.now()
		if off := s.areasOff.Load(); off != s.areasOffNow {
			s.areasOffNow = off
			s.hub.SetAreas(!off)
		}
		if c := s.counters.Swap(nil); c != nil {
			s.hub.TellCounters(now, *c)
			s.flush()
		}
		if summaries.due(now) {
			s.warn.Flush()
			s.watchFall(now)
		}
		if janitor.due(now) {
			s.dropSilent(now)
			s.flush()
		}
		if heart.due(now) {
			s.beat.Store(time.Now().UnixNano()) // not the tick's time: a stuck loop reads an old one
			if s.opts.Heartbeat != nil {
				s.opts.Heartbeat()
			}
		}
		next := min(summaries.next, janitor.next, heart.next)
		if at, ok := s.hub.NextWake(); ok {
			if at <= now {
				s.handleInboxes() // the moves posted quietly since the last wake
				due, _ := s.hub.NextTick()
				began := time.Now()
				ticked := s.hub.Advance(now)
				full := time.Duration(0)
				if ticked {
					full = s.measureTick(now)
				}
				s.flush()
				if ticked {
					s.opts.Metrics.Tick(time.Since(began))
					s.gateTicked(tickTimes{late: now - due, own: time.Since(began), full: full})
					s.markTick(at)
				} else {
					s.hub.JoinCost(time.Since(began)) // those let in from the line, apart from the ticks
				}
				s.takeJoins() // in what the tick left of its budget
				continue
			}
			next = min(next, at)
		}
		wake.Reset(next - now)
		select {
		case <-s.posted:
			began := time.Now()
			s.handleInboxes()
			s.flush()
			s.takeJoins()
			s.hub.JoinCost(time.Since(began)) // the joins taken at once, if any
		case <-wake.C:
		case <-s.quit:
			s.shutdown()
			return
		}
	}
}

// TellCounters hands the room's teachers c, what the server's own
// counters say of the last interval (the program running the server
// reads them from the registry its /metrics serves: ops/host), from the
// loop's next turn (hub.Hub.TellCounters); a c not handed yet is
// replaced. Safe for concurrent use.
func (s *Server) TellCounters(c protocol.Counters) {
	s.counters.Store(&c)
	select {
	case s.posted <- struct{}{}:
	default:
	}
}

// SetAreas turns the areas of interest of every room on or off from the
// loop's next turn (world.Core.SetAreas): the scale lab's switch. Safe
// for concurrent use.
func (s *Server) SetAreas(on bool) {
	s.areasOff.Store(!on)
	select {
	case s.posted <- struct{}{}:
	default:
	}
}

// beat is one of the loop's own periodic duties.
type beat struct {
	every, next time.Duration
}

// due reports whether the beat is due at now, and if so sets the next,
// skipping those missed.
func (b *beat) due(now time.Duration) bool {
	if now < b.next {
		return false
	}
	b.next += b.every * ((now-b.next)/b.every + 1)
	return true
}

// now is the hub's clock: time since Serve began. A test may set a clock
// of its own (clock), which the timeouts, the flood limit and the ticks
// then follow: the loop's timers still wake it on the real clock, to read
// the test's.
func (s *Server) now() time.Duration {
	if s.clock != nil {
		return s.clock()
	}
	return time.Since(s.start)
}

// handleInboxes applies what the connection goroutines posted, a shard's
// inbox at a time. The hub's output so far is queued before a connection
// ends, so that it gets what was answered to it (a Bye's goodbye).
func (s *Server) handleInboxes() {
	for _, sh := range s.shards {
		for _, ev := range sh.takeInbox() {
			if ev.kind == evGone {
				s.flush()
			}
			if s.heldBack(ev) {
				continue // a join, for the ticks' spare time
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
		s.fall.peak = max(s.fall.peak, len(s.conns))
		s.log.Debug("connect", "conn", c.id, "remote", c.remote)
		s.hub.Connect(s.now(), c.id, c.from)
	case evMessage:
		// Its answer is queued by the next flush, which then counts it
		// handled (answered): a reader that holds back counts each
		// message until its answer is in the queue, never in between.
		if c.answered == 0 {
			s.answering = append(s.answering, c)
		}
		c.answered++
		if c.state == connGone {
			return
		}
		s.hub.Receive(s.now(), c.id, ev.msg)
	case evGone:
		s.drop(c, ev.reason, ev.final, ev.abuse)
	case evNotice:
		s.mu.Lock()
		end := s.drainEnd
		s.mu.Unlock()
		s.hub.Drain(s.now(), time.Until(end))
	}
}

// drop ends connection c for reason: the hub is told it is gone (its
// player leaves or, with a resume window, is kept for a while: see
// hub.Disconnect), and it is closed, after final if that is not nil.
// abuse logs it as a warning, summarised when the same reason repeats for
// the same address.
func (s *Server) drop(c *conn, reason string, final protocol.Message, abuse bool) {
	if c.state == connGone {
		return
	}
	closing := c.state == connClosing
	s.forget(c)
	if abuse {
		// Keyed by the reason's kind: reasons that carry numbers or a
		// decoder's words ("malformed frame: ...") are one summary.
		s.warn.Warn("disconnect "+c.from.Host+" "+ReasonKind(reason), "disconnect", "conn", c.id, "remote", c.remote, "reason", reason)
	} else {
		s.log.Debug("disconnect", "conn", c.id, "remote", c.remote, "reason", reason)
	}
	s.hub.Disconnect(s.now(), c.id, reason)
	if closing {
		return // a final frame is queued; the writer closes after it
	}
	if final != nil {
		f, err := s.enc.one(final)
		f.close = true
		if err == nil && c.push(f) == queued {
			s.opts.Metrics.Sent(1, len(f.head))
			return
		}
	}
	s.hardClose(c)
}

// forget marks c gone: nothing more is queued for it, and its address
// stays known to the log's lines of this flush.
func (s *Server) forget(c *conn) {
	c.state = connGone
	delete(s.conns, c.id)
	s.gone[c.id] = c
}

// flush queues what the hub produced, logs and counts its notes, drops
// the clients whose frames could not be queued (which may produce more
// output), and wakes the writers.
func (s *Server) flush() {
	for {
		out := s.hub.Outbox()
		if len(out.Envelopes) == 0 && len(out.Notes) == 0 && len(out.Rooms) == 0 && len(out.Crowds) == 0 {
			break
		}
		for _, o := range out.Crowds {
			s.opts.Crowd(o.Room, o.Bots)
		}
		s.publish(out.Rooms, out.Closed)
		s.queue(out.Envelopes)
		for _, n := range out.Notes {
			s.note(n)
		}
		s.saveAnswers()
		for _, c := range s.slow {
			s.drop(c, c.stall, nil, true)
		}
		s.slow = s.slow[:0]
	}
	clear(s.gone) // their notes are logged
	s.wakeWriters()
	s.answeredAll()
}

// answeredAll counts the messages handled since the last flush as handled
// now that their answers are queued, and wakes their readers if they hold
// back (see conn.mustHold).
func (s *Server) answeredAll() {
	for _, c := range s.answering {
		c.unhandled.Add(-c.answered)
		c.answered = 0
		c.signalRoom()
	}
	clear(s.answering)
	s.answering = s.answering[:0]
}

// publish publishes the counters of the rooms the hub touched for Stats
// and Rooms, before the frames of a flush are queued: whoever reads one
// of them then sees the counters.
func (s *Server) publish(rooms []hub.RoomStats, closed []string) {
	if len(rooms) == 0 {
		return
	}
	s.mu.Lock()
	for _, r := range rooms {
		s.published[r.Name] = r.Stats
	}
	for _, name := range closed {
		s.retired.Add(s.published[name])
		delete(s.published, name)
	}
	s.mu.Unlock()
}

// queue encodes the envelopes and queues their frames; a client whose
// frame cannot be queued is stalled, to be dropped at the end of the
// flush (it never waits for a client). A tick's many envelopes are
// encoded and queued by every shard at once, each its own connections'
// (States are each their own connection's: the loop's serial work is
// cut by the number of shards); a few are the loop's alone.
func (s *Server) queue(out []world.Envelope) {
	if len(s.shards) == 1 || len(out) < s.parallel {
		s.queueOn(&s.queuer, out)
		s.merge(&s.queuer)
		return
	}
	for _, sh := range s.shards {
		sh.q.out = sh.q.out[:0]
	}
	var shared *protocol.SharedPlayers
	for _, env := range out {
		if c := s.conns[env.To]; c != nil && c.state == connOpen {
			c.shard.q.out = append(c.shard.q.out, env)
		}
		// The news many States share is encoded here, once: the shards
		// then only read it.
		if st, ok := env.Msg.(*protocol.State); ok && st.Shared != nil && st.Shared != shared {
			shared = st.Shared
			shared.Encode()
		}
	}
	var wg sync.WaitGroup
	for _, sh := range s.shards[1:] {
		if len(sh.q.out) > 0 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.queueOn(&sh.q, sh.q.out)
			}()
		}
	}
	s.queueOn(&s.shards[0].q, s.shards[0].q.out)
	wg.Wait()
	for _, sh := range s.shards {
		clear(sh.q.out)
		s.merge(&sh.q)
	}
}

// parallelQueue is the fewest envelopes that the shards encode and queue
// at once (queue): fewer are not worth waking them. A variable for the
// tests, which set it to 1 to run every flush through the shards.
var parallelQueue = 256

// shardsAtLeast is the fewest shards New makes, whatever GOMAXPROCS: a
// variable for the tests.
var shardsAtLeast = 1

// queuer encodes and queues a share of a flush's envelopes: the loop's
// own (Server.queuer), or a shard's connections' (shard.q) when they are
// many. While queue runs, each queuer touches only the connections of its
// envelopes, and reads the loop's map of them.
type queuer struct {
	enc        encoder
	out        []world.Envelope // the shard's share of the envelopes (queue)
	slow       []*conn          // stalled: dropped at the end of the flush
	skipped    int              // States skipped for clients behind
	resync     []*conn          // caught up after skipped States: the next must be a full picture
	sent, size int              // frames queued, and their bytes
	failed     []world.Envelope // envelopes that did not encode
	errs       []error
}

// queueOn encodes out with q's encoder and queues the frames.
func (s *Server) queueOn(q *queuer, out []world.Envelope) {
	frames := q.enc.encode(out, s.stateStream, s.kept, func(env world.Envelope, err error) {
		q.failed, q.errs = append(q.failed, env), append(q.errs, err)
	})
	for i, env := range out {
		c := s.conns[env.To]
		if c == nil || c.state != connOpen {
			continue
		}
		if frames[i].head == nil {
			// Cannot happen with a valid Config; if it does, the client
			// would be out of step: drop it rather than skip.
			c.stall = "a " + env.Msg.Type().String() + " for it could not be encoded"
		} else {
			switch c.push(frames[i]) {
			case queued:
				q.sent, q.size = q.sent+1, q.size+len(frames[i].head)
				if env.Close {
					c.state = connClosing
				}
				continue
			case skipped:
				q.skipped++
				continue
			case resync:
				q.skipped++
				q.resync = append(q.resync, c)
				continue
			}
			c.stall = c.queueFull()
		}
		c.state = connStalled
		q.slow = append(q.slow, c)
	}
}

// merge takes what q did into the loop's flush: its stalled clients, its
// errors for the log and its counts for the metrics.
func (s *Server) merge(q *queuer) {
	for i, env := range q.failed {
		s.log.Error("cannot encode", "type", env.Msg.Type(), "conn", env.To, "err", q.errs[i])
	}
	s.slow = append(s.slow, q.slow...)
	for _, c := range q.resync {
		s.hub.Resync(c.id)
	}
	s.opts.Metrics.Sent(q.sent, q.size)
	s.opts.Metrics.Skipped(q.skipped)
	clear(q.resync)
	q.resync, q.skipped = q.resync[:0], 0
	clear(q.slow)
	clear(q.failed)
	q.slow, q.failed, q.errs = q.slow[:0], q.failed[:0], q.errs[:0]
	q.sent, q.size = 0, 0
}

// stateStream returns the stream of States to connection id, nil if it is
// gone.
func (s *Server) stateStream(id world.ConnID) *protocol.StateStream {
	if c := s.conns[id]; c != nil {
		return &c.states
	}
	return nil
}

// wakeWriters wakes the writer of every shard that frames were queued
// for since it was last woken.
func (s *Server) wakeWriters() {
	for _, sh := range s.shards {
		if sh.queued {
			sh.queued = false
			sh.signal()
		}
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
	for id := range s.conns {
		s.hub.Close(now, id, "server shutting down")
	}
	for _, n := range s.hub.Outbox().Notes {
		switch n.Kind {
		case hub.NoteEvent:
			s.logEvent(n, s.conns[n.Conn].remoteOf()) // logged only: nothing more is told (OnEvent)
		case hub.NotePerception:
			s.answers.due = append(s.answers.due, n) // a run the shutdown ended: its answers are kept
		}
	}
	s.saveAnswers()
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
		if c.state == connClosing {
			continue
		}
		if err != nil || c.push(f) != queued {
			s.hardClose(c)
		}
		c.state = connClosing
	}
}
