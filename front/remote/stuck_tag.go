//go:build gridlag_stuck

package remote

// stuckForTests reports whether p's session must never end, in a binary
// built with the tag gridlag_stuck, which only tests build: the session
// of a player named "stuck" starts its screen, then ignores everything
// and never returns, as a session held by a defect would (issue 30's: one
// byte spun tcell for ever). The tests of how the process stops with such
// a session run on it.
func stuckForTests(p *Player) bool { return p.User == "stuck" }
