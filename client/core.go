package client

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// Phase is where a Core is in the life of a connection.
type Phase uint8

// The phases of a connection.
const (
	Handshaking Phase = iota // Hello sent, waiting for Welcome
	Playing                  // Welcome received
	Closed                   // Error, Bye or disconnect
	// Reconnecting: the connection dropped and the server keeps the
	// avatar for a while; the caller dials again and calls Resume.
	Reconnecting
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
	// still: the input moves nothing when replayed: a zap, or a move sent
	// while the server says the player is frozen.
	still bool
	// render: a zap's RenderNS, sent again as it was after a resume.
	render uint64
}

// Core is the sans-I/O client: a state machine fed with server messages,
// key presses and the time, that predicts, reconciles and interpolates. It
// is not safe for concurrent use.
type Core struct {
	opts   Options
	phase  Phase
	err    error
	notice string // the server's last Notice
	out    []protocol.Message

	me       grid.PlayerID
	m        *grid.Map
	moveTime time.Duration
	rate     int
	burst    int // moves the server accepts back to back

	// Coming back after a drop: the token of the last Welcome and how long
	// the server keeps the avatar for it.
	token     protocol.Token
	resumeFor time.Duration
	resuming  bool          // the handshake under way is a Resume
	away      bool          // dropped: inputs are held, not sent, until the resumed State
	droppedAt time.Duration // when the drop that made it away happened
	dropErr   error         // why
	roster    map[grid.PlayerID]protocol.PlayerInfo
	protected protection // spawn protection, by the server's word

	// world is the client's picture: others at their latest server cells,
	// the player at the predicted cell.
	world     *grid.World
	latest    []grid.PlayerPos  // the players in the area, after the latest State
	spare     []grid.PlayerPos  // the array of the area before, reused
	waiting   *protocol.Welcome // a Welcome whose map is still arriving
	parts     mapParts          // the parts of that map so far
	server    grid.Pos
	predicted grid.Pos
	hasState  bool

	pending []pendingInput
	nextSeq uint32
	lastAck uint32
	limit   grid.Limiter
	held    grid.Dir // a press waiting for the speed limit, None if none

	predict, reconcile, interpolate bool
	// reconcileWas is what reconciliation goes back to when prediction,
	// which turned it off, comes back on.
	reconcileWas bool

	corrections int
	lastCorr    *Correction
	rtt         time.Duration
	nextPing    time.Duration
	lastHeard   time.Duration // when the last message from the server arrived

	interp interpolator
	tag    tagState // zap tag: facing, beam, results, scoreboard (zap.go)
	stats  Stats
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

// NewCore returns a client core that starts by sending a Hello at time now.
func NewCore(now time.Duration, opts Options) *Core {
	c := &Core{
		opts:        opts,
		roster:      make(map[grid.PlayerID]protocol.PlayerInfo),
		protected:   make(protection),
		predict:     !opts.NoPredict,
		reconcile:   !opts.NoReconcile && !opts.NoPredict,
		interpolate: !opts.NoInterpolate,
		// Prediction off at the start has turned reconciliation off.
		reconcileWas: !opts.NoReconcile,
		nextPing:     now,
		lastHeard:    now,
	}
	if !opts.Resume.IsZero() {
		c.token, c.resuming = opts.Resume, true
		c.send(&protocol.Resume{Version: protocol.Version, Token: opts.Resume})
		return c
	}
	c.send(&protocol.Hello{Version: protocol.Version, Name: opts.Name, Bot: opts.Bot, Color: opts.Color, Room: opts.Room})
	return c
}

// Phase returns where the connection is.
func (c *Core) Phase() Phase { return c.phase }

// Ready reports whether the handshake is done: the Welcome and the first
// State have arrived, so the player is on the board.
func (c *Core) Ready() bool { return c.phase == Playing && c.hasState }

// Err returns why the connection closed, or nil.
func (c *Core) Err() error { return c.err }

// Me returns the player's ID (0 before the Welcome).
func (c *Core) Me() grid.PlayerID { return c.me }

// Stats returns the running totals. The RTTs slice is shared: copy it to
// keep it.
func (c *Core) Stats() Stats {
	s := c.stats
	s.Corrections = c.corrections
	return s
}

// Outbox returns the messages to send, in order, and empties it. The slice
// is reused by the next call of a Core method.
func (c *Core) Outbox() []protocol.Message {
	out := c.out
	c.out = c.out[:0]
	return out
}

func (c *Core) send(m protocol.Message) { c.out = append(c.out, m) }

// Close marks the connection closed by the local side and queues a Bye.
func (c *Core) Close() {
	if c.phase == Closed {
		return
	}
	c.send(&protocol.Bye{Reason: "player quit"})
	c.fail(ErrClosed)
}

// Disconnected records that the connection was lost for reason err.
func (c *Core) Disconnected(err error) {
	if err == nil {
		err = errors.New("client: connection lost")
	}
	c.fail(err)
}

// Resumable returns the resume token of the last Welcome and how long the
// server keeps the avatar for it after a drop (zero and 0 if it keeps
// none), for a caller that may come back with it on a client of its own
// (see Options.Resume).
func (c *Core) Resumable() (protocol.Token, time.Duration) { return c.token, c.resumeFor }

// Dropped records that the connection was lost at time now for reason
// err. If the server gave a resume token, the core waits for a new
// connection (phase Reconnecting; see Resume) until the server's window
// ends, then it closes with err; otherwise it closes at once.
func (c *Core) Dropped(now time.Duration, err error) {
	if err == nil {
		err = errors.New("client: connection lost")
	}
	resumable := c.phase == Playing || c.phase == Handshaking && c.resuming
	if !resumable || c.token.IsZero() || c.resumeFor <= 0 {
		c.fail(err)
		return
	}
	if !c.away {
		c.away, c.droppedAt, c.dropErr = true, now, err
	}
	c.phase = Reconnecting
	c.waiting = nil   // a resumed Welcome's map comes again, whole
	c.out = c.out[:0] // nothing more goes on the lost connection
}

// Resume starts the handshake on a new connection at time now, after a
// drop: the core says Resume with its token. It does nothing unless the
// phase is Reconnecting.
func (c *Core) Resume(now time.Duration) {
	if c.phase != Reconnecting {
		return
	}
	c.phase, c.resuming, c.lastHeard = Handshaking, true, now
	c.send(&protocol.Resume{Version: protocol.Version, Token: c.token})
}

func (c *Core) fail(err error) {
	if c.phase != Closed {
		c.phase, c.err = Closed, err
	}
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
		c.held = d
		c.stats.Deferred++
		return Deferred
	}
	c.held = grid.None
	c.sendInput(now, d)
	return Sent
}

