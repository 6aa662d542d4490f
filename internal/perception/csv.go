package perception

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSVHeader is the first row of the answers' CSV: a row per trial, in
// the order of the runs and their rounds.
//
//	run              the run in the room (1, 2, ...)
//	round            its round (1, 2, ...)
//	player           the student's player ID
//	name             the student's name
//	prediction       on or off
//	rtt_ms           the round trip injected, ms
//	answer           laggy, fine, or none (the round ended first)
//	measured_rtt_ms  the round trip the student's client measured last
//	                 in the round, ms; empty if it reported none
var CSVHeader = []string{"run", "round", "player", "name", "prediction", "rtt_ms", "answer", "measured_rtt_ms"}

// WriteCSV writes trials as CSV, CSVHeader first. A name a spreadsheet
// would take for a formula (starting with = + - @) is written with a '
// before it.
func WriteCSV(w io.Writer, trials []Trial) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, t := range trials {
		measured := ""
		if t.MeasuredMS >= 0 {
			measured = strconv.Itoa(t.MeasuredMS)
		}
		row := []string{
			strconv.Itoa(t.Run), strconv.Itoa(t.Round), strconv.Itoa(t.Player), cell(t.Name),
			onOff(t.Predict), strconv.Itoa(t.RTTMS), t.Answer.String(), measured,
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell is s as a cell no spreadsheet runs as a formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// onOff writes a prediction: "on" or "off".
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
