package world

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gridlag/grid"
	"gridlag/internal/names"
	"gridlag/protocol"
)

// Core is the sans-I/O game server: it owns the world and turns what
// clients send, disconnections and ticks into messages to send. It is not
// safe for concurrent use; one owner calls every method.
//
// Every method that can produce output appends it to the outbox; Outbox
// hands it over. Messages in the outbox belong to the Core and are reused
// once a later call follows the Outbox call that returned them, which is
// what lets a steady-state Tick allocate nothing.
type Core struct {
	cfg    Config
	world  *grid.World
	share  *MapShare            // the map and what travels of it, maybe shared with other Cores
	cells  []byte               // the map's cells, shared by every Welcome, if small enough for one
	chunks []*protocol.MapChunk // the map's chunks, shared by every Welcome of a big map to a version 3 client
	bits   []*protocol.MapBits  // the map's compressed bits, shared by every Welcome of a big map to the later versions

	conns map[ConnID]*client
	slots []*client          // joined clients by player ID; slot 0 unused
	names map[string]*client // joined clients (away ones too) by the key of their name (names.Key)
	count int                // joined clients
	// spectators are the watching clients, in the order they came
	spectators []*client
	bots       int                        // joined bots
	awayN      int                        // joined players whose connection dropped, kept for resume
	awayDue    time.Duration              // no away player's window ends before this (meaningful while awayN > 0)
	tokens     map[protocol.Token]*client // resume tokens, each bound to its player
	botN       uint32                     // bots spawned so far, to spread the next one
	respawns   uint32                     // players respawned so far, to spread the next one

	tick   uint32
	spawns []grid.Pos // the human spawn cells: Spawn, then Spawns

	// The world's own times (schedule.go).
	ticking   bool          // Advance (or SetRate) has come: the ticks are scheduled
	nextTick  time.Duration // when the next tick is due, with Rate > 0 while ticking
	pingEvery time.Duration // between two Pings; 0: none
	nextPing  time.Duration // when the next Ping is due, with pingEvery

	out     []Envelope
	events  []Event
	drained bool // Outbox was called: the next producing call starts a new batch

	positions []grid.PlayerPos // scratch of snapshot
	indexes   [2]areaIndex     // base and cur
	base      *areaIndex       // the players by where they stood at the last broadcast
	cur       *areaIndex       // and at this one, during a broadcast
	news      news             // from base to cur
	// The players that left the game since the last broadcast, by the
	// bucket they stood in then: the next broadcast tells those that knew
	// them (State.Left). Their IDs are held (not given to a newcomer)
	// until then, so that no client hears of a newcomer before it hears
	// that the player with the same ID left.
	departed  []crossing
	held      []bool           // by player ID
	lefts     []grid.PlayerID  // the batch's States' Left
	deltas    []grid.PlayerPos // the batch's States' players
	runs      []protocol.Run   // the batch's States' runs of their broadcast's news
	shared    pool[protocol.SharedPlayers]
	gones     []grid.PlayerID // the batch's States' gone players
	met       []grid.PlayerID // scratch of sendState
	states    pool[protocol.State]
	pongs     pool[protocol.Pong]
	stages    pool[protocol.Stages]
	stageBuf  []protocol.InputStage // the batch's Stages' inputs
	pings     pool[protocol.Ping]
	overviews pool[protocol.Overview]
	facts     []PlayerOverview // scratch of overview

	// zap tag: see zap.go and round.go
	targets   []grid.PlayerPos // scratch of judge
	spawned   []grid.PlayerID  // the players whose life the broadcast under way began (see record)
	spawnedIn []int32          // and the buckets they stand in, once tellSpawned needs them
	lastZap   ZapRecord
	thawAt    time.Duration // no frozen player thaws before this; 0 if none is frozen
	roundEnd  time.Duration // when the round in play ends; 0 before the first call with a time
	winner    grid.Score    // the last round's winner, ID 0 if none
	// winnerName is the last round's winner's name, kept after it leaves.
	winnerName string
	ranking    []*client    // scratch of tellRankings: the players by rank
	scores     []grid.Score // scratch of endRound
	stale      bool         // someone joined or left: the next Ping sends the scoreboard

	stats Stats
}

