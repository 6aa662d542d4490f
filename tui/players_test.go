package tui

import "testing"

// Names come from the network: whatever they hold, a player's mark is
// printable and fits the cell.
func TestPlayerGlyph(t *testing.T) {
	cases := []struct {
		name  string
		width int
		want  string
	}{
		{"Bob Smith", 2, "B"},
		{"Bob Smith", 1, "B"},
		{"bot-1", 1, "b"},
		{"7", 2, "7"},
		{"alice", 2, "a"},
		{"", 2, "?"},
		{"   ", 2, "?"},
		{"\x1b[31mEvil", 2, "["},
		{"\x1b]0;pwned\x07x", 2, "]"},
		{"\u202eevil", 2, "e"},
		{"山田 太郎", 2, "山"},
		{"山田", 1, "?"},
		{"\xff\xfeZed", 2, "Z"},
	}
	for _, c := range cases {
		if got := playerGlyph(c.name, c.width); got != c.want {
			t.Errorf("playerGlyph(%q, %d) = %q, want %q", c.name, c.width, got, c.want)
		}
	}
}

// Bots are told apart by the names reserved for them.
func TestIsBot(t *testing.T) {
	for name, want := range map[string]bool{"bot": true, "bot-1": true, "Bot_2": true, "BOT 3": true,
		"botanist": false, "robot": false, "bob": false, "": false} {
		if got := isBot(name); got != want {
			t.Errorf("isBot(%q) = %v, want %v", name, got, want)
		}
	}
}

// putText never writes control characters, whatever it is given.
func TestHasControl(t *testing.T) {
	for _, s := range []string{"\x1b", "\x07", "\u009b", "a\nb"} {
		if !hasControl(s) {
			t.Errorf("hasControl(%q) = false", s)
		}
	}
	if hasControl("héllo → 山") {
		t.Error("hasControl flags printable text")
	}
}
