package tui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/grid"
)

// labKeyTable is every key of the lab's screen: Player 1's on the arrows
// and the right of the keyboard, Player 2's on w a s d and the left, and
// the lab's own. The key handler, the help overlay, the panels' key hints
// and `gridlag lab -help` read it. The players share the rows of moves
// and zaps. A round trip moves in the game's steps, - + by 10 ms and [ ]
// by 50 ms (Player 2: y u and i o: t g b and m are the instruments' and
// smoothing's, as in the game). Space (and Page Down, a presentation
// clicker's key) only goes on with a lesson: the game's zap key does
// nothing else here. < and > go from part to part of a lecture (> starts
// the lecture the free lab offers).
var labKeyTable = []binding[*LabScreen]{
	{label: "↑↓←→ wasd", help: "move one cell: Player 1 the arrows, Player 2 w a s d", keys: concat(
		labMoveKeys(0, map[grid.Dir]tcell.Key{
			grid.Up: tcell.KeyUp, grid.Down: tcell.KeyDown, grid.Left: tcell.KeyLeft, grid.Right: tcell.KeyRight}, ""),
		labMoveKeys(1, nil, "wsad"))},
	{label: labZapKeys[0] + " " + labZapKeys[1], help: "zap the way the player faces: Player 1 " + labZapKeys[0] + ", Player 2 " + labZapKeys[1],
		keys: []keyDo[*LabScreen]{
			{key: tcell.KeyEnter, do: func(s *LabScreen) { s.players[0].Zap() }},
			{key: tcell.KeyRune, ch: rune(labZapKeys[1][0]), do: func(s *LabScreen) { s.players[1].Zap() }}}},
	labToggleBinding(0, "1 2 3"),
	labToggleBinding(1, "4 5 6"),
	labStepBinding(0, "lag", "- + [ ]", "-_", "+=", "[", "]", "injected round trip -/+ 10 ms (also _ =), [ ] -/+ 50 ms", lagSlider),
	labStepBinding(1, "lag", "y u i o", "y", "u", "i", "o", "injected round trip -/+ 10 ms, i o -/+ 50 ms", lagSlider),
	labStepBinding(0, "jitter", "9 0", "9", "0", "", "", "jitter -/+ 10 ms", jitterSlider),
	labStepBinding(1, "jitter", "( )", "(", ")", "", "", "jitter -/+ 10 ms", jitterSlider),
	labPlayerBinding(0, "preset", "l", "next link preset: good, average, poor, then its own link", LabPlayer.NextPreset),
	labPlayerBinding(1, "preset", "e", "next link preset: good, average, poor, then its own link", LabPlayer.NextPreset),
	labPlayerBinding(0, "spike", "k", "lag spike: the link stalls for a second", LabPlayer.Spike),
	labPlayerBinding(1, "spike", "x", "lag spike: the link stalls for a second", LabPlayer.Spike),
	{label: ". n /", help: "pause/resume, step to the next change (says what), slow down", keys: concat(
		runeKeys(".", (*LabScreen).togglePause), runeKeys("n", (*LabScreen).step),
		runeKeys("/", func(s *LabScreen) { s.model.SlowDown() }))},
	{label: "Bksp h", help: "restart the script from t=0; h hides pings, pongs and scores", keys: concat(
		[]keyDo[*LabScreen]{{key: tcell.KeyBackspace, do: (*LabScreen).restart}, {key: tcell.KeyBackspace2, do: (*LabScreen).restart}},
		runeKeys("h", (*LabScreen).togglePings))},
	{label: "Spc < > p", help: "go on in a lesson (PgDn), a lecture's part < >; p perception test", keys: []keyDo[*LabScreen]{
		{key: tcell.KeyRune, ch: ' ', do: (*LabScreen).goOn}, {key: tcell.KeyPgDn, do: (*LabScreen).goOn},
		{key: tcell.KeyRune, ch: '<', do: (*LabScreen).prevPart}, {key: tcell.KeyRune, ch: '>', do: (*LabScreen).nextPart},
		{key: tcell.KeyRune, ch: 'p', do: (*LabScreen).startTest}}},
	instrumentRowBinding[*LabScreen](),
	{label: "c", help: "server: lag compensation on/off, live", group: "lagcomp", keys: runeKeys("c", (*LabScreen).toggleLagComp)},
	{label: "{ }", help: "server update rate -/+ 1 per second (0 = a state per input)", group: "rate", keys: concat(
		runeKeys("{", func(s *LabScreen) { s.changeRate(-1) }), runeKeys("}", func(s *LabScreen) { s.changeRate(1) }))},
	{label: "Tab mouse", help: "next board(s) when one or two show; click any [button] or [x]", keys: []keyDo[*LabScreen]{
		{key: tcell.KeyTab, do: (*LabScreen).nextBoard}}},
	helpBinding[*LabScreen](),
	quitBinding[*LabScreen](),
	labTestKeys()[0],
	labTestKeys()[1],
}