// phase is where a connection is in its life.
type phase uint8

const (
	phaseNew      phase = iota // no Hello yet
	phaseJoined                // in the world
	phaseWatching              // a spectator, watching
	phaseClosed                // the Core asked for it to close, or it said Bye
)

// client is one connection the Core knows.
type client struct {
	conn   ConnID
	phase  phase
	player grid.PlayerID
	info   protocol.PlayerInfo
	key    string         // names.Key of its name
	join   *protocol.Join // announces the player to those it comes into view of
	area   area           // what the client was last told of its area of interest
	bot    bool
	// version is the protocol version the connection speaks: a client of
	// version 3 is sent exactly what a server of version 3 sent it.
	version uint16
	lastSeq uint32   // the last input processed
	toldAck uint32   // the acknowledgement of the last State it was sent
	rtt     rttMeter // the round trip, measured by the Core's Pings
	// trace: the client asked for its inputs' stages (protocol.Trace);
	// staged are the inputs processed since its last State (stages.go).
	trace  bool
	staged []staged
	token  protocol.Token // brings the avatar back after a drop; zero if resuming is off

	// A player whose connection dropped is away until awayUntil, kept for
	// resume; conn is then the connection it dropped from.
	away       bool
	awayUntil  time.Duration
	awayReason string

	trail       trail         // recent cells, for lag compensation
	gun         grid.Cooldown // the zap's cooldown
	frozenUntil time.Duration // when a tagged player respawns; 0 if not frozen
	points      int           // score in this round
	// Liveness, for lag compensation and spawn protection (see
	// standingAt): the player was placed at its join or respawn cell and
	// no broadcast has shown it there yet (spawning); it was shown at
	// least once (lived); its current life began at life, after a tag
	// (respawned) or with its join.
	spawning, lived, respawned bool
	life                       time.Duration
	// The Ranking (version 4): the players the last one sent to it listed,
	// whose names it has, and the round whose winner it named (0: none).
	ranked       []*client
	toldWinner   uint64
	order, place int // its index in the ranking and its rank, as of the last tellRankings
}

// NewCore returns a Core with the given game numbers, defaults filled in.
// It panics if cfg fails Validate: game numbers come from the operator, not
// from the network, and the adapter validates them first.
func NewCore(cfg Config) *Core {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	cfg = cfg.WithDefaults()
	return newCore(cfg, NewMapShare(cfg.Map))
}

// NewSharedCore is NewCore on the map of ms, which it shares with the other
// Cores given it (a hub's rooms): its cells, chunks and bits are not
// copied. cfg.Map is replaced by ms's map.
func NewSharedCore(cfg Config, ms *MapShare) *Core {
	cfg.Map = ms.Map()
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	return newCore(cfg.WithDefaults(), ms)
}

// newCore builds a Core of cfg, its defaults filled in, on ms.
func newCore(cfg Config, ms *MapShare) *Core {
	rules := grid.Rules{MoveTime: int64(cfg.MoveTime), Burst: cfg.Burst}
	c := &Core{
		cfg:    cfg,
		world:  grid.NewWorld(cfg.Map, rules),
		conns:  make(map[ConnID]*client),
		names:  make(map[string]*client),
		tokens: make(map[protocol.Token]*client),
		slots:  make([]*client, cfg.MaxPlayers+1),
		held:   make([]bool, cfg.MaxPlayers+1),
		spawns: append([]grid.Pos{cfg.Spawn}, cfg.Spawns...),
		share:  ms,
		cells:  ms.cells,
		chunks: ms.chunks,
		bits:   ms.bits,
	}
	c.base, c.cur = &c.indexes[0], &c.indexes[1]
	c.SetAreas(!cfg.AreasOff)
	c.base.build(cfg.Map.Width(), cfg.Map.Height(), nil)
	return c
}

// Config returns the game numbers in force, defaults filled in.
func (c *Core) Config() Config { return c.cfg }

