package client

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// PressResult says what Core.Press did with a key press.
type PressResult uint8

// The results of a press.
const (
	// Sent: an Input with a new number went out (and, with prediction on,
	// the avatar moved if nothing is in the way).
	Sent PressResult = iota
	// Deferred: the press came sooner than the speed limit allows; it is
	// held (one press at most, the latest wins) and sent as soon as the
	// limit allows.
	Deferred
	// Ignored: not playing yet, or no longer, or Burst presses are already
	// held while reconnecting.
	Ignored
)

// ErrClosed is the Err of a Core closed by the local side.
var ErrClosed = errors.New("client: connection closed")

type pendingInput struct {
	seq  uint32
	dir  grid.Dir // None for a zap
	sent time.Duration
	// For its life (life.go): when its key was pressed, how long the
	// link held its frame back, and a zap's judgement.
	pressed time.Duration
	heldUp  time.Duration
	rewind  time.Duration
	judged  bool
	// still: the input moves nothing when replayed: a zap, or a move sent
	// while the server says the player is frozen.
	still bool
	// render: a zap's RenderNS, sent again as it was after a resume.
	render uint64
}

// Core is the sans-I/O client: a state machine fed with server messages,
// key presses and the time, that predicts, reconciles and interpolates. It
// reports what it sends and what happened in its outbox (Outbox). Its
// Phase says where the connection is (see the package doc). It is not
// safe for concurrent use.
type Core struct {
	base

	me       grid.PlayerID
	m        *grid.Map
	moveTime time.Duration
	rate     int
	burst    int // moves the server accepts back to back

	// Coming back after a drop: the token of the last Welcome and how long
	// the server keeps the avatar for it.
	token     protocol.Token
	resumeFor time.Duration
	droppedAt time.Duration // when the drop that made the player away happened
	dropErr   error         // why
	roster    map[grid.PlayerID]protocol.PlayerInfo
	protected protection // spawn protection, by the server's word

	// world is the client's picture: others at their latest server cells,
	// the player at the predicted cell. It is nil until a State puts the
	// player on the board.
	world     *grid.World
	latest    []grid.PlayerPos  // the players in the area, after the latest State
	spare     []grid.PlayerPos  // the array of the area before, reused
	welcomed  *protocol.Welcome // the Welcome whose map is still arriving
	parts     mapParts          // the parts of that map so far
	server    grid.Pos
	predicted grid.Pos

	pending []pendingInput
	nextSeq uint32
	lastAck uint32
	limit   grid.Limiter
	held    grid.Dir      // a press waiting for the speed limit, None if none
	heldAt  time.Duration // when it was pressed

	// predict, reconcile and interpolate are the switches in force: the
	// player's own (own), but those a teacher holds (class.go).
	predict, reconcile, interpolate bool
	own                             switches
	class                           classState
	perc                            trialState // the room's perception test (perceive.go)

	corrections int
	lastCorr    *Correction
	rtt         time.Duration
	linkRTT     time.Duration // the round trip the player's link injects (its slider)

	interp interpolator
	tag    tagState // zap tag: facing, beam, results, scoreboard (zap.go)
	stats  Stats

	// Instruments (life.go, netgraph.go): the server's clock, the
	// server's stages of the inputs the next State acknowledges, the
	// finished lives, whether the server is asked for stages, what the
	// link held the last bytes down, the States' mean trip down, the net
	// graph and the corrections by cause; smoothing of corrections
	// (smooth.go).
	clock    serverClock
	staged   []protocol.InputStage
	lived    []InputLife
	ended    []InputLife // scratch of state
	trace    bool
	downHeld time.Duration
	downTrip time.Duration
	trips    int // the States downTrip has seen
	graph    graph
	causes   [NumCauses]int
	smooth   bool
}

// Stats are a client's running totals.
type Stats struct {
	InputsSent  int             // inputs sent
	InputsAcked int             // inputs the server acknowledged
	Corrections int             // times the server's word moved the predicted avatar
	Deferred    int             // presses held back by the speed limit
	Resumes     int             // times the player came back after a dropped connection
	ZapsSent    int             // zaps sent
	Tags        int             // zaps the server judged a hit
	Tagged      int             // times the server said this player was tagged
	RTTs        []time.Duration // the round trips measured by Ping/Pong, the latest MaxRTTSamples
}

