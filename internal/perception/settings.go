package perception

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Mode is which prediction a run tests: with it on, with it off, or both,
// each trial one or the other in the shuffled order.
type Mode uint8

// The modes.
const (
	PredictOn   Mode = 1
	PredictOff  Mode = 2
	PredictBoth Mode = 3
)

// String names the mode as the screens, the flags and the log say it:
// "on", "off", "both".
func (m Mode) String() string {
	switch m {
	case PredictOn:
		return "on"
	case PredictOff:
		return "off"
	case PredictBoth:
		return "both"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Valid reports whether m is one of the modes.
func (m Mode) Valid() bool { return m >= PredictOn && m <= PredictBoth }

// Next is the mode after m, round again: on, off, both.
func (m Mode) Next() Mode {
	if m >= PredictBoth || m < PredictOn {
		return PredictOn
	}
	return m + 1
}

// ParseMode reads a mode as String writes it.
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{PredictOn, PredictOff, PredictBoth} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("prediction %q: want on, off or both", s)
}

// settings returns the prediction of each half of a run of mode m: one
// setting, or both (on first).
func (m Mode) settings() []bool {
	switch m {
	case PredictOff:
		return []bool{false}
	case PredictBoth:
		return []bool{true, false}
	}
	return []bool{true}
}

// The bounds of Settings.
const (
	MaxLevels   = 12                     // round trips tested
	MaxLevelMS  = 1000                   // the highest round trip, ms: the game's own slider's
	MaxRepeats  = 10                     // trials of each round trip, each prediction
	MaxControls = 10                     // extra zero-lag trials, each prediction
	MaxRounds   = 120                    // rounds of a run
	MinPhase    = 2 * time.Second        // the shortest play or answer time
	MaxPhase    = 60 * time.Second       // the longest
	PhaseUnit   = 100 * time.Millisecond // play and answer times are whole tenths of a second
	defaultPlay = 6 * time.Second        // DefaultSettings'
	defaultAns  = 10 * time.Second       // DefaultSettings'
)

// Settings are the design of a run of the test.
type Settings struct {
	// Levels are the round trips tested, in milliseconds, rising, each
	// at most MaxLevelMS; 0 among them is a zero-lag control like those
	// of Controls.
	Levels []int
	// Repeats is how many trials each level has, for each prediction the
	// run tests; Controls is how many more at 0 ms, the zero-lag
	// controls, which give the false-alarm rate.
	Repeats  int
	Controls int
	// Mode is the prediction the run tests.
	Mode Mode
	// Play is how long each round lets the students move and zap before
	// they answer; Answer is how long they have to answer at most (a
	// round ends at once when every student answered).
	Play, Answer time.Duration
}

// DefaultLevels are DefaultSettings' round trips: 0 to 400 ms, by 50 ms
// up to 300, where most players' thresholds lie.
var DefaultLevels = []int{0, 50, 100, 150, 200, 250, 300, 400}

// DefaultSettings is a run of 18 rounds, prediction on, of 6 s of play
// and at most 10 s to answer: about four minutes.
func DefaultSettings() Settings {
	return Settings{Levels: slices.Clone(DefaultLevels), Repeats: 2, Controls: 2, Mode: PredictOn, Play: defaultPlay, Answer: defaultAns}
}

// Rounds is how many rounds a run of s has: every level Repeats times
// and the controls, for each prediction it tests.
func (s Settings) Rounds() int {
	return (len(s.Levels)*s.Repeats + s.Controls) * len(s.Mode.settings())
}

// Check says what is wrong with s, if anything.
func (s Settings) Check() error {
	switch {
	case len(s.Levels) == 0 || len(s.Levels) > MaxLevels:
		return fmt.Errorf("%d round trips: want 1 to %d", len(s.Levels), MaxLevels)
	case s.Repeats < 1 || s.Repeats > MaxRepeats:
		return fmt.Errorf("%d repeats: want 1 to %d", s.Repeats, MaxRepeats)
	case s.Controls < 0 || s.Controls > MaxControls:
		return fmt.Errorf("%d zero-lag controls: want 0 to %d", s.Controls, MaxControls)
	case !s.Mode.Valid():
		return fmt.Errorf("prediction %v: want on, off or both", s.Mode)
	case s.Rounds() > MaxRounds:
		return fmt.Errorf("%d rounds: at most %d (fewer round trips, repeats or controls)", s.Rounds(), MaxRounds)
	}
	for i, l := range s.Levels {
		switch {
		case l < 0 || l > MaxLevelMS:
			return fmt.Errorf("round trip %d ms: want 0 to %d", l, MaxLevelMS)
		case i > 0 && l <= s.Levels[i-1]:
			return errors.New("the round trips must rise, each once")
		}
	}
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"play", s.Play}, {"answer", s.Answer}} {
		if p.d < MinPhase || p.d > MaxPhase || p.d%PhaseUnit != 0 {
			return fmt.Errorf("%s time %v: want %v to %v, in tenths of a second", p.name, p.d, MinPhase, MaxPhase)
		}
	}
	return nil
}