// Stats returns the counters.
func (c *Core) Stats() Stats {
	s := c.stats
	s.Players = c.count
	s.Bots = c.bots
	s.Spectators = len(c.spectators)
	s.Connections = len(c.conns)
	s.Away = c.awayN
	return s
}

// Outbox hands over everything produced since the last Outbox call, the
// messages to send and the events to log, and ends the batch. The batch's
// slices and messages stay valid until the next call of any Core method.
func (c *Core) Outbox() Batch {
	if c.drained {
		c.reset() // nothing new since the last Outbox call
	}
	c.drained = true
	return Batch{Envelopes: c.out, Events: c.events}
}

// Positions appends every player's cell, sorted by player ID, to dst.
func (c *Core) Positions(dst []grid.PlayerPos) []grid.PlayerPos { return c.world.Players(dst) }

// Player returns the player of connection id, if it has joined.
func (c *Core) Player(id ConnID) (grid.PlayerID, bool) {
	cl := c.conns[id]
	if cl == nil || cl.phase != phaseJoined {
		return 0, false
	}
	return cl.player, true
}

// Member returns the player of connection id, if it has joined: its
// name and colour, and whether it is a bot.
func (c *Core) Member(id ConnID) (info protocol.PlayerInfo, bot, ok bool) {
	cl := c.conns[id]
	if cl == nil || cl.phase != phaseJoined {
		return info, false, false
	}
	return cl.info, cl.bot, true
}

// Name returns the name of player id, if it is in the world (away
// players too).
func (c *Core) Name(id grid.PlayerID) (string, bool) {
	if int(id) >= len(c.slots) || c.slots[id] == nil {
		return "", false
	}
	return c.slots[id].info.Name, true
}

// begin starts a new output batch if the last one was handed over.
func (c *Core) begin() {
	if c.drained {
		c.drained = false
		c.reset()
	}
}

// reset empties the batch, making its buffers available again.
func (c *Core) reset() {
	clear(c.out) // drop references to messages of past batches
	c.out = c.out[:0]
	clear(c.events)
	c.events = c.events[:0]
	c.deltas = c.deltas[:0]
	c.runs = c.runs[:0]
	c.gones = c.gones[:0]
	c.lefts = c.lefts[:0]
	c.shared.reset()
	c.states.reset()
	c.pongs.reset()
	c.stages.reset()
	c.stageBuf = c.stageBuf[:0]
	c.pings.reset()
	c.overviews.reset()
}

func (c *Core) send(to ConnID, m protocol.Message) {
	c.out = append(c.out, Envelope{To: to, Msg: m})
}

func (c *Core) sendClose(to ConnID, m protocol.Message) {
	c.out = append(c.out, Envelope{To: to, Msg: m, Close: true})
}

// Receive feeds one decoded message from connection id, received at now.
func (c *Core) Receive(now time.Duration, id ConnID, m protocol.Message) {
	c.begin()
	c.expire(now)
	c.due(now)
	cl := c.conns[id]
	if cl == nil {
		cl = &client{conn: id}
		c.conns[id] = cl
	}
	switch cl.phase {
	case phaseClosed:
		// The connection is on its way out; whatever it still sends is
		// ignored until Disconnect.
		return
	case phaseNew:
		c.handshake(now, cl, m)
		return
	}
	switch v := m.(type) {
	case *protocol.Input:
		if cl.phase == phaseWatching {
			c.violation(now, cl, "a spectator cannot move: Input refused")
			return
		}
		c.input(now, cl, v)
	case *protocol.Zap:
		if cl.phase == phaseWatching {
			c.violation(now, cl, "a spectator cannot zap: Zap refused")
			return
		}
		c.zap(now, cl, v)
	case *protocol.Trace:
		c.setTrace(now, cl, v.On)
	case *protocol.Pong:
		cl.rtt.pong(now, v.Stamp)
	case *protocol.Ping:
		p := c.pongs.get()
		p.Stamp = v.Stamp
		c.stats.Pongs++
		c.send(id, p)
	case *protocol.Bye:
		c.leave(now, cl, "said bye: "+protocol.Printable(v.Reason))
		cl.phase = phaseClosed
		c.sendClose(id, &protocol.Bye{Reason: "goodbye"})
	case *protocol.Error:
		// A client may explain why it is leaving.
		c.leave(now, cl, fmt.Sprintf("client error %d: %s", v.Code, protocol.Printable(v.Text)))
		cl.phase = phaseClosed
		c.sendClose(id, &protocol.Bye{Reason: "goodbye"})
	case *protocol.Hello, *protocol.Spectate, *protocol.Resume:
		c.violation(now, cl, fmt.Sprintf("second handshake (%v) on the connection", m.Type()))
	default:
		c.violation(now, cl, fmt.Sprintf("unexpected %v from a client", m.Type()))
	}
}