// MaxRTTSamples bounds Stats.RTTs: a long session keeps the latest ones.
const MaxRTTSamples = 4096

// NewCore returns a client core that starts by sending a Hello at time
// now, or a Resume with Options.Resume.
func NewCore(now time.Duration, opts Options) *Core {
	c := &Core{
		base:      newBase(now, opts),
		roster:    make(map[grid.PlayerID]protocol.PlayerInfo),
		protected: make(protection),
		own: switches{
			predict:     !opts.NoPredict,
			reconcile:   !opts.NoReconcile && !opts.NoPredict,
			interpolate: !opts.NoInterpolate,
			// Prediction off at the start has turned reconciliation off.
			reconcileWas: !opts.NoReconcile,
		},
		clock: serverClock{shared: opts.SharedClock},
		trace: opts.Trace,
	}
	c.predict, c.reconcile, c.interpolate = c.own.predict, c.own.reconcile, c.own.interpolate
	if opts.Code != "" {
		c.send(&protocol.Code{Code: opts.Code})
	}
	if !opts.Resume.IsZero() {
		c.token = opts.Resume
		c.send(&protocol.Resume{Version: protocol.Version, Token: opts.Resume})
		return c
	}
	c.send(&protocol.Hello{Version: protocol.Version, Name: opts.Name, Bot: opts.Bot, Color: opts.Color, Room: opts.Room})
	return c
}

// Ready reports whether the player is on the board: the phase is
// Playing.
func (c *Core) Ready() bool { return c.phase == Playing }

// Me returns the player's ID (0 before the Welcome).
func (c *Core) Me() grid.PlayerID { return c.me }

// Stats returns the running totals. The RTTs slice is shared: copy it to
// keep it.
func (c *Core) Stats() Stats {
	s := c.stats
	s.Corrections = c.corrections
	return s
}

// Close marks the connection closed by the local side and queues a Bye.
func (c *Core) Close() { c.close("player quit") }

// Resumable returns the resume token of the last Welcome and how long the
// server keeps the avatar for it after a drop (zero and 0 if it keeps
// none), for a caller that may come back with it on a client of its own
// (see Options.Resume).
func (c *Core) Resumable() (protocol.Token, time.Duration) { return c.token, c.resumeFor }

// Dropped records that the connection was lost at time now for reason
// err. If the server welcomed the player and gave a resume token, the
// core enters Reconnecting and waits for a new connection (see Resume)
// until the server's window, counted from the first drop, ends; then it
// closes with the first drop's err. Otherwise it closes at once. A second
// word of the same loss (the read and the write of a connection both
// fail) changes nothing while Reconnecting.
func (c *Core) Dropped(now time.Duration, err error) {
	if err == nil {
		err = errors.New("client: connection lost")
	}
	switch {
	case c.phase == Reconnecting:
		return // lost already: the window runs on
	case c.token.IsZero() || c.resumeFor <= 0:
		c.fail(err)
		return
	}
	switch c.phase {
	case Joining, Playing:
		c.droppedAt, c.dropErr = now, err
	case Resuming, CatchingUp:
		// Away since an earlier drop: the window runs from that one.
	default: // Handshaking, Closed
		c.fail(err)
		return
	}
	c.enter(Reconnecting)
	c.welcomed = nil  // a resumed Welcome's map comes again, whole
	c.out = c.out[:0] // nothing more goes on the lost connection
}

// Resume starts the handshake on a new connection at time now, after a
// drop: the core says Resume with its token and enters Resuming. It does
// nothing unless the phase is Reconnecting.
func (c *Core) Resume(now time.Duration) {
	if c.phase != Reconnecting {
		return
	}
	c.lastHeard = now
	c.enter(Resuming)
	c.send(&protocol.Resume{Version: protocol.Version, Token: c.token})
}

