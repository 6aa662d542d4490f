package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The bottom line, the help and the key handler read one table: every row
// with keys is on the bottom line's reminder and in gridlag -help, and
// each of its keys does something.
func TestKeyTable(t *testing.T) {
	if got, want := bottomLine(), "arrows move  Space zap  p r i toggles  - + [ ] latency  ? help  q quit"; got != want || textWidth(got) > 76 {
		t.Errorf("bottom line %q, want %q", got, want)
	}
	help := KeyHelp()
	if len(help) != len(keyTable) {
		t.Fatalf("KeyHelp has %d lines for %d rows", len(help), len(keyTable))
	}
	for i, b := range keyTable {
		if !strings.HasPrefix(help[i], b.label) || !strings.HasSuffix(help[i], b.help) {
			t.Errorf("KeyHelp line %q does not show %q and %q", help[i], b.label, b.help)
		}
		for _, k := range b.keys {
			for _, ch := range []rune{k.ch, []rune(strings.ToUpper(string(k.ch)))[0]} {
				if keyAction(tcell.NewEventKey(k.key, ch, tcell.ModNone)) == nil {
					t.Errorf("key %v %q of row %q does nothing", k.key, ch, b.label)
				}
			}
		}
	}
	if toggleLabel(predictToggle) != "p" || toggleLabel(interpolateToggle) != "i" || groupLabels("latency") != "- + [ ]" {
		t.Error("the panel does not show the keys of the table")
	}
}
