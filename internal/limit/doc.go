// Package limit is how often something may happen, and how much of a
// pool one address may hold. A Rate is the one rate limit that the hub
// (joins, new rooms, room lists by address), the game port's flood
// check, and the SSH and web sessions (their requests, messages and
// window changes) keep to: a burst, then one event per interval; its
// state is grid.Limiter, the game's own speed limit (the generic cell
// rate algorithm), so that the rule is written once; PerKey keeps one
// for each address. Share is the one fair-share rule of a pool whose
// places addresses hold (a front end's connections and sessions, the
// hub's rooms and a room's spectator slots): a share per address and the
// last places kept for newcomers.
//
// Times are durations on the caller's clock: the package reads no clock,
// starts no goroutine and takes no lock, so a sans-I/O core (the hub)
// uses it as an adapter on the wall clock does.
package limit