// Press handles a key press at time now. See PressResult.
//
// While reconnecting, presses are numbered, predicted and held as pending
// (up to the server's Burst of them, so that the server does not refuse
// them as too fast when they all come at once): the resumed connection
// sends them with those that were unacknowledged at the drop.
func (c *Core) Press(now time.Duration, d grid.Dir) PressResult {
	if !c.takesInput() || !d.Valid() {
		return Ignored
	}
	if !c.limit.Allow(int64(now), int64(c.moveTime), 1) {
		c.held, c.heldAt = d, now
		c.stats.Deferred++
		return Deferred
	}
	c.held = grid.None
	c.sendInput(now, d, now)
	return Sent
}

// takesInput reports whether a press or a zap is taken now: while
// playing, or while away (from a drop until the resumed connection has
// caught up) once the player was on the board, until the server's Burst
// of inputs is held.
func (c *Core) takesInput() bool {
	switch c.phase {
	case Playing:
		return true
	case Reconnecting, Resuming, CatchingUp:
		return c.world != nil && len(c.pending) < c.burst
	}
	return false
}

// sendHeld sends the press the speed limit held back, if it allows it now
// and an input is taken, and notes it (HeldSent).
func (c *Core) sendHeld(now time.Duration) {
	if c.held != grid.None && c.takesInput() && c.limit.Allow(int64(now), int64(c.moveTime), 1) {
		d := c.held
		c.held = grid.None
		c.sendInput(now, d, c.heldAt)
		c.note(Note{Kind: HeldSent})
	}
}

// number gives the next input, pressed at pressed and sent at now, its
// number and keeps it pending until the server acknowledges it.
func (c *Core) number(now time.Duration, d grid.Dir, still bool, pressed time.Duration) uint32 {
	c.nextSeq++
	c.pending = append(c.pending, pendingInput{seq: c.nextSeq, dir: d, sent: now, still: still, pressed: pressed})
	c.stats.InputsSent++
	c.graph.pending(len(c.pending))
	return c.nextSeq
}

// sendInput sends a move in direction d at now, pressed at pressed.
func (c *Core) sendInput(now time.Duration, d grid.Dir, pressed time.Duration) {
	frozen := c.tag.frozen
	seq := c.number(now, d, frozen, pressed)
	if !c.phase.away() {
		c.send(&protocol.Input{Seq: seq, Dir: d})
	}
	if !frozen {
		c.tag.facing = d
	}
	if c.predict && !frozen {
		c.world.Move(c.me, d)
		c.predicted, _ = c.world.Pos(c.me)
	}
}

// NextWake returns the next time Advance has something to do: a held press
// to send, a ping, the silence timeout or the end of the resume window.
// ok is false when nothing is scheduled.
func (c *Core) NextWake() (at time.Duration, ok bool) {
	switch c.phase {
	case Closed:
		return 0, false
	case Handshaking, Resuming:
		return c.giveUpAt(), true
	case Reconnecting:
		at = c.droppedAt + c.resumeFor
	default:
		at = c.nextWake()
	}
	if c.held != grid.None {
		at = min(at, time.Duration(c.limit.Earliest(int64(c.moveTime), 1)))
	}
	if r, ok := c.reportDue(); ok {
		at = min(at, r)
	}
	if s, ok := c.sightDue(c.lastHeard); ok {
		at = min(at, s)
	}
	return at, true
}

// Advance does what is due at time now: it sends a held press once the
// speed limit allows it (while away, numbers it and holds it as pending,
// as Press does), and a Ping every ping interval. A server silent for the
// server timeout ends a handshake, and drops a connection that was
// welcomed (it may resume); a resume window that runs out closes the
// connection.
func (c *Core) Advance(now time.Duration) {
	switch c.phase {
	case Closed:
	case Reconnecting:
		if now >= c.droppedAt+c.resumeFor {
			c.fail(fmt.Errorf("client: could not come back within %v: %w", c.resumeFor, c.dropErr))
			return
		}
		c.sendHeld(now)
	case Handshaking:
		if err := c.silent(now, "answer"); err != nil {
			c.fail(err)
		}
	case Resuming:
		if err := c.silent(now, "word"); err != nil {
			c.Dropped(now, err)
		}
	default: // Joining, Playing, CatchingUp
		if err := c.silent(now, "word"); err != nil {
			c.Dropped(now, err)
			return
		}
		c.sendHeld(now)
		c.keepAlive(now)
		c.sendReport(now)
		c.sendSight(now)
	}
}

