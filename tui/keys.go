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
// screen of type T (the game's *UI, the lab's *LabScreen), and how the
// help names them.
type binding[T any] struct {
	label string // the keys as the help overlay names them, e.g. "[ ]"
	help  string // what they do, for the help overlay and -help
	brief string // the keys on the bottom line; "" leaves the row out
	group string // the bottom line's word for the rows before it with the same group
	keys  []keyDo[T]
	// toggle is the panel's switch these keys flip; the panel shows label
	// beside it.
	toggle *toggle
}

// keyDo is one key and what it does to the screen.
type keyDo[T any] struct {
	key tcell.Key // tcell.KeyRune for a character
	ch  rune      // the character, in lower case: letters match either case
	do  func(T)
}

// keyTable is every key the interface understands. The key handler, the
// bottom line, the help overlay and gridlag -help all read it.
var keyTable = []binding[*UI]{
	{label: "← ↑ ↓ →", help: "move one cell (also h j k l and w a s d)", brief: "arrows", group: "move", keys: concat(
		moveKeys(tcell.KeyUp, "kw", grid.Up),
		moveKeys(tcell.KeyDown, "js", grid.Down),
		moveKeys(tcell.KeyLeft, "ha", grid.Left),
		moveKeys(tcell.KeyRight, "ld", grid.Right),
	)},
	{label: "Space", help: "zap the way you face (the server judges the hit)", brief: "Space", group: "zap", keys: []keyDo[*UI]{
		{key: tcell.KeyRune, ch: ' ', do: func(u *UI) { u.session.Zap() }},
	}},
	toggleBinding("p", "prediction on/off (turns reconciliation off and back)", predictToggle),
	toggleBinding("r", "reconciliation on/off (on also turns prediction on)", reconcileToggle),
	toggleBinding("i", "interpolation of other players on/off", interpolateToggle),
	{label: "- +", help: "injected round trip -/+ 10 ms (also _ =)", brief: "- +", group: "latency", keys: concat(
		latencyKeys("-_", -FineStep), latencyKeys("+=", FineStep),
	)},
	{label: "[ ]", help: "injected round trip -/+ 50 ms", brief: "[ ]", group: "latency", keys: concat(
		latencyKeys("[", -CoarseStep), latencyKeys("]", CoarseStep),
	)},
	{label: "m", help: "smoothing on/off: a correction slides over a move time, not snaps", toggle: smoothToggle,
		keys: runeKeys("m", func(u *UI) { smoothToggle.flip(u.session) })},
	{label: instrumentKeys, help: instrumentHelp, keys: concat(
		runeKeys("t", func(u *UI) { u.tools.toggle(waterfallView, u.session) }),
		runeKeys("g", func(u *UI) { u.tools.toggle(netGraphView, u.session) }),
		runeKeys("b", func(u *UI) { u.tools.toggle(budgetView, u.session) }),
	)},
	{label: "mouse", help: "click or drag the latency slider; click a toggle"},
	{label: "?", help: "show or hide this help (Esc also hides it)", brief: "?", group: "help", keys: []keyDo[*UI]{
		{key: tcell.KeyRune, ch: '?', do: func(u *UI) { u.help = !u.help }},
		{key: tcell.KeyEscape, do: func(u *UI) { u.help = false }},
	}},
	{label: "q Ctrl-C", help: "quit", brief: "q", group: "quit", keys: []keyDo[*UI]{
		{key: tcell.KeyRune, ch: 'q', do: (*UI).requestQuit},
		{key: tcell.KeyCtrlC, do: (*UI).requestQuit},
	}},
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
		keys: runeKeys(ch, func(u *UI) { t.flip(u.session) })}
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
func keyAction(ev *tcell.EventKey) func(u *UI) { return lookupKey(keyTable, ev) }

// lookupKey returns what a key event does in table, or nil for a key the
// table does not have.
func lookupKey[T any](table []binding[T], ev *tcell.EventKey) func(T) {
	ch := unicode.ToLower(ev.Rune())
	for _, b := range table {
		for _, k := range b.keys {
			if k.key == ev.Key() && (k.key != tcell.KeyRune || k.ch == ch) {
				return k.do
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

// tableHelp returns one line per row of table: the keys, padded to a
// column, and what they do.
func tableHelp[T any](table []binding[T]) []string {
	lines := make([]string, len(table))
	for i, b := range table {
		pad := strings.Repeat(" ", max(1, keyLabelWidth-textWidth(b.label)))
		lines[i] = fmt.Sprint(b.label, pad, b.help)
	}
	return lines
}
