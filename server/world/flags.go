package world

import (
	"time"

	"gridlag/internal/cli"
)

// The kinds of the game numbers' flags: what the wire carries.
var (
	RateRange     = cli.IntRange{Lo: 0, Hi: MaxRate}
	MoveTimeRange = cli.DurationRange{Min: time.Millisecond, Max: MaxMoveTime, Unit: time.Millisecond}
	UnlagRange    = cli.DurationRange{Max: MaxUnlag}
	ProtectRange  = cli.DurationRange{Max: MaxProtect}
	RoundRange    = cli.DurationRange{Min: MinRound, Max: MaxRound}
	// ResumeRange: whole seconds, as a Welcome carries them; 0 = off.
	ResumeRange = cli.DurationRange{Max: MaxResume, Unit: time.Second}
	// SpectatorsRange: of a room's spectator slots.
	SpectatorsRange = cli.IntRange{Lo: 1, Hi: MaxSpectatorsCap}
)

// RegisterFlags registers the game numbers a server's command line sets,
// with a server's defaults (the lab and the scenarios have their own):
// -rate, -move-time, -lagcomp, -unlag, -protect, -round and -resume. The
// map and the player cap are the server's (server.Options).
func (c *Config) RegisterFlags(fs *cli.FlagSet) {
	fs.Int(&c.Rate, "rate", DefaultRate, RateRange, "server update rate in Hz (states per second); 0 = one state per processed input")
	fs.Duration(&c.MoveTime, "move-time", DefaultMoveTime, MoveTimeRange, "server speed limit: one move per this time")
	RegisterLagFlags(fs, &c.LagComp, &c.Unlag, &c.Protect, DefaultProtect)
	fs.Duration(&c.Round, "round", DefaultRound, RoundRange, "length of a round of zap tag: the winner is announced, scores start again")
	fs.Duration(&c.Resume, "resume", DefaultResume, ResumeRange, "a player whose connection drops gets the same avatar back if it returns within this time; 0 = off")
}

// RegisterLagFlags registers lag compensation, -lagcomp and -unlag, and
// spawn protection, -protect (its default protect), into the fields
// given: a server's, the lab's and a scenario's.
func RegisterLagFlags(fs *cli.FlagSet, lagComp *bool, unlag, protect *time.Duration, protectDefault time.Duration) {
	fs.BoolVar(lagComp, "lagcomp", true, "lag compensation: the server judges a zap against the world the shooter saw")
	fs.Duration(unlag, "unlag", DefaultUnlag, UnlagRange, "how far back lag compensation may rewind; 0 = none")
	fs.Duration(protect, "protect", protectDefault, ProtectRange, "spawn protection: a player who joins or respawns cannot be tagged for this long; 0 = none")
}