// Receive handles a message from the server arriving at time now, and
// notes it (Arrived). While reconnecting or once closed, it ignores it.
func (c *Core) Receive(now time.Duration, m protocol.Message) error {
	switch c.phase {
	case Closed, Reconnecting:
		return nil
	}
	c.lastHeard = now
	c.note(Note{Kind: Arrived, Msg: m})
	arrived := len(c.notes) - 1 // noted before what it makes happen
	corr, err := c.take(now, m)
	c.notes[arrived].Correction = corr
	return err
}

// take handles message m, arriving at time now. It returns the correction
// a State made, if any.
func (c *Core) take(now time.Duration, m protocol.Message) (*Correction, error) {
	switch m := m.(type) {
	case *protocol.Welcome:
		return nil, c.welcome(now, m)
	case *protocol.MapChunk:
		return nil, c.mapPart(now, func() (*grid.Map, error) { return c.parts.add(m) })
	case *protocol.MapBits:
		return nil, c.mapPart(now, func() (*grid.Map, error) { return c.parts.addBits(m) })
	}
	if c.ends(m) {
		return nil, nil
	}
	if !c.phase.connected() {
		return nil, c.refuse(fmt.Errorf("client: %v before Welcome", m.Type()))
	}
	switch m := m.(type) {
	case *protocol.State:
		return c.state(now, m), nil
	case *protocol.Stages:
		c.stagesIn(m)
	case *protocol.Pong:
		if sent := time.Duration(m.Stamp); sent <= now {
			c.rtt = now - sent
			c.graph.roll(now, c)
			c.graph.rtt = c.rtt
			if len(c.stats.RTTs) == MaxRTTSamples {
				c.stats.RTTs = append(c.stats.RTTs[:0], c.stats.RTTs[MaxRTTSamples/2:]...)
			}
			c.stats.RTTs = append(c.stats.RTTs, c.rtt)
		}
	case *protocol.Ping:
		c.send(&protocol.Pong{Stamp: m.Stamp}) // the server measures our round trip
	case *protocol.Join:
		c.roster[m.Player.ID] = known(m.Player)
	case *protocol.ZapResult:
		c.zapResult(now, m)
	case *protocol.Tagged:
		c.tagged(now, m)
	case *protocol.Scores:
		c.scores(now, m)
	case *protocol.Ranking:
		c.ranking(now, m)
	case *protocol.Protect:
		c.protect(now, m)
	case *protocol.Leave:
		c.leftGame(m.ID)
	case *protocol.Conditions:
		c.teach(now, m)
	case *protocol.Trial:
		c.trial(now, m)
	case *protocol.Follow:
		c.follow(m)
	default:
		return nil, fmt.Errorf("client: unexpected %v from the server", m.Type())
	}
	return nil, nil
}

// welcome takes the Welcome that answers the Hello or the Resume: the
// game's numbers and the map, or the map's size if its parts follow.
func (c *Core) welcome(now time.Duration, w *protocol.Welcome) error {
	switch {
	case c.phase != Handshaking && c.phase != Resuming || c.welcomed != nil:
		return c.refuse(errors.New("client: second Welcome"))
	case c.me != 0 && w.Player != c.me:
		return c.refuse(fmt.Errorf("client: resumed as player %d, was %d", w.Player, c.me))
	}
	c.admitted() // out of the server's line, if it waited there
	// The token is the Welcome's from now on: a drop while its map's
	// chunks arrive resumes with it (the server issued it in place of the
	// last).
	c.token, c.resumeFor = w.Token, time.Duration(w.ResumeS)*time.Second
	if w.MapFollows() {
		c.welcomed = w
		c.parts.expecting(w.MapWidth, w.MapHeight)
		return nil // the game starts (or resumes) with the map's last chunk
	}
	m, err := w.Map()
	if err != nil {
		return c.refuse(err)
	}
	c.start(now, w, m)
	return nil
}