// Disconnect reports that connection id is gone, for reason (for the
// record). Its player leaves the world at once (see Drop to keep it for a
// while), or the spectator stops watching. Unknown IDs are ignored.
func (c *Core) Disconnect(now time.Duration, id ConnID, reason string) {
	c.begin()
	c.due(now)
	cl := c.conns[id]
	if cl == nil {
		return
	}
	delete(c.conns, id)
	c.leave(now, cl, reason)
}

// Tick runs one update tick now: every joined client gets ONE State
// carrying its own last processed input and what changed in its area of
// interest (aoi.go), after a Join for each player come into view, and
// every spectator one Overview. Advance runs it at the world's Rate; with
// Rate 0 nobody calls it, but it works the same.
func (c *Core) Tick(now time.Duration) {
	c.begin()
	c.expire(now)
	c.due(now)
	c.broadcast(now)
}

// handshake handles the first message of a connection: a player's Hello
// or a spectator's Spectate.
func (c *Core) handshake(now time.Duration, cl *client, m protocol.Message) {
	switch h := m.(type) {
	case *protocol.Hello:
		c.join(now, cl, h)
	case *protocol.Spectate:
		c.watch(now, cl, h)
	case *protocol.Resume:
		c.resume(now, cl, h)
	default:
		c.refuse(cl, protocol.ErrCodeProtocol, fmt.Sprintf("expected Hello, Resume or Spectate as the first message, got %v", m.Type()))
	}
}

// versionOK refuses a handshake of a protocol version this server does
// not serve, and records the version of one it serves: the client is
// answered in its version's form.
func (c *Core) versionOK(cl *client, v uint16) bool {
	if !protocol.Supported(v) {
		c.refuse(cl, protocol.ErrCodeVersion, VersionRefusal(v))
		return false
	}
	cl.version = v
	return true
}

// VersionRefusal is the text of the Error that refuses a handshake of
// protocol version v.
func VersionRefusal(v uint16) string {
	return fmt.Sprintf("protocol version %d is not supported: this server speaks versions %d to %d; please update your client",
		v, protocol.MinVersion, protocol.Version)
}

// sendMap sends cl the map that follows its Welcome or Spectating when it
// is too big for them: MapChunks to a version 3 client, as before
// version 4, and MapBits to the others.
func (c *Core) sendMap(cl *client) {
	if cl.version < protocol.MapBitsSince {
		for _, m := range c.chunks {
			c.send(cl.conn, m)
		}
		return
	}
	for _, m := range c.bits {
		c.send(cl.conn, m)
	}
}

