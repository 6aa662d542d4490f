//go:build !race

package scale

// raceOn: see race_test.go.
const raceOn = false