// mapPart takes the next part of a map that follows its Welcome (add
// takes it), and starts the game with the map the last one completes.
func (c *Core) mapPart(now time.Duration, add func() (*grid.Map, error)) error {
	m, err := add()
	if err != nil {
		return c.refuse(err)
	}
	if m != nil {
		w := c.welcomed
		c.welcomed = nil
		c.start(now, w, m)
	}
	return nil
}

// start begins the game a Welcome describes, on its map m (Joining), or
// takes it up again after a resume (CatchingUp): the Joins that follow,
// with the full picture of the first State, are the area of now.
func (c *Core) start(now time.Duration, w *protocol.Welcome, m *grid.Map) {
	switch c.phase {
	case Resuming:
		c.stats.Resumes++
		clear(c.roster)
		clear(c.protected)
		c.tag.rank.forget() // a new connection's first Ranking names everyone
		c.enter(CatchingUp)
	default: // Handshaking
		if !c.opts.Resume.IsZero() {
			c.stats.Resumes++ // back with an earlier client's token
		}
		c.enter(Joining)
	}
	c.me = w.Player
	c.m = m
	c.moveTime = time.Duration(w.MoveTimeMS) * time.Millisecond
	c.rate = int(w.UpdateRate)
	c.burst = int(w.Burst)
	for _, p := range w.Players {
		c.roster[p.ID] = known(p)
	}
	c.interp.reset(w, m, c.opts.Jitter)
	c.tag.facing = grid.Right
	c.nextPing = now
	if c.trace {
		c.send(&protocol.Trace{On: true}) // asked on every connection
	}
}

// leftGame forgets player id, who left the game: its name, its cell, and
// its place in the buffered States (it is not drawn walking away).
func (c *Core) leftGame(id grid.PlayerID) {
	delete(c.roster, id)
	delete(c.protected, id)
	c.latest = slices.DeleteFunc(c.latest, func(p grid.PlayerPos) bool { return p.ID == id })
	c.interp.forget(id)
	if c.world != nil {
		c.world.Remove(id)
	}
}

// state applies the server's word: forget those that left the game, bring
// the area up to date with what changed in it, drop acknowledged inputs,
// take the server's position, and with reconciliation re-apply the inputs
// still pending on top of it. The first State puts the player on the
// board (Playing); the first after a resume also sends again what the
// server has not processed. It returns the correction it made, if any.
func (c *Core) state(now time.Duration, s *protocol.State) *Correction {
	transit := now - time.Duration(s.TimeNS)
	c.clock.sawDown(transit)
	c.graph.roll(now, c)
	c.graph.state(transit)
	if at, ok := c.clock.local(time.Duration(s.TimeNS)); ok {
		trip := max(now-at, 0)
		if c.trips == 0 {
			c.downTrip = trip
		}
		c.downTrip += (trip - c.downTrip) / time.Duration(min(c.trips+1, 16)) // the mean, then of the last 16 or so
		c.trips++
	}
	for _, id := range s.Left {
		c.leftGame(id)
	}
	c.latest, c.spare = applyState(c.spare, c.latest, s), c.latest
	whole := *s
	whole.Players = c.latest
	c.interp.add(now, &whole, c.me)

	if s.Ack > c.lastAck {
		c.lastAck = s.Ack
	}
	// A client that came back with another's token (Options.Resume)
	// numbers on from the server's count.
	c.nextSeq = max(c.nextSeq, c.lastAck)
	drop := 0
	for drop < len(c.pending) && c.pending[drop].seq <= c.lastAck {
		drop++
	}
	c.stats.InputsAcked += drop
	replayed := 0
	if c.predict && c.reconcile {
		replayed = len(c.pending) - drop
	}
	c.ended = c.lives(c.ended[:0], now, s, c.pending[:drop], replayed)
	c.pending = append(c.pending[:0], c.pending[drop:]...)
	if c.phase == CatchingUp {
		// The first State after a resume: what the server has not
		// processed goes again, in order, with the same numbers.
		for i := range c.pending {
			in := &c.pending[i]
			in.heldUp = now - in.sent // the drop held it back: its life goes on from the new send
			if in.dir == grid.None {
				c.send(&protocol.Zap{Seq: in.seq, RenderNS: in.render})
			} else {
				c.send(&protocol.Input{Seq: in.seq, Dir: in.dir})
			}
		}
	}

	had := c.world != nil
	before := c.predicted
	c.rebuild(c.latest)
	switch {
	case c.phase == Playing:
	case c.world != nil:
		c.enter(Playing)
	default:
		c.enter(Joining) // dropped before its first State: not on the board yet
	}
	respawn := c.tag.respawn
	c.tag.respawn = false
	defer c.keepLives(c.ended)
	if !had || respawn || !c.predict || c.predicted == before {
		return nil
	}
	c.corrections++
	cause, culprit := c.cause(before)
	cells := manhattan(before, c.predicted)
	c.causes[cause]++
	c.graph.correction(cells)
	if culprit >= 0 {
		c.ended[culprit].Corrected, c.ended[culprit].Cells = true, cells
	}
	c.lastCorr = &Correction{At: now, From: before, To: c.predicted, Seq: s.Ack, Reason: cause.String(), Cause: cause, Cells: cells}
	corr := *c.lastCorr
	return &corr
}

