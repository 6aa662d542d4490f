package client

import (
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// Following a student (protocol version 6): a room's teacher picks one
// student (Spectator.Follow), and the server tells every client of the
// room whom it follows. The student it names sends what only it sees of
// itself (protocol.Sight: its avatar where it draws it, its ghost, its
// pending inputs, its switches) when that changes, at most every
// SightEvery, and the room's spectators and teachers show it
// (WorldView.Sight): the projector draws the student's view beside the
// server's.

// SightEvery is the shortest time between two Sights of a followed
// student.
const SightEvery = 50 * time.Millisecond

// Sight is what the followed student sees of itself, as its last Sight
// said, for a spectator's screen to draw beside the server's view.
type Sight struct {
	ID grid.PlayerID // the student
	At time.Duration // when it came, on the viewer's clock
	// Pos is the avatar where the student draws it (its prediction, or
	// the server's word with prediction off), facing Facing; Ghost where
	// the server last said it is. Both mean nothing before HasState.
	Pos                             grid.Pos
	Facing                          grid.Dir
	Ghost                           grid.Pos
	HasState                        bool
	Predict, Reconcile, Interpolate bool
	Ack                             uint32        // the last input the server acknowledged
	InterpDelay                     time.Duration // how far in the past it draws the others
	RTT                             time.Duration // its round trip; see HasRTT
	HasRTT                          bool
	Latency                         time.Duration // the round trip it injected itself
	Corrections                     int
	// Pending are its unacknowledged inputs, oldest first, their ages
	// as of the view's time.
	Pending []PendingInput
}

// sightOf returns the Sight of student id a Followed carried, arriving
// at at.
func sightOf(id grid.PlayerID, at time.Duration, m *protocol.Sight) *Sight {
	s := &Sight{
		ID: id, At: at, Pos: m.Pos, Facing: m.Facing, Ghost: m.Ghost, HasState: m.HasState,
		Predict: m.Predict, Reconcile: m.Reconcile, Interpolate: m.Interpolate, Ack: m.Ack,
		InterpDelay: time.Duration(m.InterpMS) * time.Millisecond,
		Latency:     time.Duration(m.LatencyMS) * time.Millisecond,
		Corrections: int(m.Corrections),
	}
	if m.RTTMS != protocol.NoRTT {
		s.RTT, s.HasRTT = time.Duration(m.RTTMS)*time.Millisecond, true
	}
	for _, in := range m.Pending {
		s.Pending = append(s.Pending, PendingInput{Seq: in.Seq, Dir: in.Dir, Zap: in.Dir == grid.None, Age: time.Duration(in.AgeMS) * time.Millisecond})
	}
	return s
}

// at returns the Sight as of now: its inputs' ages grown by the time
// since it came.
func (s *Sight) at(now time.Duration) *Sight {
	c := *s
	c.Pending = slices.Clone(s.Pending)
	for i := range c.Pending {
		c.Pending[i].Age += max(now-s.At, 0)
	}
	return &c
}

// follow takes the server's word on whom the room follows: when it is
// this player, a Sight goes at once.
func (c *Core) follow(m *protocol.Follow) {
	if m.ID != c.class.follow {
		c.class.sighted = false
	}
	c.class.follow = m.ID
}

// followed reports whether the room follows this player.
func (c *Core) followed() bool { return c.me != 0 && c.class.follow == c.me }

// sight is what the player would tell of itself now.
func (c *Core) sight(now time.Duration) protocol.Sight {
	s := protocol.Sight{
		Pos: c.shown(), Facing: c.tag.facing, Ghost: c.server, HasState: c.world != nil,
		Predict: c.predict, Reconcile: c.reconcile, Interpolate: c.interpolate,
		Ack:         c.lastAck,
		InterpMS:    uint16(min(c.interp.delay.Milliseconds(), 65535)),
		RTTMS:       protocol.RTTFromMS(c.rtt.Round(time.Millisecond).Milliseconds(), c.rtt > 0),
		LatencyMS:   uint16(min(c.linkRTT.Milliseconds(), 65535)),
		Corrections: uint32(c.corrections),
	}
	pending := c.pending[max(len(c.pending)-protocol.MaxSightPending, 0):]
	if len(pending) > 0 {
		s.Pending = make([]protocol.SightInput, 0, len(pending))
	}
	for _, in := range pending {
		s.Pending = append(s.Pending, protocol.SightInput{Seq: in.seq, Dir: in.dir, AgeMS: uint16(min(max(now-in.sent, 0).Milliseconds(), 65535))})
	}
	return s
}

// sameSight reports whether a and b tell the same, their inputs' ages
// aside (a spectator ages them itself).
func sameSight(a, b *protocol.Sight) bool {
	return a.Pos == b.Pos && a.Facing == b.Facing && a.Ghost == b.Ghost && a.HasState == b.HasState &&
		a.Predict == b.Predict && a.Reconcile == b.Reconcile && a.Interpolate == b.Interpolate &&
		a.Ack == b.Ack && a.InterpMS == b.InterpMS && a.RTTMS == b.RTTMS && a.LatencyMS == b.LatencyMS &&
		a.Corrections == b.Corrections &&
		slices.EqualFunc(a.Pending, b.Pending, func(p, q protocol.SightInput) bool { return p.Seq == q.Seq && p.Dir == q.Dir })
}

// sightDue returns when the next Sight is due: the room follows this
// player, who plays, and what it would tell differs from the last it
// told (at once the first time); ok is false otherwise.
func (c *Core) sightDue(now time.Duration) (at time.Duration, ok bool) {
	if !c.followed() || c.phase != Playing {
		return 0, false
	}
	if !c.class.sighted {
		return c.class.sightAt, true
	}
	if s := c.sight(now); sameSight(&s, &c.class.sight) {
		return 0, false
	}
	return c.class.sightAt + SightEvery, true
}

// sendSight sends a Sight if one is due at now.
func (c *Core) sendSight(now time.Duration) {
	if at, ok := c.sightDue(now); !ok || at > now {
		return
	}
	s := c.sight(now)
	c.send(&s)
	c.class.sight, c.class.sightAt, c.class.sighted = s, now, true
}

// linkSet notes the round trip the player's link injects (its slider),
// which a Sight tells.
func (c *Core) linkSet(rtt time.Duration) { c.linkRTT = rtt }