// join handles a Hello: the player enters the world.
func (c *Core) join(now time.Duration, cl *client, h *protocol.Hello) {
	if !c.versionOK(cl, h.Version) {
		return
	}
	if err := names.CheckPlayer(h.Name, h.Bot); err != nil {
		c.refuse(cl, protocol.ErrCodeName, "name refused: "+err.Error())
		return
	}
	name, key := c.freeName(h.Name, h.Bot)
	if key == "" {
		c.refuse(cl, protocol.ErrCodeName, fmt.Sprintf("name refused: %q and every numbered variant of it are taken here; choose another", h.Name))
		return
	}
	if c.count >= c.cfg.MaxPlayers {
		c.refuse(cl, protocol.RoomFullCode(cl.version), RoomFullText(c.count, c.cfg.MaxPlayers, 0, false))
		return
	}
	pos, ok := c.spawnCell(h.Bot)
	if !ok {
		c.refuse(cl, protocol.RoomFullCode(cl.version), RoomFullText(c.count, c.Holds(), 0, true))
		return
	}
	pid := c.freeID(now)
	if err := c.world.Add(pid, pos); err != nil {
		// Cannot happen: the ID and the cell were just found free.
		c.refuse(cl, protocol.ErrCodeFull, "server full: "+err.Error())
		return
	}
	if h.Bot {
		c.botN++
		c.bots++
	}
	color := c.freeColor(h.Color, uint8((int(pid)-1)%protocol.NumColors+1))
	cl.phase = phaseJoined
	cl.player = pid
	cl.bot = h.Bot
	cl.info = protocol.PlayerInfo{ID: pid, Color: color, Name: name}
	cl.key = key
	c.names[key] = cl
	cl.join = &protocol.Join{Player: cl.info}
	cl.area.reset()
	cl.trail = newTrail(now, pos)
	cl.spawning = true // its life begins with the broadcast that shows it
	c.slots[pid] = cl
	c.count++
	c.stats.Joins++
	c.events = append(c.events, Event{Kind: EventJoin, Conn: cl.conn, Player: pid, Name: name, Bot: h.Bot, Pos: pos, Version: cl.version})

	c.issue(cl)
	c.welcome(cl)
	// The others in view come as one Join each with the first State, and
	// hear of the newcomer with theirs, as it comes into their view.
	for _, s := range c.spectators {
		c.send(s.conn, cl.join)
	}
	if c.cfg.Rate == 0 {
		c.broadcast(now) // immediate mode: everyone sees the newcomer's cell at once
	} else {
		c.sendOwnState(now, cl) // the others see it at the next tick
	}
	c.stale = true
}

// welcome sends cl its Welcome (with its resume token), then the map in
// its version's form if the map does not fit in it. The players in view come as one
// Join each with the State that shows them (its area is reset on joining
// and on resuming), so that neither grows with the number of players.
func (c *Core) welcome(cl *client) {
	w := &protocol.Welcome{
		Player:     cl.player,
		UpdateRate: uint16(c.cfg.Rate),
		MoveTimeMS: uint16(c.cfg.MoveTime / time.Millisecond),
		Burst:      uint8(c.cfg.Burst),
		MapWidth:   uint16(c.cfg.Map.Width()),
		MapHeight:  uint16(c.cfg.Map.Height()),
		Cells:      c.cells,
		Players:    []protocol.PlayerInfo{cl.info},
		Token:      cl.token,
	}
	if !cl.token.IsZero() {
		w.ResumeS = uint16((c.cfg.Resume + time.Second - 1) / time.Second)
	}
	c.send(cl.conn, w)
	c.sendMap(cl)
}

// refuse ends a connection that has not joined.
func (c *Core) refuse(cl *client, code uint8, text string) {
	cl.phase = phaseClosed
	c.stats.Refused++
	c.events = append(c.events, Event{Kind: EventRefused, Conn: cl.conn, Reason: text})
	c.sendClose(cl.conn, &protocol.Error{Code: code, Text: text})
}

// violation ends a joined connection that broke the protocol.
func (c *Core) violation(now time.Duration, cl *client, text string) {
	c.stats.Violations++
	c.leave(now, cl, "protocol violation: "+text)
	cl.phase = phaseClosed
	c.sendClose(cl.conn, &protocol.Error{Code: protocol.ErrCodeProtocol, Text: text})
}

// leave takes a joined client's player out of the world, or ends a
// spectator's watch. The client is then neither; the caller sets its final
// phase.
func (c *Core) leave(now time.Duration, cl *client, reason string) {
	switch cl.phase {
	case phaseJoined:
		c.leaveWorld(now, cl, reason)
		c.stale = true
	case phaseWatching:
		c.unwatch(cl, reason)
	default:
		return
	}
	cl.phase = phaseNew
}

