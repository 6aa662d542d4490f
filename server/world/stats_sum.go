package world

// Add adds b's counters and gauges to a's: a hub's totals over its rooms.
func (a *Stats) Add(b Stats) {
	a.Players += b.Players
	a.Bots += b.Bots
	a.Spectators += b.Spectators
	a.Away += b.Away
	a.Connections += b.Connections
	a.Ticks += b.Ticks
	a.Joins += b.Joins
	a.Leaves += b.Leaves
	a.Refused += b.Refused
	a.Violations += b.Violations
	a.Resumes += b.Resumes
	a.InputsProcessed += b.InputsProcessed
	a.InputsRefused += b.InputsRefused
	a.Moves += b.Moves
	a.Blocked += b.Blocked
	a.TooFast += b.TooFast
	a.Frozen += b.Frozen
	a.Zaps += b.Zaps
	a.Tags += b.Tags
	a.Respawns += b.Respawns
	a.Rounds += b.Rounds
	a.StatesSent += b.StatesSent
	a.Pongs += b.Pongs
	a.Pings += b.Pings
	a.Overviews += b.Overviews
}
