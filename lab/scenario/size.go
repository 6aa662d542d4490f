package scenario

import "time"

// MaxStates bounds the states a scenario may have its players' clients
// receive. At Rate N the server sends every client a state each tick,
// whether anything moved or not, and the timeline looks at each one that
// arrives, so the work of a run grows with its virtual length times Rate,
// not with its presses: at a few microseconds a state, MaxStates is a few
// seconds of work. Check a Config with States before Run.
const MaxStates = 1_000_000

// Span is how much virtual time a run of c covers at least: Until, or the
// last press if that is later (the run adds time for the answers to
// cross the links).
func (c Config) Span() time.Duration {
	span := c.Until
	for _, p := range c.players() {
		for _, pr := range p.Presses {
			span = max(span, pr.At)
		}
	}
	return span
}

// States is how many states the players' clients receive at least over
// Span: one per update tick each. At Rate 0 the server answers inputs
// only, so the states grow with the presses and States is 0.
func (c Config) States() int64 {
	if c.Rate <= 0 {
		return 0
	}
	ticks := int64(c.Span() / (time.Second / time.Duration(c.Rate)))
	return ticks * int64(len(c.players()))
}

// players is the scenario's players: the first, and the second if any.
func (c Config) players() []*Player {
	if c.Second == nil {
		return []*Player{&c.Player}
	}
	return []*Player{&c.Player, c.Second}
}

// all is every player of the scenario: the first two, then the others.
func (c Config) all() []*Player {
	ps := c.players()
	for i := range c.Others {
		ps = append(ps, &c.Others[i])
	}
	return ps
}

// Work is how much a run of c looks at, about: every press of every
// player, and the states the players the timeline follows receive over
// the whole run (Until, or else the last press with time for the presses
// the speed limit holds and for the answers), one each per update tick.
// The run's timeline holds up to a line or two for each. A replay, which
// cannot be told to stop sooner, refuses to play a recording whose run's
// Work passes MaxStates.
func (c Config) Work() int64 {
	var n int64
	for _, p := range c.all() {
		n += int64(len(p.Presses))
	}
	if c.Rate > 0 {
		ticks := int64(c.end() / (time.Second / time.Duration(c.Rate)))
		n += ticks * int64(len(c.players()))
	}
	return n
}
