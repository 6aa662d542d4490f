//go:build !race

package web

// raceOn: see race_test.go.
const raceOn = false
