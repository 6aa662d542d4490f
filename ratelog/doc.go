// Package ratelog keeps a log readable under attack: an event that repeats
// (the same refusal, for the same reason, from the same address) is logged
// at once the first time, then only counted, and one summary line per
// interval says how many more there were.
//
// It is its own package because two front ends need it, the game server
// (package server) and the SSH front end (package sshd), and neither may
// depend on the other. It knows nothing of the game: keys, messages and
// the clock come from the caller, so a test drives it on a virtual clock.
package ratelog
