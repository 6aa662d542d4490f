package tui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestLabKeyTable: every key of the lab's table works, no key is bound
// twice, Space goes on with a lesson, and each player's groups have key
// hints for its panel.
func TestLabKeyTable(t *testing.T) {
	type key struct {
		state string
		k     tcell.Key
		ch    rune
	}
	seen := map[key]string{}
	for _, b := range labKeyTable {
		for _, k := range b.keys {
			if lookupKey(labKeyTable, b.state, tcell.NewEventKey(k.key, k.ch, tcell.ModNone)) == nil {
				t.Errorf("%s: key %v %q does nothing", b.label, k.key, k.ch)
			}
			if other, dup := seen[key{b.state, k.key, k.ch}]; dup {
				t.Errorf("key %v %q is bound by %q and %q", k.key, k.ch, other, b.label)
			}
			seen[key{b.state, k.key, k.ch}] = b.label
		}
	}
	if lookupKey(labKeyTable, "", tcell.NewEventKey(tcell.KeyRune, ' ', tcell.ModNone)) == nil {
		t.Error("Space does not go on with a lesson")
	}
	for i := range 2 {
		p := labPanel{i: i}
		for _, g := range []string{"lag", "jitter", "preset", "spike", "toggles"} {
			if p.keys(g) == "" {
				t.Errorf("Player %d's %s has no keys", i+1, g)
			}
		}
	}
	if got := (labPanel{i: 1}).keys("lag"); got != "y u i o" {
		t.Errorf("Player 2's latency keys are %q", got)
	}
}