// cause says why the State whose lives are c.ended moved the avatar
// predicted at before: the server's word on those inputs when it gave it
// (their stages), else what the client sees. It also returns which of
// those lives caused it (the first the server refused or blocked, else
// the last), -1 if none.
func (c *Core) cause(before grid.Pos) (Cause, int) {
	culprit := len(c.ended) - 1
	if !c.reconcile {
		return CauseNoReconcile, culprit
	}
	for i, l := range c.ended {
		if !l.Traced {
			continue
		}
		switch l.Outcome {
		case protocol.StagePlayer:
			return CauseBlocked, i
		case protocol.StageTooFast:
			return CauseSpeedLimit, i
		case protocol.StageFrozen:
			return CauseFrozen, i
		}
	}
	if c.tag.frozen {
		return CauseFrozen, culprit
	}
	if c.other(before) {
		return CauseBlocked, culprit
	}
	// Another player next to where the server has the avatar, the way
	// one of its moves went.
	for _, l := range c.ended {
		if !l.Zap && c.other(c.server.Add(l.Dir)) {
			return CauseBlocked, culprit
		}
	}
	for _, in := range c.pending {
		if !in.still && c.other(c.server.Add(in.dir)) {
			return CauseBlocked, culprit
		}
	}
	return CauseOther, culprit
}

// other reports whether another player stands on cell p in the client's
// picture.
func (c *Core) other(p grid.Pos) bool {
	id, ok := c.world.At(p)
	return ok && id != c.me
}

// rebuild makes the client's picture from a State: others at their cells,
// the player at the server's cell, then (with reconciliation) the pending
// inputs replayed on top.
func (c *Core) rebuild(players []grid.PlayerPos) {
	w := grid.NewWorld(c.m, grid.Rules{MoveTime: int64(c.moveTime), Burst: 1})
	found := false
	for _, p := range players {
		if p.ID == c.me {
			c.server, found = p.Pos, true
			continue
		}
		w.Add(p.ID, p.Pos)
	}
	if !found {
		return // not in the world (yet): keep the previous picture
	}
	if id, taken := w.At(c.server); taken {
		w.Remove(id) // the server's word on our own cell wins
	}
	w.Add(c.me, c.server)
	if c.predict && c.reconcile {
		for _, in := range c.pending {
			if !in.still {
				w.Move(c.me, in.dir)
			}
		}
	}
	c.world = w
	c.predicted, _ = w.Pos(c.me)
}

// SetPredict turns prediction on or off. Turning it off also turns
// reconciliation off; turning it back on gives reconciliation back what it
// was before, so pressing the prediction key twice changes nothing. While
// a teacher holds prediction (or, turning it off, reconciliation on) it
// changes nothing (View.Teaching says so).
func (c *Core) SetPredict(on bool) {
	if c.holding(predictHold) != protocol.HoldNone || !on && c.holding(reconcileHold) == protocol.HoldOn {
		return
	}
	o := &c.own
	if on != o.predict {
		if on {
			o.reconcile = o.reconcileWas
		} else {
			o.reconcileWas, o.reconcile = o.reconcile, false
		}
		o.predict = on
	}
	c.apply()
}