// labZapKeys are the players' zap keys, as the help and the panels name
// them: Enter (on the right, near the arrows) and f.
var labZapKeys = [2]string{"Enter", "f"}

// lagSlider returns a lab player's latency slider.
func lagSlider(p *labPanel) *Slider { return p.lag }

// jitterSlider returns a lab player's jitter slider.
func jitterSlider(p *labPanel) *Slider { return p.jitter }

// labGroup names a group of rows of one player, e.g. "lag 1".
func labGroup(what string, i int) string { return what + " " + strconv.Itoa(i+1) }

// playerHelp starts a help text with the player it is for.
func playerHelp(i int, help string) string { return "Player " + strconv.Itoa(i+1) + ": " + help }

// labMoveKeys binds player i's move keys: arrows, or the characters of
// chars for up, down, left and right.
func labMoveKeys(i int, arrows map[grid.Dir]tcell.Key, chars string) []keyDo[*LabScreen] {
	var keys []keyDo[*LabScreen]
	for j, d := range []grid.Dir{grid.Up, grid.Down, grid.Left, grid.Right} {
		move := func(s *LabScreen) { s.players[i].Press(d) }
		if arrows != nil {
			keys = append(keys, keyDo[*LabScreen]{key: arrows[d], do: move})
		} else {
			keys = append(keys, keyDo[*LabScreen]{key: tcell.KeyRune, ch: rune(chars[j]), do: move})
		}
	}
	return keys
}

// labToggleBinding binds player i's three toggles to the characters of
// label (prediction, reconciliation, interpolation).
func labToggleBinding(i int, label string) binding[*LabScreen] {
	var keys []keyDo[*LabScreen]
	for j, t := range toggles {
		keys = append(keys, runeKeys(label[2*j:2*j+1], func(s *LabScreen) { t.flip(s.players[i]) })...)
	}
	return binding[*LabScreen]{label: label, group: labGroup("toggles", i), keys: keys,
		help: playerHelp(i, "prediction, reconciliation, interpolation on/off")}
}

// labStepBinding binds player i's keys that step one of its sliders (of
// its link's durations): the characters of down and of up by FineStep,
// those of coarseDown and coarseUp by CoarseStep, as the game's keys do.
func labStepBinding(i int, what, label, down, up, coarseDown, coarseUp, help string, slider func(*labPanel) *Slider) binding[*LabScreen] {
	step := func(by time.Duration) func(s *LabScreen) {
		return func(s *LabScreen) { slider(s.panels[i]).step(by) }
	}
	return binding[*LabScreen]{label: label, group: labGroup(what, i), help: playerHelp(i, help),
		keys: concat(runeKeys(down, step(-FineStep)), runeKeys(up, step(FineStep)),
			runeKeys(coarseDown, step(-CoarseStep)), runeKeys(coarseUp, step(CoarseStep)))}
}

// labPlayerBinding binds player i's key that does do to the player.
func labPlayerBinding(i int, what, ch, help string, do func(LabPlayer)) binding[*LabScreen] {
	return binding[*LabScreen]{label: ch, group: labGroup(what, i), help: playerHelp(i, help),
		keys: runeKeys(ch, func(s *LabScreen) { do(s.players[i]) })}
}

// LabKeyHelp returns one line per row of the lab's key table, for
// `gridlag lab -help`.
func LabKeyHelp() []string { return tableHelp(labKeyTable) }