// leaveWorld takes a player out of the world and tells everyone.
func (c *Core) leaveWorld(now time.Duration, cl *client, reason string) {
	c.world.Remove(cl.player)
	c.slots[cl.player] = nil
	if c.names[cl.key] == cl {
		delete(c.names, cl.key)
	}
	delete(c.tokens, cl.token)
	c.count--
	if cl.bot {
		c.bots--
	}
	c.stats.Leaves++
	c.events = append(c.events, Event{Kind: EventLeave, Conn: cl.conn, Player: cl.player, Name: cl.info.Name, Bot: cl.bot, Reason: reason})
	// Those it was in the area of at the last broadcast hear of it with
	// the next (an away one's connection is gone, and a resume resets its
	// area); spectators at once.
	c.departed = append(c.departed, crossing{id: cl.player, bucket: c.base.bucketOf(cl.player)})
	c.held[cl.player] = true
	c.base.forget(cl.player) // the next news must not take it for a player who moved
	leave := &protocol.Leave{ID: cl.player}
	for _, s := range c.spectators {
		c.send(s.conn, leave)
	}
	if c.cfg.Rate == 0 {
		c.broadcast(now) // immediate mode: everyone hears of it at once
	}
}

// MaxSeqJump is how far an input's number may be from the last processed
// one. Numbers go 1, 2, 3... and never wrap: one further ahead (a client
// skipping to 2^32-1 would have every later input ignored) or further back
// (a wrap to 0) ends the connection with an Error.
const MaxSeqJump = 1000

// input processes one numbered input.
func (c *Core) input(now time.Duration, cl *client, in *protocol.Input) {
	if !c.accept(now, cl, in.Seq) {
		return
	}
	moved := false
	if cl.frozenUntil != 0 {
		c.stats.Frozen++ // acknowledged; a frozen player does not move
		c.stage(now, cl, in.Seq, protocol.StageFrozen)
	} else {
		o := c.move(now, cl, in.Dir)
		moved = o == grid.Moved
		c.stage(now, cl, in.Seq, moveStage(o))
	}
	if c.cfg.Rate == 0 {
		// Immediate mode: a move is news for everyone; an input that moved
		// nothing only needs its acknowledgement, so one client cannot make
		// the server send a State to every player for each of its inputs.
		if moved {
			c.broadcast(now)
		} else {
			c.sendOwnState(now, cl)
			c.showSpectators(now) // the acknowledgement is news for them
		}
	}
}

// accept takes input number seq of cl (a move or a zap) in sequence: a
// duplicate or out-of-order number is refused (false), one that jumps or
// wraps (see MaxSeqJump) ends the connection; otherwise it is the last
// processed, which the next State acknowledges.
func (c *Core) accept(now time.Duration, cl *client, seq uint32) bool {
	if seq > cl.lastSeq && seq-cl.lastSeq > MaxSeqJump || seq < cl.lastSeq && cl.lastSeq-seq > MaxSeqJump {
		c.violation(now, cl, fmt.Sprintf("input #%d after #%d: numbers go up one at a time and never wrap", seq, cl.lastSeq))
		return false
	}
	if seq <= cl.lastSeq {
		c.stats.InputsRefused++
		return false
	}
	cl.lastSeq = seq
	c.stats.InputsProcessed++
	return true
}

// move applies a move of cl's player and returns what it did.
func (c *Core) move(now time.Duration, cl *client, d grid.Dir) grid.Outcome {
	o := c.world.Apply(cl.player, d, int64(now))
	switch o {
	case grid.Moved:
		c.stats.Moves++
	case grid.TooFast:
		c.stats.TooFast++
	default:
		c.stats.Blocked++
	}
	return o
}

// broadcast sends every joined client one State and every spectator one
// Overview.
func (c *Core) broadcast(now time.Duration) {
	c.tick++
	c.stats.Ticks++
	positions := c.snapshot()
	c.record(now, positions)
	c.cur.build(c.cfg.Map.Width(), c.cfg.Map.Height(), positions)
	c.news.compare(c.base, c.cur)
	slices.SortFunc(c.departed, func(a, b crossing) int { return int(a.bucket) - int(b.bucket) })
	v := view{base: c.base, cur: c.cur, news: &c.news, departed: c.departed}
	moved := c.shared.get() // encoded once for every State carrying runs of it
	moved.Set(append(moved.List()[:0], c.news.moved...))
	quiet := c.count >= QuietFloor
	for _, p := range positions {
		if cl := c.slots[p.ID]; !cl.away { // an away player stays in the index, unseen by itself
			u := c.startUpdate()
			cl.area.update(&u, cl.player, p.Pos, v)
			if quiet && c.quietNow(cl, u) {
				c.tellSpawned(now, cl)
				continue
			}
			c.sendState(now, cl, u, moved)
			c.tellSpawned(now, cl)
		}
	}
	c.showSpawned(now)
	c.base, c.cur = c.cur, c.base
	c.spawned, c.spawnedIn = c.spawned[:0], c.spawnedIn[:0]
	for _, d := range c.departed {
		c.held[d.id] = false
	}
	c.departed = c.departed[:0]
	c.showSpectators(now)
}

