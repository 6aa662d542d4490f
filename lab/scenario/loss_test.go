package scenario

import (
	"strings"
	"testing"
)

// TestLossHoldsBackWhatFollows: with loss as TCP has it, a lost input is
// retransmitted after the RTO (here the 250 ms round trip) and the input
// sent after it waits behind it, so the server processes both at the
// same moment (head-of-line blocking), and the timeline runs long enough
// to show both acknowledged.
func TestLossHoldsBackWhatFollows(t *testing.T) {
	cfg := Default()
	cfg.Player.Loss = 0.5
	cfg.Seed = 3 // a seed that loses input #1 once, and nothing else on the way up
	lines, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	processed := map[string]int64{}
	for _, l := range lines {
		for _, n := range []string{"#1", "#2"} {
			if strings.HasPrefix(l.Event, "server: processes "+n+" ") {
				processed[n] = l.TMS
			}
		}
	}
	if processed["#1"] != 375 || processed["#2"] != 375 {
		t.Errorf("server processed #1 at %d ms and #2 at %d ms; want both at 375 (125 + a 250 ms RTO, #2 held behind #1)", processed["#1"], processed["#2"])
	}
	last := lines[len(lines)-1]
	if len(last.Pending) != 0 || last.Ack != 2 {
		t.Errorf("the timeline ends with ack #%d, pending %v: want every press acknowledged", last.Ack, last.Pending)
	}
}
