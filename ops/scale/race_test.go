//go:build race

package scale

// raceOn: the race detector slows every goroutine several times over, and
// 1,000 bots with it would take minutes of a busy machine; make test runs
// the thousand without it too.
const raceOn = true
