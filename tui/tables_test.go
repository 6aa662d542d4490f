package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Every screen embeds the base: its help, quit, too-small notice, mouse
// and key handling are the base's.
var (
	_ baser = (*UI)(nil)
	_ baser = (*LabScreen)(nil)
	_ baser = (*SpectateScreen)(nil)
	_ baser = (*LobbyScreen)(nil)
	_ baser = (*ReplayScreen)(nil)
)

// tableRows is what TestKeyTablesAreOneShape reads of a table.
type tableRows struct {
	name  string
	rows  []binding[struct{}] // the table's rows without what they do
	works func(state string, ev *tcell.EventKey) bool
	help  []string // what gridlag -help prints of it
}

// rowsOf reads table for TestKeyTablesAreOneShape.
func rowsOf[T any](name string, table []binding[T], help []string) tableRows {
	r := tableRows{name: name, help: help, works: func(state string, ev *tcell.EventKey) bool {
		return lookupKey(table, state, ev) != nil
	}}
	for _, b := range table {
		row := binding[struct{}]{label: b.label, help: b.help, state: b.state}
		for _, k := range b.keys {
			row.keys = append(row.keys, keyDo[struct{}]{key: k.key, ch: k.ch})
		}
		r.rows = append(r.rows, row)
	}
	return r
}

// TestKeyTablesAreOneShape: each screen's keys are in one table, which
// the handler (lookupKey), the help overlay (helpRows) and gridlag -help
// (the tables' KeyHelp) read: in every table, every key does something
// in its state (a character in either case), no key is bound twice in a
// state, the help and quit rows are the shared ones, and -help prints
// every row.
func TestKeyTablesAreOneShape(t *testing.T) {
	for _, tab := range []tableRows{
		rowsOf("game", keyTable, KeyHelp()),
		rowsOf("lab", labKeyTable, LabKeyHelp()),
		rowsOf("spectator", spectateKeyTable, SpectateKeyHelp()),
		rowsOf("lobby", lobbyKeyTable, LobbyKeyHelp()),
		rowsOf("replay", replayKeyTable, ReplayKeyHelp()),
	} {
		type key struct {
			state string
			k     tcell.Key
			ch    rune
		}
		seen := map[key]string{}
		shared := map[string]bool{}
		for _, b := range tab.rows {
			if b.label == "?" && b.help == helpBinding[*UI]().help || b.label == "q Ctrl-C" && b.help == "quit" {
				shared[b.label] = true
			}
			for _, k := range b.keys {
				chars := []rune{k.ch}
				switch k.ch {
				case anyChar:
					chars = []rune{'x', 'Q', '?', 'é'}
				default:
					chars = append(chars, []rune(strings.ToUpper(string(k.ch)))[0])
				}
				for _, ch := range chars {
					if !tab.works(b.state, tcell.NewEventKey(k.key, ch, tcell.ModNone)) {
						t.Errorf("%s: key %v %q of row %q does nothing", tab.name, k.key, ch, b.label)
					}
				}
				if other, dup := seen[key{b.state, k.key, k.ch}]; dup {
					t.Errorf("%s: key %v %q is bound by %q and %q", tab.name, k.key, k.ch, other, b.label)
				}
				seen[key{b.state, k.key, k.ch}] = b.label
			}
			found := false
			for _, line := range tab.help {
				found = found || strings.HasPrefix(line, b.label) && strings.HasSuffix(line, b.help)
			}
			if !found {
				t.Errorf("%s: -help has no line for %q", tab.name, b.label)
			}
		}
		if !shared["?"] || !shared["q Ctrl-C"] {
			t.Errorf("%s: the table lacks the shared help or quit row", tab.name)
		}
	}
}