// In a crowd (a room of QuietFloor players or more), a player with
// nothing in its area but itself, whose State would say nothing new (no
// player seen, no new acknowledgement, no stage), is sent one every
// QuietEvery ticks instead of every tick: its idle States are most of a
// big map's writes and say nothing a client draws. Its ticks are spread
// by player, so that the writes of a tick stay even. Anything new (its
// own move acknowledged, a player coming into view) goes at the next tick
// as before.
const (
	QuietFloor     = 256
	QuietEvery     = 4
	SpectatorEvery = 2 // a spectator's Overviews, in such a crowd (showSpectators)
)

// quietNow reports whether cl, whose area's news are u, skips this
// tick's State (see QuietEvery).
func (c *Core) quietNow(cl *client, u areaUpdate) bool {
	return (c.tick+uint32(cl.player))%QuietEvery != 0 &&
		!u.full && len(u.changed) == len(c.deltas) && len(u.moved) == len(c.runs) &&
		len(u.gone) == len(c.gones) && len(u.left) == len(c.lefts) && len(u.met) == 0 &&
		cl.lastSeq == cl.toldAck && len(cl.staged) == 0 && c.cur.count(cl.area.r) <= 1
}

// snapshot returns every player's cell, sorted by ID, in a buffer that
// the next call reuses (the index copies what it needs).
func (c *Core) snapshot() []grid.PlayerPos {
	c.positions = c.world.Players(c.positions[:0])
	return c.positions
}

// sendOwnState sends cl alone a State between broadcasts, which the next
// broadcast's news does not start from: unless its area is fresh, the
// State is its acknowledgement alone (moves since the last broadcast are
// the next one's news). A fresh area gets a full picture of the world as
// it is now, and another at the next broadcast.
func (c *Core) sendOwnState(now time.Duration, cl *client) {
	u := c.startUpdate()
	if cl.area.fresh {
		at, _ := c.world.Pos(cl.player)
		c.cur.build(c.cfg.Map.Width(), c.cfg.Map.Height(), c.snapshot()) // cur is free between broadcasts
		cl.area.tellEarly(&u, cl.player, at, c.cur)
	}
	c.sendState(now, cl, u, nil)
}

// startUpdate returns an areaUpdate that appends to the batch's buffers.
func (c *Core) startUpdate() areaUpdate {
	return areaUpdate{changed: c.deltas, moved: c.runs, gone: c.gones, left: c.lefts, met: c.met[:0]}
}

// sendState sends cl a State of u, the news of its area since the last
// one, after a Join for each player it has not met. u's slices were
// started by startUpdate; its runs are of moved.
func (c *Core) sendState(now time.Duration, cl *client, u areaUpdate, moved *protocol.SharedPlayers) {
	d, r, g, l := len(c.deltas), len(c.runs), len(c.gones), len(c.lefts)
	c.deltas, c.runs, c.gones, c.lefts, c.met = u.changed, u.moved, u.gone, u.left, u.met
	for _, id := range c.met {
		c.send(cl.conn, c.slots[id].join)
		c.tellProtected(now, cl, c.slots[id])
	}
	c.sendStages(now, cl)
	st := c.states.get()
	st.Tick = c.tick
	st.TimeNS = uint64(max(now, 0).Truncate(time.Microsecond))
	st.Ack = cl.lastSeq
	cl.toldAck = cl.lastSeq
	st.Full = u.full
	st.Players = c.deltas[d:len(c.deltas):len(c.deltas)]
	st.Shared, st.Runs = moved, c.runs[r:len(c.runs):len(c.runs)]
	if len(st.Runs) == 0 {
		st.Shared = nil
	}
	st.Gone = c.gones[g:len(c.gones):len(c.gones)]
	st.Left = c.lefts[l:len(c.lefts):len(c.lefts)]
	c.stats.StatesSent++
	c.send(cl.conn, st)
}

