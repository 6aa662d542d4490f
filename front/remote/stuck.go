//go:build !gridlag_stuck

package remote

// stuckForTests reports whether p's session must never end: never, but in
// a binary built with the tag gridlag_stuck (see stuck_tag.go).
func stuckForTests(*Player) bool { return false }
