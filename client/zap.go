package client

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// BeamFlash is how long View shows the player's own beam after a zap.
const BeamFlash = 200 * time.Millisecond

// tagState is what a Core knows of the game of zap tag. Everything but
// the facing and the beam is the server's word: a tag, a point or a freeze
// shows only when the server says so (netcode-notes section 3: never
// predict what cannot be undone).
type tagState struct {
	facing grid.Dir
	gun    grid.Cooldown // the local copy of the server's cooldown, for the beam only

	beam   []grid.Pos    // the last beam drawn at once, cosmetic
	beamAt time.Duration // when it was fired

	result *ZapResult
	tagged *TagNote
	frozen bool          // the server says the player is frozen
	thaw   time.Duration // when it should respawn, by the Tagged's word
	// respawn: the server said the player thawed; the next State moves it
	// to its respawn cell, which is no correction.
	respawn bool

	scores   *protocol.Scores // the latest scoreboard (version 3)
	scoresAt time.Duration    // when it arrived

	rank ranked // the latest Ranking (version 4), the room's scoreboard

	shield time.Duration // when the player's own spawn protection ends, on its clock
}

// Zap fires a zap at time now in the direction the player faces. It is an
// input like a move: it takes the next number, is pending until the server
// acknowledges it, and replays as nothing. The beam shows at once (View's
// Beam, cosmetic, unless frozen or cooling down); whether it hit shows
// when the server's ZapResult comes. It carries the server time of the
// world the player sees: the interpolation render time. While
// reconnecting, a zap is held like a press (see Press) and goes with its
// number and render time once the connection is resumed.
func (c *Core) Zap(now time.Duration) PressResult {
	if !c.takesInput() {
		return Ignored
	}
	c.stats.ZapsSent++
	render := uint64(max(c.seenTime(now), 0))
	seq := c.number(now, grid.None, true, now)
	c.pending[len(c.pending)-1].render = render
	if !c.phase.away() {
		c.send(&protocol.Zap{Seq: seq, RenderNS: render})
	}
	if !c.tag.frozen && c.tag.gun.Fire(int64(now)) {
		b := grid.Trace(c.m, c.shown(), c.tag.facing, c.drawn(now))
		c.tag.beam, c.tag.beamAt = b.Cells(c.tag.beam[:0]), now
	}
	return Sent
}

// shown is where the player sees its own avatar.
func (c *Core) shown() grid.Pos {
	if c.predict {
		return c.predicted
	}
	return c.server
}

// seenTime is the server time of the world the player sees at now: the
// render time with interpolation, the latest State's time without.
func (c *Core) seenTime(now time.Duration) time.Duration {
	if !c.interp.hasOffset {
		return 0
	}
	if c.interpolate {
		return c.interp.renderTime(now)
	}
	return c.interp.latest()
}

// drawn returns the other players where the player sees them at now.
func (c *Core) drawn(now time.Duration) []grid.PlayerPos {
	if c.interpolate {
		return c.interp.at(now)
	}
	return c.latest
}

// ZapResult is the server's judgement of one of the player's zaps.
type ZapResult struct {
	At      time.Duration // when it arrived, on the client's clock
	Seq     uint32
	Outcome protocol.ZapOutcome
	Target  string        // the tagged player, or the one seen in line for ZapLeft
	Rewind  time.Duration // how far back the server judged it
}

// Line says it in the panel's words: "hit ada (rewound 230ms)",
// "miss: ada had left the line", "miss: ada was protected", "miss: ada
// was already tagged", "miss: out of range".
func (r ZapResult) Line() string {
	switch r.Outcome {
	case protocol.ZapHit:
		return fmt.Sprintf("hit %s (rewound %s)", r.Target, Millis(r.Rewind))
	case protocol.ZapLeft:
		return fmt.Sprintf("miss: %s had left the line", r.Target)
	case protocol.ZapProtected:
		return fmt.Sprintf("miss: %s was protected", r.Target)
	case protocol.ZapTagged:
		return fmt.Sprintf("miss: %s was already tagged", r.Target)
	}
	return "miss: " + r.Outcome.String()
}

// TagNote is the server's word that the player was tagged.
type TagNote struct {
	At   time.Duration // when it arrived, on the client's clock
	By   string        // the shooter
	Seen grid.Pos      // where the shooter saw the player
	Ago  time.Duration // how long before the server judged it
}

// Line says it in the panel's words: "tagged by bob, who saw you at
// (12,10) 230ms ago".
func (n TagNote) Line() string {
	return fmt.Sprintf("tagged by %s, who saw you at %v %s ago", n.By, n.Seen, Millis(n.Ago))
}

// ScoreLine is one player on the scoreboard.
type ScoreLine struct {
	ID     grid.PlayerID
	Name   string // sanitised for display
	Color  uint8  // palette index from the server, 0 if unknown
	Bot    bool
	Me     bool
	Frozen bool
	Points int
	Rank   int // 1 + the players online with more points
	// Protected: under spawn protection, as far as the player knows (its
	// own, and that of the players it sees).
	Protected bool
}

// Winner is the winner of a round.
type Winner struct {
	Name   string
	Points int
}

// name returns the name of player id: the one it was introduced by, or
// the one the scoreboard gives it.
func (c *Core) name(id grid.PlayerID) string {
	if info, ok := c.roster[id]; ok {
		return info.Name
	}
	return c.tag.rank.name(id)
}

