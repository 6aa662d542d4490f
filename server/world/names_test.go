package world

import (
	"strings"
	"testing"
	"unicode/utf8"

	"gridlag/internal/names"
	"gridlag/protocol"
)

// TestTakenNamesAreNumbered: a newcomer whose name is, or looks like, one
// taken plays under the first free numbered variant of it, shortened to
// fit the longest name, and told so in its Welcome and to everyone in its
// Join; a bot's variant stays a bot's name; a name freed by its player
// is given again.
func TestTakenNamesAreNumbered(t *testing.T) {
	c := NewCore(Config{MaxPlayers: 20})
	long := strings.Repeat("é", protocol.MaxNameRunes) // 16 characters, 32 bytes
	for i, tc := range []struct{ ask, want string }{
		{"student", "student"},
		{"student", "student-2"},
		{"Student", "Student-3"}, // case folds
		{"student-2", "student-2-2"},
		{"ѕtudent", "ѕtudent-4"}, // a Cyrillic ѕ
		{long, long},
		{long, strings.Repeat("é", protocol.MaxNameRunes-2) + "-2"},
		{"a b", "a b"},
		{"a b", "a b-2"},
	} {
		w := join(t, c, 0, ConnID(i+1), tc.ask, false)
		got := w.Players[0].Name
		if got != tc.want {
			t.Errorf("%q joins as %q, want %q", tc.ask, got, tc.want)
		}
		if utf8.RuneCountInString(got) > protocol.MaxNameRunes || names.CheckPlayer(got, false) != nil {
			t.Errorf("%q is not a name a player may have", got)
		}
	}
	b := join(t, c, 0, 100, "bot-1", true)
	if b2 := join(t, c, 0, 101, "bot-1", true); b2.Players[0].Name != "bot-1-2" || b.Players[0].Name != "bot-1" {
		t.Errorf("two bots asking for bot-1 are %q and %q", b.Players[0].Name, b2.Players[0].Name)
	}
	c.Disconnect(0, 2, "bye") // student-2 leaves
	c.Outbox()
	if w := join(t, c, 0, 200, "student", false); w.Players[0].Name != "student-2" {
		t.Errorf("after student-2 left, student joins as %q, want student-2 again", w.Players[0].Name)
	}
}
