//go:build race

package web

// raceOn: the race detector makes drawing huge screens forty times
// slower (TestHugeTerminalsCostAsOverSSH: about a minute against two
// seconds) and measures nothing more of the heap; make test runs that
// test without it.
const raceOn = true
