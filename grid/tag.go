package grid

// The numbers of zap tag. Times are nanoseconds, like every time the
// package is given.
const (
	// ZapCooldown is the least time between two zaps of one player.
	ZapCooldown int64 = 1e9
	// FreezeTime is how long a tagged player stays frozen before they
	// respawn at a free cell.
	FreezeTime int64 = 2e9
	// DefaultRound is the length of a round unless the server says
	// otherwise.
	DefaultRound int64 = 180e9
)

// Cooldown enforces ZapCooldown for one player: a speed limit of one zap
// per ZapCooldown, with no burst. The zero value is ready.
type Cooldown struct {
	limit Limiter
}

// Ready reports whether a zap at time now is allowed.
func (c *Cooldown) Ready(now int64) bool { return now >= c.limit.Earliest(ZapCooldown, 1) }

// Fire records a zap at time now if one is allowed and reports whether it
// was.
func (c *Cooldown) Fire(now int64) bool { return c.limit.Allow(now, ZapCooldown, 1) }

// Score is one player's points in a round.
type Score struct {
	ID     PlayerID
	Points int
}

// Winner returns the player with the most points, the lowest ID among
// equals; ok is false when nobody scored.
func Winner(scores []Score) (best Score, ok bool) {
	for _, s := range scores {
		if s.Points > 0 && (!ok || s.Points > best.Points || s.Points == best.Points && s.ID < best.ID) {
			best, ok = s, true
		}
	}
	return best, ok
}
