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

// TestColoursApart: four students whose keys all wish for one colour
// (as four SSH keys often do) get four colours; one who wishes for a
// colour nobody has gets it, and a player who wishes for none gets its
// ID's colour while nobody has it.
func TestColoursApart(t *testing.T) {
	c := NewCore(Config{MaxPlayers: 20})
	colour := func(conn ConnID, name string, wish uint8) uint8 {
		t.Helper()
		c.Receive(0, conn, &protocol.Hello{Version: protocol.Version, Name: name, Color: wish})
		for _, e := range c.Outbox().Envelopes {
			if w, ok := e.Msg.(*protocol.Welcome); ok && e.To == conn {
				for _, p := range w.Players {
					if p.ID == w.Player {
						return p.Color
					}
				}
			}
		}
		t.Fatalf("%s was not welcomed", name)
		return 0
	}
	seen := map[uint8]string{}
	for i, name := range []string{"stud2", "stud3", "stud4", "stud5"} {
		col := colour(ConnID(i+1), name, 5)
		if o, ok := seen[col]; ok {
			t.Errorf("%s and %s share colour %d", o, name, col)
		}
		seen[col] = name
	}
	if col := colour(10, "ada", 8); col != 8 {
		t.Errorf("ada wished for 8, nobody's, and got %d", col)
	}
	if col := colour(11, "bob", 0); seen[col] != "" || col == 8 {
		t.Errorf("bob got colour %d, which another has", col)
	}
}
