// Package perception is the design and the analysis of gridlag's blind
// perception test: how much lag can a player feel? Each round gives each
// student a hidden round trip drawn from a set (Settings.Levels, with
// repeats and zero-lag controls, in an order shuffled for each student:
// Schedule); the student plays for a few seconds, then answers "laggy"
// or "fine". The answers (Trial) make each student's threshold and the
// class's curve, the share who said "laggy" against the injected round
// trip, one curve with prediction on and one with it off (Analyse).
//
// The threshold is the 50 % point of the student's own curve: with the
// share of "laggy" answers at each tested round trip (0 ms included),
// from the lowest up, the first round trip whose share is at least one
// half, and the threshold is where the straight line from the round trip
// below it crosses one half (linear interpolation between the two tested
// levels). A student whose share never reaches one half felt none of the
// levels: the threshold is above the highest (Above). One who said
// "laggy" at least half the time at 0 ms, with no lag added, is guessing:
// no threshold (Guessing). The zero-lag trials also give the false-alarm
// rate: the share of "laggy" at 0 ms. Trials not answered count nowhere.
//
// The answers are kept as CSV (WriteCSV): one row per trial, with the
// run, the round, the student, the prediction, the injected round trip,
// the answer and the round trip the student's own client measured.
//
// The package is pure: no I/O but an io.Writer, no clock; the server's
// hub, the lab and the screens share it (internal/perception/answers
// keeps the answers' files).
package perception