// takesInput reports whether a press or a zap is taken now: while
// playing, with a State, or while reconnecting until the server's Burst of
// inputs is held.
func (c *Core) takesInput() bool {
	if c.phase != Playing && !c.away || !c.hasState || c.phase == Closed {
		return false
	}
	return !c.away || len(c.pending) < c.burst
}

// sendHeld sends the press the speed limit held back, if it allows it now
// and an input is taken.
func (c *Core) sendHeld(now time.Duration) {
	if c.held != grid.None && c.takesInput() && c.limit.Allow(int64(now), int64(c.moveTime), 1) {
		d := c.held
		c.held = grid.None
		c.sendInput(now, d)
	}
}

// number gives the next input, sent at now, its number and keeps it
// pending until the server acknowledges it.
func (c *Core) number(now time.Duration, d grid.Dir, still bool) uint32 {
	c.nextSeq++
	c.pending = append(c.pending, pendingInput{seq: c.nextSeq, dir: d, sent: now, still: still})
	c.stats.InputsSent++
	return c.nextSeq
}

func (c *Core) sendInput(now time.Duration, d grid.Dir) {
	frozen := c.tag.frozen
	seq := c.number(now, d, frozen)
	if !c.away {
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
// to send or a ping. ok is false when nothing is scheduled.
func (c *Core) NextWake() (at time.Duration, ok bool) {
	switch c.phase {
	case Handshaking:
		return c.lastHeard + c.opts.serverTimeout(), true
	case Closed:
		return 0, false
	case Reconnecting:
		at = c.droppedAt + c.resumeFor
		if c.held != grid.None {
			at = min(at, time.Duration(c.limit.Earliest(int64(c.moveTime), 1)))
		}
		return at, true
	}
	at = min(c.nextPing, c.lastHeard+c.opts.serverTimeout())
	if c.held != grid.None {
		at = min(at, time.Duration(c.limit.Earliest(int64(c.moveTime), 1)))
	}
	return at, true
}

// Advance does what is due at time now: it sends a held press once the
// speed limit allows it (while reconnecting, numbers it and holds it as
// pending, as Press does), and a Ping every ping interval.
func (c *Core) Advance(now time.Duration) {
	switch {
	case c.phase == Closed:
		return
	case c.phase == Reconnecting:
		if now >= c.droppedAt+c.resumeFor {
			c.fail(fmt.Errorf("client: could not come back within %v: %w", c.resumeFor, c.dropErr))
			return
		}
		c.sendHeld(now)
		return
	}
	if silent := now - c.lastHeard; silent >= c.opts.serverTimeout() {
		if c.phase == Handshaking && !c.resuming {
			c.fail(fmt.Errorf("client: no answer from the server for %v", silent.Round(time.Millisecond)))
		} else {
			c.Dropped(now, fmt.Errorf("client: no word from the server for %v", silent.Round(time.Millisecond)))
		}
		return
	}
	if c.phase != Playing {
		return
	}
	c.sendHeld(now)
	if now >= c.nextPing {
		c.send(&protocol.Ping{Stamp: uint64(now)})
		c.nextPing = now + c.opts.pingInterval()
	}
}

// Receive handles a message from the server arriving at time now.
func (c *Core) Receive(now time.Duration, m protocol.Message) error {
	if c.phase == Closed || c.phase == Reconnecting {
		return nil
	}
	c.lastHeard = now
	switch m := m.(type) {
	case *protocol.Welcome:
		return c.welcome(now, m)
	case *protocol.Error:
		c.fail(refusalError(m))
		return nil
	case *protocol.Bye:
		c.fail(byeError(m))
		return nil
	case *protocol.Notice:
		c.notice = protocol.Printable(m.Text) // it reaches the player's screen
		return nil
	case *protocol.MapChunk:
		return c.mapPart(now, func() (*grid.Map, error) { return c.parts.add(m) })
	case *protocol.MapBits:
		return c.mapPart(now, func() (*grid.Map, error) { return c.parts.addBits(m) })
	}
	if c.phase != Playing {
		err := fmt.Errorf("client: %v before Welcome", m.Type())
		c.fail(err)
		return err
	}
	switch m := m.(type) {
	case *protocol.State:
		c.state(now, m)
	case *protocol.Pong:
		if sent := time.Duration(m.Stamp); sent <= now {
			c.rtt = now - sent
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
	default:
		return fmt.Errorf("client: unexpected %v from the server", m.Type())
	}
	return nil
}

func (c *Core) welcome(now time.Duration, w *protocol.Welcome) error {
	if c.phase != Handshaking || c.waiting != nil {
		err := errors.New("client: second Welcome")
		c.fail(err)
		return err
	}
	if c.resuming && c.me != 0 && w.Player != c.me {
		err := fmt.Errorf("client: resumed as player %d, was %d", w.Player, c.me)
		c.fail(err)
		return err
	}
	// The token is the Welcome's from now on: a drop while its map's
	// chunks arrive resumes with it (the server issued it in place of the
	// last).
	c.token, c.resumeFor = w.Token, time.Duration(w.ResumeS)*time.Second
	if w.MapFollows() {
		c.waiting = w
		c.parts.expecting(w.MapWidth, w.MapHeight)
		return nil // the game starts (or resumes) with the map's last chunk
	}
	m, err := w.Map()
	if err != nil {
		c.fail(err)
		return err
	}
	c.start(now, w, m)
	return nil
}

// mapPart takes the next part of a map that follows its Welcome (add
// takes it), and starts the game with the map the last one completes.
func (c *Core) mapPart(now time.Duration, add func() (*grid.Map, error)) error {
	m, err := add()
	if err != nil {
		c.fail(err)
		return err
	}
	if m != nil {
		w := c.waiting
		c.waiting = nil
		c.start(now, w, m)
	}
	return nil
}

// start begins the game a Welcome describes, on its map m, or takes it up
// again after a resume: the Joins that follow, with the full picture of
// the first State, are the area of now.
func (c *Core) start(now time.Duration, w *protocol.Welcome, m *grid.Map) {
	if c.resuming {
		c.stats.Resumes++
		c.resuming = false
		clear(c.roster)
		clear(c.protected)
		c.tag.names = nil // a new connection's first Ranking names everyone
	}
	c.phase = Playing
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
// still pending on top of it.
func (c *Core) state(now time.Duration, s *protocol.State) {
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
	c.pending = append(c.pending[:0], c.pending[drop:]...)
	if c.away {
		// The first State after a resume: what the server has not
		// processed goes again, in order, with the same numbers.
		c.away = false
		for _, in := range c.pending {
			if in.dir == grid.None {
				c.send(&protocol.Zap{Seq: in.seq, RenderNS: in.render})
			} else {
				c.send(&protocol.Input{Seq: in.seq, Dir: in.dir})
			}
		}
	}

	had := c.hasState
	before := c.predicted
	c.rebuild(c.latest)
	respawn := c.tag.respawn
	c.tag.respawn = false
	if !had || respawn {
		return
	}
	if c.predict && c.predicted != before {
		c.corrections++
		reason := "the server disagreed"
		if !c.reconcile {
			reason = "no reconciliation: pending inputs not replayed"
		} else if id, ok := c.world.At(before); ok && id != c.me {
			reason = "blocked by another player"
		}
		c.lastCorr = &Correction{At: now, From: before, To: c.predicted, Seq: s.Ack, Reason: reason}
		if c.opts.Logger != nil {
			c.opts.Logger.Info("correction", "from", before, "to", c.predicted, "ack", s.Ack, "reason", reason)
		}
	}
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
	c.hasState = true
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
// was before, so pressing the prediction key twice changes nothing.
func (c *Core) SetPredict(on bool) {
	if on != c.predict {
		if on {
			c.reconcile = c.reconcileWas
		} else {
			c.reconcileWas, c.reconcile = c.reconcile, false
		}
		c.predict = on
	}
	c.refresh()
}

// SetReconcile turns reconciliation on or off. Turning it on also turns
// prediction on. Turned off while prediction is off, it stays off when
// prediction comes back.
func (c *Core) SetReconcile(on bool) {
	c.reconcile, c.reconcileWas = on, on
	if on {
		c.predict = true
	}
	c.refresh()
}

// SetInterpolate turns interpolation of other players on or off.
func (c *Core) SetInterpolate(on bool) { c.interpolate = on }

// refresh recomputes the picture after a toggle, from the latest State.
// A toggle is not a correction.
func (c *Core) refresh() {
	if c.hasState {
		c.rebuild(c.latest)
	}
}

// View returns a snapshot of the client at time now.
func (c *Core) View(now time.Duration) View {
	v := View{
		Now:          now,
		Connected:    c.phase == Playing,
		Reconnecting: c.away,
		Err:          c.err,
		Notice:       c.notice,
		Me:           c.me,
		Name:         c.opts.Name,
		Map:          c.m,
		Predicted:    c.predicted,
		Server:       c.server,
		HasState:     c.hasState,
		LastAck:      c.lastAck,
		Corrections:  c.corrections,
		RTT:          c.rtt,
		Predict:      c.predict,
		Reconcile:    c.reconcile,
		Interpolate:  c.interpolate,
		InterpDelay:  c.interp.delay,
		UpdateRate:   c.rate,
		MoveTime:     c.moveTime,
	}
	if !c.predict {
		v.Predicted = c.server
	}
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
	if info, ok := c.roster[c.me]; ok && v.Name == "" {
		v.Name = info.Name
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