// freeID returns the lowest player ID not in use nor held (see departed).
// The caller has checked that one is free; if every free one is held, a
// broadcast at now tells of the departures first.
func (c *Core) freeID(now time.Duration) grid.PlayerID {
	for range 2 {
		for i := 1; i < len(c.slots); i++ {
			if c.slots[i] == nil && !c.held[i] {
				return grid.PlayerID(i)
			}
		}
		c.broadcast(now)
	}
	return 0
}

// spawnCell picks the cell a player joins or respawns on: away from the
// human spawn cells for a bot, see humanSpawn for a human.
func (c *Core) spawnCell(bot bool) (grid.Pos, bool) {
	if bot {
		// Not on a human spawn cell while another is free; on one rather
		// than refused "room full" with a cell free (Holds).
		anchor := botAnchor(c.cfg.Map, c.botN)
		if p, ok := c.spawnNear(anchor, true); ok {
			return p, true
		}
		return c.spawnNear(anchor, false)
	}
	return c.humanSpawn()
}

// humanSpawn picks a human's cell: Spawn, else the first free of Spawns,
// else the free cell nearest to Spawn on the main floor.
func (c *Core) humanSpawn() (grid.Pos, bool) {
	for _, p := range c.spawns {
		if c.world.Free(p) {
			return p, true
		}
	}
	return c.spawnNear(c.cfg.Spawn, false)
}

// freeName returns the name a newcomer asking for want plays under, and
// its look-alike key (names.Key): want itself if nobody here has a
// name that is or looks the same, else the first of want-2, want-3, ...
// (want shortened to fit) that is free, so that a class whose machines
// share one user name all play, each under a name of its own, and nobody
// takes a name that looks like another's. The key is "" if no variant is
// free.
func (c *Core) freeName(want string, bot bool) (name, key string) {
	if key := names.Key(want); c.names[key] == nil {
		return want, key
	}
	base := []rune(want)
	for n := 2; n <= maxNameVariant; n++ {
		suffix := "-" + strconv.Itoa(n)
		keep := min(len(base), protocol.MaxNameRunes-len(suffix))
		name := strings.TrimRight(string(base[:keep]), " ") + suffix
		if names.CheckPlayer(name, bot) != nil {
			continue
		}
		if key := names.Key(name); c.names[key] == nil {
			return name, key
		}
	}
	return "", ""
}

// colorOrder is the order freeColor hands out the palette's colours
// (1 to protocol.NumColors) in: each next one as far from those before
// as the palette allows, so that a few players' colours are told apart
// at a glance.
var colorOrder = [protocol.NumColors]uint8{1, 3, 2, 4, 5, 6, 8, 7}

// freeColor returns the colour of a player joining who would like want
// (0 or out of range: any), whose ID's is own: want if nobody in the
// world has it, else own if nobody has it, else the one fewest have,
// first in colorOrder among equals. A room's players then have as many
// different colours as the palette has (an SSH player's wish is its
// key's, and four keys' often share one).
func (c *Core) freeColor(want, own uint8) uint8 {
	var used [protocol.NumColors + 1]int
	for _, o := range c.slots {
		if o != nil && o.info.Color >= 1 && o.info.Color <= protocol.NumColors {
			used[o.info.Color]++
		}
	}
	if want >= 1 && want <= protocol.NumColors && used[want] == 0 {
		return want
	}
	if used[own] == 0 {
		return own
	}
	best := colorOrder[0]
	for _, col := range colorOrder {
		if used[col] < used[best] {
			best = col
		}
	}
	return best
}

// maxNameVariant is the highest number freeName appends to a taken name.
const maxNameVariant = 999
