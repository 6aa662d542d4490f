package tui

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/gdamore/tcell/v2"

	"gridlag/grid"
)

// binding is one row of a key table: the keys, what each does to the
// screen of type T (the game's *UI, the lab's *LabScreen, the spectator's,
// the lobby's), and how the help names them. Every screen has one table
// of them, which its key handler (screenBase.HandleKey), its help overlay
// and gridlag -help read; the panels' and the bottom line's key hints
// read it too.
type binding[T any] struct {
	label string // the keys as the help overlay names them, e.g. "[ ]"
	help  string // what they do, for the help overlay and -help
	brief string // the keys on the bottom line; "" leaves the row out
	group string // the bottom line's word for the rows before it with the same group
	// state is the state of the screen the keys work in, as the help
	// heads the rows of that state ("typing a room's name"); "" is the
	// screen's usual state. A key works in one state only.
	state string
	keys  []keyDo[T]
	// toggle is the panel's switch these keys flip; the panel shows label
	// beside it.
	toggle *toggle
	// blind: the keys work during a round of the perception test, when
	// the game's screen takes no other (blindKeyTable).
	blind bool
}

// keyDo is one key and what it does to the screen.
type keyDo[T any] struct {
	key tcell.Key // tcell.KeyRune for a character
	ch  rune      // the character, in lower case: letters match either case; anyChar for any
	do  func(T)
	// typed is what any character does (ch is anyChar), given the
	// character as typed.
	typed func(T, rune)
}

// anyChar stands for any character in a keyDo: the one the text it types
// is made of (a room's name).
const anyChar rune = -1

// keyTable is every key the interface understands. The key handler, the
// bottom line, the help overlay and gridlag -help all read it.
var keyTable = []binding[*UI]{
	{label: "← ↑ ↓ →", help: "move one cell (also h j k l and w a s d)", brief: "arrows", group: "move", blind: true, keys: concat(
		moveKeys(tcell.KeyUp, "kw", grid.Up),
		moveKeys(tcell.KeyDown, "js", grid.Down),
		moveKeys(tcell.KeyLeft, "ha", grid.Left),
		moveKeys(tcell.KeyRight, "ld", grid.Right),
	)},
	{label: "Space", help: "zap the way you face (the server judges the hit)", brief: "Space", group: "zap", blind: true, keys: []keyDo[*UI]{
		{key: tcell.KeyRune, ch: ' ', do: func(u *UI) { u.session.Zap() }},
	}},
	{label: "y n", help: "perception test: laggy (y) or fine (n); Esc closes your results", blind: true, keys: concat(
		runeKeys("y", func(u *UI) { u.answer(true) }), runeKeys("n", func(u *UI) { u.answer(false) }),
	)},
	toggleBinding("p", "prediction on/off (turns reconciliation off and back)", predictToggle),
	toggleBinding("r", "reconciliation on/off (on also turns prediction on)", reconcileToggle),
	toggleBinding("i", "interpolation of other players on/off", interpolateToggle),
	// The round trip's fine and coarse keys share a row: the help has to
	// fit 80x24.
	{label: "- + [ ]", help: "injected round trip -/+ 10 ms (also _ =), [ ] -/+ 50 ms", brief: "- + [ ]", group: "latency", keys: concat(
		latencyKeys("-_", -FineStep), latencyKeys("+=", FineStep),
		latencyKeys("[", -CoarseStep), latencyKeys("]", CoarseStep),
	)},
	smoothBinding[*UI](),
	instrumentBinding[*UI](),
	{label: "o", help: "what a move costs the wire: game, terminal, SSH/WebSocket, TCP/IP", keys: runeKeys("o", func(u *UI) { u.tools.toggle(wireView) })},
	{label: "mouse", help: "click or drag the latency slider; click a toggle"},
	blindBinding(helpBinding[*UI]()),
	blindBinding(quitBinding[*UI]()),
}

// blindKeyTable is the rows of keyTable that work during a round of the
// perception test: move, zap, answer, help, quit.
var blindKeyTable = func() []binding[*UI] {
	var rows []binding[*UI]
	for _, b := range keyTable {
		if b.blind {
			rows = append(rows, b)
		}
	}
	return rows
}()

// blindBinding is b, working during a round of the perception test too.
func blindBinding[T any](b binding[T]) binding[T] {
	b.blind = true
	return b
}

// helpBinding is the row of every key table that shows and hides the help
// overlay.
func helpBinding[T baser]() binding[T] {
	return binding[T]{label: "?", help: "show or hide this help (Esc also hides it)", brief: "?", group: "help", keys: []keyDo[T]{
		{key: tcell.KeyRune, ch: '?', do: func(s T) { s.base().toggleHelp() }},
		{key: tcell.KeyEscape, do: func(s T) { s.base().escape() }},
	}}
}

