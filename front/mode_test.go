package front

import "testing"

// The modes' words, as an SSH command's and a page's address's, give the
// one Mode every front end runs; what is not a mode is refused.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		word, room string
		want       Mode
		ok         bool
	}{
		{"", "", Mode{}, true},
		{"room", "kitchen", Mode{Kind: Play, Room: "kitchen"}, true},
		{"lobby", "", Mode{Kind: Lobby}, true},
		{"spectate", "", Mode{Kind: Watch}, true},
		{"spectate", "kitchen", Mode{Kind: Watch, Room: "kitchen"}, true},
		{"room", "", Mode{}, false},
		{"lobby", "kitchen", Mode{}, false},
		{"room", "\x1b[2J", Mode{}, false},
		{"spectate", "a\nb", Mode{}, false},
		{"", "kitchen", Mode{}, false},
		{"ls", "-la", Mode{}, false},
	} {
		got, err := Parse(c.word, c.room)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("Parse(%q, %q) = %+v, %v; want %+v, ok %v", c.word, c.room, got, err, c.want, c.ok)
		}
	}
}

// A mode's name is what a page's title and the log say.
func TestModeString(t *testing.T) {
	for m, want := range map[Mode]string{
		{}:                           "play",
		{Room: "kitchen"}:            "room kitchen",
		{Kind: Lobby}:                "lobby",
		{Kind: Watch}:                "spectating",
		{Kind: Watch, Room: "attic"}: "spectating room attic",
	} {
		if got := m.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", m, got, want)
		}
	}
	if (Mode{Kind: Watch}).Plays() || !(Mode{Kind: Lobby}).Plays() || !(Mode{}).Plays() {
		t.Error("Plays: want Play and Lobby to take an avatar, Watch not")
	}
}