// String writes s as ParseSettings reads it, e.g.
// "levels=0,50,100 repeats=2 controls=2 predict=on play=6s answer=10s".
func (s Settings) String() string {
	levels := make([]string, len(s.Levels))
	for i, l := range s.Levels {
		levels[i] = strconv.Itoa(l)
	}
	return fmt.Sprintf("levels=%s repeats=%d controls=%d predict=%v play=%v answer=%v",
		strings.Join(levels, ","), s.Repeats, s.Controls, s.Mode, s.Play, s.Answer)
}

// ParseSettings reads settings as words key=value, each optional, on top
// of DefaultSettings: levels=0,50,100 (ms), repeats=N, controls=N,
// predict=on|off|both, play=6s, answer=10s. The result is checked.
func ParseSettings(text string) (Settings, error) {
	s := DefaultSettings()
	for _, word := range strings.Fields(text) {
		key, val, ok := strings.Cut(word, "=")
		if !ok || val == "" {
			return s, fmt.Errorf("%q: want key=value (levels, repeats, controls, predict, play, answer)", word)
		}
		var err error
		switch key {
		case "levels":
			s.Levels, err = parseLevels(val)
		case "repeats":
			s.Repeats, err = strconv.Atoi(val)
		case "controls":
			s.Controls, err = strconv.Atoi(val)
		case "predict":
			s.Mode, err = ParseMode(val)
		case "play":
			s.Play, err = time.ParseDuration(val)
		case "answer":
			s.Answer, err = time.ParseDuration(val)
		default:
			return s, fmt.Errorf("unknown setting %q: want levels, repeats, controls, predict, play or answer", key)
		}
		if err != nil {
			return s, fmt.Errorf("%s: %v", key, err)
		}
	}
	return s, s.Check()
}

// Set reads text as ParseSettings does into s, which it leaves as it was
// on an error: Settings is a command line's flag.Value.
func (s *Settings) Set(text string) error {
	got, err := ParseSettings(text)
	if err != nil {
		return err
	}
	*s = got
	return nil
}

// parseLevels reads round trips in ms, separated by commas; "ms" after a
// number is allowed.
func parseLevels(val string) ([]int, error) {
	var levels []int
	for _, f := range strings.Split(val, ",") {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(f), "ms"))
		if err != nil {
			return nil, fmt.Errorf("%q is no number of milliseconds", f)
		}
		levels = append(levels, n)
	}
	return levels, nil
}

// Step is one round of one student's run: the round trip injected and
// the prediction held.
type Step struct {
	RTTMS   int
	Predict bool
}

// Schedule returns one student's rounds of a run of s, in the order the
// student plays them: for each prediction the run tests, each level
// Repeats times and Controls trials at 0 ms, all shuffled together by a
// generator seeded with seed (each student its own seed: neighbours do
// not play the same order).
func Schedule(s Settings, seed uint64) []Step {
	steps := make([]Step, 0, s.Rounds())
	for _, p := range s.Mode.settings() {
		for _, l := range s.Levels {
			for range s.Repeats {
				steps = append(steps, Step{RTTMS: l, Predict: p})
			}
		}
		for range s.Controls {
			steps = append(steps, Step{RTTMS: 0, Predict: p})
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	return steps
}
