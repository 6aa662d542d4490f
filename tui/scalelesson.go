package tui

import (
	"fmt"
	"regexp"
	"strconv"
)

// scaleLesson is the scale lab's lesson. Its numbers are placeholders in
// braces, filled in from the run's steady figures (scaleQuantities): the
// largest crowd measured with the areas of interest both on and off, and
// the smallest step measured with them on. Until the run has measured
// them, scaleLessonWaiting says what to do.
const scaleLesson = "Every bot walks at the speed limit, and the server sends each player one State a tick. " +
	"With areas of interest on, a State tells a player of the players near it: " +
	"{big.bots} bots cost {on.bytes} each, where {small.bots} cost {small.bytes}, and a tick took {on.tick}. " +
	"Turned off, every State tells of all {big.bots}: {off.bytes} each, {ratio} times as much, " +
	"ticks of {off.tick} and {off.rss} of memory against {on.rss}. " +
	"Without areas, what each player receives grows with the crowd, so what the server sends grows with its square: that is why areas of interest exist. " +
	"A tick every {tick} is the budget: where the ticks take longer, the server falls behind, and that is this machine's limit."

// scaleLessonWaiting is the lesson before the run has its numbers.
const scaleLessonWaiting = "Step up to a crowd (+), wait for its row, then turn the areas of interest off (a) and wait for that row: " +
	"the lesson then says what they saved, with the numbers of this run."

// scaleLessonRows is how many rows the lesson takes beside the table on
// a tall terminal.
const scaleLessonRows = 7

// placeholder is a quantity's name in a lesson's text.
var placeholder = regexp.MustCompile(`\{([a-z.]+)\}`)

// lessonText is the lesson, its numbers from the run, or what to do to
// get them.
func (s *ScaleScreen) lessonText() string {
	q, ok := scaleQuantities(s.steady)
	if !ok {
		return scaleLessonWaiting
	}
	return fillIn(scaleLesson, q)
}

// fillIn replaces each placeholder of text by its quantity in q; one q
// lacks stays as it is, braces and all (a test holds the lesson to its
// quantities).
func fillIn(text string, q map[string]string) string {
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := q[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// scaleQuantities are the lesson's numbers from the steady rows: the
// largest number of bots measured with the areas both on and off (big),
// the smallest measured with them on (small). ok is false until there
// is such a crowd.
func scaleQuantities(rows []scaleSteady) (q map[string]string, ok bool) {
	var on, off, small *ScaleReading
	for i := range rows {
		r := &rows[i].r
		if rows[i].areas && (small == nil || r.Bots < small.Bots) {
			small = r
		}
	}
	for i := range rows {
		if rows[i].areas {
			continue
		}
		for j := range rows {
			if rows[j].areas && rows[j].bots == rows[i].bots && (on == nil || rows[i].bots > on.Bots) {
				on, off = &rows[j].r, &rows[i].r
			}
		}
	}
	if on == nil {
		return nil, false
	}
	ratio := "-"
	if on.BytesPerPlayer > 0 {
		ratio = strconv.FormatFloat(off.BytesPerPlayer/on.BytesPerPlayer, 'f', 1, 64)
	}
	return map[string]string{
		"big.bots":    count(on.Bots),
		"small.bots":  count(small.Bots),
		"on.bytes":    perPlayerText(on.BytesPerPlayer),
		"off.bytes":   perPlayerText(off.BytesPerPlayer),
		"small.bytes": perPlayerText(small.BytesPerPlayer),
		"ratio":       ratio,
		"on.tick":     ms(on.TickMean),
		"off.tick":    ms(off.TickMean),
		"on.rss":      figure(float64(on.RSS)/1e6, 0) + " MB",
		"off.rss":     figure(float64(off.RSS)/1e6, 0) + " MB",
		"tick":        fmt.Sprint(on.Budget),
	}, true
}