func (c *Core) zapResult(now time.Duration, m *protocol.ZapResult) {
	if m.Outcome == protocol.ZapHit {
		c.stats.Tags++
	}
	c.tag.result = &ZapResult{At: now, Seq: m.Seq, Outcome: m.Outcome, Target: c.name(m.Target), Rewind: time.Duration(m.RewindMS) * time.Millisecond}
	for i := range c.pending {
		if c.pending[i].seq == m.Seq {
			c.pending[i].rewind, c.pending[i].judged = c.tag.result.Rewind, true
		}
	}
}

func (c *Core) tagged(now time.Duration, m *protocol.Tagged) {
	c.stats.Tagged++
	c.tag.tagged = &TagNote{At: now, By: c.name(m.By), Seen: m.Seen, Ago: time.Duration(m.AgoMS) * time.Millisecond}
	c.tag.frozen = true
	c.tag.thaw = now + time.Duration(m.FrozenMS)*time.Millisecond
}

func (c *Core) scores(now time.Duration, m *protocol.Scores) {
	c.tag.scores, c.tag.scoresAt = m, now
	for _, p := range m.Players {
		if p.ID == c.me {
			c.ownFrozen(p.Frozen)
		}
	}
}

// ownFrozen takes the scoreboard's word on whether the player is frozen:
// a thaw means the next State moves it to its respawn cell.
func (c *Core) ownFrozen(frozen bool) {
	c.tag.respawn = c.tag.respawn || c.tag.frozen && !frozen
	c.tag.frozen = frozen
}

// ranking takes the room's scoreboard (version 4): the names of the
// players it lists, from it or from the Ranking before, and the winner's.
func (c *Core) ranking(now time.Duration, m *protocol.Ranking) {
	c.tag.rank.take(now, m)
	for _, p := range m.Players {
		if p.ID == c.me {
			c.ownFrozen(p.Frozen)
		}
	}
}

// protect takes the server's word that a player is protected: the
// player itself, shown at once, or another, shown where it is drawn.
func (c *Core) protect(now time.Duration, m *protocol.Protect) {
	c.protected.prune(c.interp.latest() - interpMaxDelay)
	c.protected.set(m)
	if m.ID == c.me {
		c.tag.shield = now + time.Duration(m.UntilNS) - c.interp.latest()
	}
}

// tagView fills in v what the player sees of zap tag at now.
func (c *Core) tagView(now time.Duration, v *View) {
	t := &c.tag
	v.Facing = t.facing
	if t.beam != nil && now-t.beamAt < BeamFlash {
		v.Beam, v.BeamAt = slices.Clone(t.beam), t.beamAt
	}
	if t.result != nil {
		r := *t.result
		v.LastZap = &r
	}
	if t.tagged != nil {
		n := *t.tagged
		v.LastTagged = &n
	}
	v.Frozen = t.frozen
	if t.frozen {
		v.FrozenUntil = t.thaw
	}
	if now < t.shield && !t.frozen {
		v.Protected, v.ProtectedUntil = true, t.shield
	}
	defer c.markProtected(v)
	if r := t.rank.last; r != nil && c.phase.connected() {
		v.Scoreboard = t.rank.lines(c.me)
		v.Online, v.Rank = int(r.Online), int(r.Rank)
		v.Round, v.RoundLeft, v.LastWinner = t.rank.round(now)
		return
	}
	v.Scoreboard = c.scoreboard()
	if s := t.scores; s != nil {
		v.Round = int(s.Round)
		v.RoundLeft = max(time.Duration(s.LeftMS)*time.Millisecond-(now-t.scoresAt), 0)
		if s.Winner != 0 {
			v.LastWinner = &Winner{Name: c.name(s.Winner), Points: int(s.WinnerPoints)}
		}
	}
}

// markProtected marks the lines of v's scoreboard whose players are
// under spawn protection: the player's own, and those it was told of, as
// of the latest State.
func (c *Core) markProtected(v *View) {
	for i := range v.Scoreboard {
		l := &v.Scoreboard[i]
		l.Protected = l.Me && v.Protected || !l.Me && c.protected.at(l.ID, c.interp.latest())
	}
}

// scoreboard lists every player the client knows, with the points and
// flags of the latest Scores (0 points for a player it does not list yet),
// most points first, then by ID: a server of version 3's scoreboard.
func (c *Core) scoreboard() []ScoreLine {
	if !c.phase.connected() {
		return nil
	}
	lines := make([]ScoreLine, 0, len(c.roster))
	listed := map[grid.PlayerID]bool{}
	if s := c.tag.scores; s != nil {
		for _, p := range s.Players {
			if _, ok := c.roster[p.ID]; ok {
				listed[p.ID] = true
				lines = append(lines, ScoreLine{ID: p.ID, Name: c.name(p.ID), Bot: p.Bot, Me: p.ID == c.me, Frozen: p.Frozen, Points: int(p.Points)})
			}
		}
	}
	for id := range c.roster {
		if !listed[id] {
			lines = append(lines, ScoreLine{ID: id, Name: c.name(id), Bot: id == c.me && c.opts.Bot, Me: id == c.me})
		}
	}
	slices.SortFunc(lines, func(a, b ScoreLine) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(a.ID, b.ID))
	})
	for i := range lines {
		lines[i].Rank = 1
		if i > 0 {
			lines[i].Rank = lines[i-1].Rank
			if lines[i].Points < lines[i-1].Points {
				lines[i].Rank = i + 1
			}
		}
	}
	return lines
}