// SetReconcile turns reconciliation on or off. Turning it on also turns
// prediction on. Turned off while prediction is off, it stays off when
// prediction comes back. While a teacher holds reconciliation (or,
// turning it on, prediction off) it changes nothing.
func (c *Core) SetReconcile(on bool) {
	if c.holding(reconcileHold) != protocol.HoldNone || on && c.holding(predictHold) == protocol.HoldOff {
		return
	}
	o := &c.own
	o.reconcile, o.reconcileWas = on, on
	if on {
		o.predict = true
	}
	c.apply()
}

// SetInterpolate turns interpolation of other players on or off; while a
// teacher holds it, it changes nothing.
func (c *Core) SetInterpolate(on bool) {
	if c.holding(interpolateHold) != protocol.HoldNone {
		return
	}
	c.own.interpolate = on
	c.apply()
}

// refresh recomputes the picture after a toggle, from the latest State.
// A toggle is not a correction.
func (c *Core) refresh() {
	if c.world != nil {
		c.rebuild(c.latest)
	}
}

// View returns a snapshot of the client at time now.
func (c *Core) View(now time.Duration) View {
	v := View{
		Now:          now,
		Phase:        c.phase,
		Connected:    c.phase.connected(),
		Reconnecting: c.phase.away(),
		Err:          c.err,
		Notice:       c.noticeShown(),
		Me:           c.me,
		Name:         c.opts.Name,
		Map:          c.m,
		Predicted:    c.predicted,
		Server:       c.server,
		HasState:     c.world != nil,
		LastAck:      c.lastAck,
		Corrections:  c.corrections,
		RTT:          c.rtt,
		Predict:      c.predict,
		Reconcile:    c.reconcile,
		Interpolate:  c.interpolate,
		InterpDelay:  c.interp.delay,
		UpdateRate:   c.rate,
		MoveTime:     c.moveTime,
		Smooth:       c.smooth,
		Teaching:     teachingOf(&c.class.cond),
		Perception:   c.perceiving(now),
		Following:    c.class.follow,
	}
	if !c.predict {
		v.Predicted = c.server
	}
	v.Shown = c.shownAt(now, v.Predicted)
	if c.lastCorr != nil {
		corr := *c.lastCorr
		v.LastCorrection = &corr
	}
	if len(c.pending) > 0 {
		v.Pending = make([]PendingInput, len(c.pending))
		for i, p := range c.pending {
			v.Pending[i] = PendingInput{Seq: p.seq, Dir: p.dir, Zap: p.dir == grid.None, Age: now - p.sent}
		}
	}
	if info, ok := c.roster[c.me]; ok {
		v.Name = info.Name // the server's word: another of the same name made it ada-2
		if asked := protocol.SanitizeName(c.opts.Name); asked != v.Name {
			v.AskedName = asked
		}
	}
	if c.interp.hasOffset {
		v.RenderTime = c.interp.renderTime(now)
	}
	var drawn []grid.PlayerPos
	shownAt := c.interp.latest() // the server time of the world others are drawn in
	if c.interpolate {
		drawn = c.interp.at(now)
		shownAt = v.RenderTime
	} else {
		drawn = c.latest
	}
	if len(drawn) > 0 {
		v.Others = make([]Other, 0, len(drawn))
	}
	for _, p := range drawn {
		if p.ID == c.me {
			continue
		}
		info := c.roster[p.ID]
		v.Others = append(v.Others, Other{ID: p.ID, Name: info.Name, Color: info.Color, Pos: p.Pos, Protected: c.protected.at(p.ID, shownAt)})
	}
	c.tagView(now, &v)
	return v
}

// known returns a roster entry with its name made safe to draw
// (protocol.SanitizeName), once as it arrives rather than in every View.
func known(p protocol.PlayerInfo) protocol.PlayerInfo {
	p.Name = protocol.SanitizeName(p.Name)
	return p
}