// quitBinding is the row of every key table that quits.
func quitBinding[T baser]() binding[T] {
	quit := func(s T) { s.base().requestQuit() }
	return binding[T]{label: "q Ctrl-C", help: "quit", brief: "q", group: "quit", keys: []keyDo[T]{
		{key: tcell.KeyRune, ch: 'q', do: quit},
		{key: tcell.KeyCtrlC, do: quit},
	}}
}

// moveKeys binds an arrow key and characters to a move.
func moveKeys(arrow tcell.Key, chars string, d grid.Dir) []keyDo[*UI] {
	move := func(u *UI) { u.session.Press(d) }
	return append(runeKeys(chars, move), keyDo[*UI]{key: arrow, do: move})
}

// latencyKeys binds characters to a step of the latency slider.
func latencyKeys(chars string, step time.Duration) []keyDo[*UI] {
	return runeKeys(chars, func(u *UI) { u.panel.slider.step(step) })
}

// toggleBinding binds a character to a toggle of the panel.
func toggleBinding(ch, help string, t *toggle) binding[*UI] {
	return binding[*UI]{label: ch, help: help, brief: ch, group: "toggles", toggle: t,
		keys: runeKeys(ch, func(u *UI) { u.flip(t) })}
}

// runeKeys binds each character of chars to do.
func runeKeys[T any](chars string, do func(T)) []keyDo[T] {
	var keys []keyDo[T]
	for _, ch := range chars {
		keys = append(keys, keyDo[T]{key: tcell.KeyRune, ch: ch, do: do})
	}
	return keys
}

// concat joins lists of keys.
func concat[T any](lists ...[]keyDo[T]) []keyDo[T] {
	var all []keyDo[T]
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

// keyAction returns what a key event does to the game's screen, or nil
// for a key the table does not have.
func keyAction(ev *tcell.EventKey) func(u *UI) { return lookupKey(keyTable, "", ev) }

// lookupKey returns what a key event does in table to a screen in state
// (see binding.state): the first key of that state's rows that matches.
// It is nil for a key the table does not have.
func lookupKey[T any](table []binding[T], state string, ev *tcell.EventKey) func(T) {
	ch := unicode.ToLower(ev.Rune())
	for _, b := range table {
		if b.state != state {
			continue
		}
		for _, k := range b.keys {
			switch {
			case k.key != ev.Key():
			case k.key != tcell.KeyRune || k.ch == ch:
				return k.do
			case k.ch == anyChar:
				typed, r := k.typed, ev.Rune()
				return func(s T) { typed(s, r) }
			}
		}
	}
	return nil
}

// toggleLabel returns the keys that flip t, as the help names them.
func toggleLabel(t *toggle) string {
	for _, b := range keyTable {
		if b.toggle == t {
			return b.label
		}
	}
	return ""
}

// groupLabels returns the keys of a group of rows of the game's table, as
// the help names them, e.g. "- + [ ]" for the latency keys.
func groupLabels(group string) string { return tableGroupLabels(keyTable, group) }

// tableGroupLabels returns the keys of a group of rows of table, as the
// help names them.
func tableGroupLabels[T any](table []binding[T], group string) string {
	var labels []string
	for _, b := range table {
		if b.group == group {
			labels = append(labels, b.label)
		}
	}
	return strings.Join(labels, " ")
}

// bottomLine returns the reminder of the game's main keys drawn at the
// bottom of the screen, e.g. "arrows move  Space zap  p r i toggles ...".
// It fits 76 columns, the compact layout's width, so "q quit" is never cut.
func bottomLine() string { return tableBottomLine(keyTable) }

// BottomLine is the reminder of the game's main keys that the game draws
// at the bottom of its screen; the web page shows it too.
func BottomLine() string { return bottomLine() }

// tableBottomLine returns the reminder of the main keys of table.
func tableBottomLine[T any](table []binding[T]) string {
	var groups []string
	var briefs []string
	for i, b := range table {
		if b.brief == "" {
			continue
		}
		briefs = append(briefs, b.brief)
		if i+1 == len(table) || table[i+1].group != b.group {
			groups = append(groups, strings.Join(briefs, " ")+" "+b.group)
			briefs = nil
		}
	}
	return strings.Join(groups, "  ")
}

// keyLabelWidth is the width of the keys' column in the help.
const keyLabelWidth = 10

// KeyHelp returns one line per row of the game's key table: the keys,
// padded to a column, and what they do. gridlag -help prints them.
func KeyHelp() []string { return tableHelp(keyTable) }

// tableHelp returns one line per row of helpRows(table): the keys,
// padded to a column, and what they do; a state's heading alone.
func tableHelp[T any](table []binding[T]) []string {
	var lines []string
	for _, r := range helpRows(table) {
		switch {
		case r.key == "" && r.text == "":
			continue
		case r.key == "":
			lines = append(lines, r.text)
			continue
		}
		pad := strings.Repeat(" ", max(1, keyLabelWidth-textWidth(r.key)))
		lines = append(lines, fmt.Sprint(r.key, pad, r.text))
	}
	return lines
}
