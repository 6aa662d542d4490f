package bot

import (
	"math/rand"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// Reaction times of a Trigger: a bot zaps this long after someone came
// into its line, as a person would.
const (
	MinReaction = 200 * time.Millisecond
	MaxReaction = 400 * time.Millisecond
)

// Trigger is a bot's finger: it zaps when the View shows another player in
// the bot's line within the beam's range, a reaction time (MinReaction to
// MaxReaction, drawn anew each time) after that player came into line,
// if the player is still there then and the cooldown allows. It never
// zaps while the server says the bot is frozen, and never aims at a
// player under spawn protection, a frozen one, or one in its spared zone
// (Spare): the bot walks on instead of waiting for them. Like a Brain it is
// deterministic for a seed and the same Views. It is not safe for
// concurrent use.
type Trigger struct {
	rng *rand.Rand
	// spare: nobody within zone cells (Manhattan distance) of these is
	// zapped (Spare)
	spare  []grid.Pos
	zone   int
	target grid.PlayerID // the player in line, 0 if none
	fireAt time.Duration // when the reaction is over
	gun    grid.Cooldown
}

// NewTrigger returns a trigger with its own random source seeded with
// seed.
func NewTrigger(seed int64) *Trigger { return &Trigger{rng: rand.New(rand.NewSource(seed))} }

// Spare makes the trigger zap nobody within r cells (Manhattan distance)
// of any of cells: the human spawns, where newcomers arrive. It returns t.
func (t *Trigger) Spare(r int, cells ...grid.Pos) *Trigger {
	t.zone, t.spare = r, cells
	return t
}

// spared reports whether a player at p is in the spared zone.
func (t *Trigger) spared(p grid.Pos) bool {
	for _, c := range t.spare {
		if abs(p.X-c.X)+abs(p.Y-c.Y) <= t.zone {
			return true
		}
	}
	return false
}

// Pull reports whether to zap at time now given the client's view, and
// when to look again if someone is in line (ok false: nobody is).
func (t *Trigger) Pull(now time.Duration, v client.View) (zap bool, wake time.Duration, ok bool) {
	in := t.inLine(v)
	if in == 0 {
		t.target = 0
		return false, 0, false
	}
	if in != t.target {
		t.target = in
		t.fireAt = now + MinReaction + time.Duration(t.rng.Int63n(int64(MaxReaction-MinReaction)+1))
	}
	if now >= t.fireAt && t.gun.Fire(int64(now)) {
		t.target = 0 // the next one takes a new reaction
		return true, now + time.Duration(grid.ZapCooldown), true
	}
	return false, max(t.fireAt, now+settlePoll), true
}

// aiming reports whether someone is in line, waiting for the reaction
// time; a nil Trigger never aims.
func (t *Trigger) aiming() bool { return t != nil && t.target != 0 }

// inLine returns the player the bot's beam would tag, as the View shows
// the world, or 0: never one under spawn protection nor one the
// scoreboard says is frozen (the server lets the beam through them), and
// nobody when the first player in line stands in the spared zone.
func (t *Trigger) inLine(v client.View) grid.PlayerID {
	if v.Map == nil || !v.HasState || !v.Connected || v.Frozen {
		return 0
	}
	frozen := map[grid.PlayerID]bool{}
	for _, l := range v.Scoreboard {
		if l.Frozen {
			frozen[l.ID] = true
		}
	}
	targets := make([]grid.PlayerPos, 0, len(v.Others))
	for _, o := range v.Others {
		if !o.Protected && !frozen[o.ID] {
			targets = append(targets, grid.PlayerPos{ID: o.ID, Pos: o.Pos})
		}
	}
	b := grid.Trace(v.Map, v.Predicted, v.Facing, targets)
	if b.Target != 0 && t.spared(b.End()) {
		return 0
	}
	return b.Target
}
