// Package ratelog keeps a log readable under attack: an event that repeats
// (the same refusal, for the same reason, from the same address) is logged
// at once the first time, then only counted, and one summary line per
// interval says how many more there were.
//
// It is its own package because every front end needs it, the game
// server (package server), the SSH and web front ends (packages sshd and
// web, and the sessions they share, package remote), and none may depend
// on another. It knows nothing of the game: keys, messages and
// the clock come from the caller, so a test drives it on a virtual clock.
package ratelog
