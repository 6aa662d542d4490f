package replay

import (
	"fmt"
	"time"

	"gridlag/lab/record"
	"gridlag/lab/scenario"
	"gridlag/protocol"
)

// MaxWork bounds what a replay's run looks at: the states its players
// receive and the presses, zaps and live actions it makes, as
// scenario.MaxStates bounds `gridlag scenario`. A recording whose run
// would pass it is refused before any of it is played: the run's
// timeline keeps a line (about 250 bytes) for most of them, so a
// recording that passes it would take the replay gigabytes and minutes,
// and a longer replay has nothing more to show on a screen. A game
// played at 20 States a second reaches it after about 13 hours, past
// the 64 MiB a recording holds by default.
const MaxWork = scenario.MaxStates

// ErrTooMuchWork wraps the refusal of a recording whose run passes
// MaxWork.
var ErrTooMuchWork = fmt.Errorf("a replay plays at most %d states and actions", MaxWork)

// checkWork refuses a recording whose run, changed by c, would look at
// more than MaxWork states and actions. It reckons without playing: a
// scenario's presses and update ticks, a lab's actions and update ticks
// at the rates it had, a game's States and presses in its stream (a
// game simulated anew is reckoned as the scenario it becomes, in
// resimulate).
func checkWork(rec *record.Recording, c Changes) error {
	n, what := int64(0), ""
	switch rec.Header.Kind {
	case record.KindScenario:
		n, what = int64(rec.Count), "presses"
		if n <= MaxWork {
			cfg, err := scenarioConfig(rec)
			if err != nil {
				return err
			}
			n, what = c.scenario(cfg).Work(), "states and presses"
		}
	case record.KindLab:
		n, what = labWork(rec, c), "states and actions"
	case record.KindGame:
		if !c.Client() {
			return nil // resimulate reckons the scenario it plays
		}
		n, what = gameWork(rec), "States and presses"
	}
	if n > MaxWork {
		return fmt.Errorf("%w: its run would take %d %s", ErrTooMuchWork, n, what)
	}
	return nil
}

// labWork reckons a lab's run: its actions (the scripts' presses too),
// and the states its two players receive at the update rate it had at
// each moment (the what-if's all along, if it sets one).
func labWork(rec *record.Recording, c Changes) int64 {
	h := rec.Header.Lab
	var n int64
	for _, p := range h.Players {
		presses, _ := scenario.ParsePresses(p.Presses)
		n += int64(len(presses))
	}
	rate := int64(h.Rate)
	if c.Rate != nil {
		rate = int64(*c.Rate)
	}
	var last time.Duration
	ticks := func(to time.Duration) {
		if rate > 0 {
			n += 2 * int64(to-last) / int64(time.Second) * rate
			n += 2 * int64(to-last) % int64(time.Second) * rate / int64(time.Second)
		}
		last = to
	}
	for e := range rec.Events() {
		ticks(e.At)
		switch {
		case e.Kind == record.Rate && c.Rate == nil:
			rate = e.Arg
		case e.Kind != record.Sync:
			n++
		}
		if n > MaxWork {
			return n
		}
	}
	ticks(rec.End)
	return n
}

// gameWork reckons a game's replay: the States its stream holds, and the
// presses and zaps.
func gameWork(rec *record.Recording) int64 {
	var n int64
	cs := callsOf(rec)
	for range streamMessages(cs, func(m protocol.Message) bool { _, ok := m.(*protocol.State); return ok }) {
		n++
	}
	for e := range rec.Events() {
		if e.Kind == record.Press || e.Kind == record.Zap {
			n++
		}
	}
	return n
}
