package tui

import "testing"

// Names come from the network: whatever they hold, initials are printable
// and fit the cell.
func TestInitials(t *testing.T) {
	cases := []struct {
		name  string
		width int
		want  string
	}{
		{"Bob Smith", 2, "BS"},
		{"bot-1", 2, "b1"},
		{"bot-12", 2, "b2"},
		{"bot-3", 1, "b"},
		{"7", 2, "7"},
		{"Bob Smith", 1, "B"},
		{"alice", 2, "al"},
		{"a", 2, "a"},
		{"", 2, "?"},
		{"   ", 2, "?"},
		{"\x1b[31mEvil", 2, "[3"},
		{"\x1b]0;pwned\x07x", 2, "]0"},
		{"\u202eevil", 2, "ev"},
		{"山田 太郎", 2, "山"},
		{"山田", 1, "?"},
		{"\xff\xfeZed", 2, "Ze"},
	}
	for _, c := range cases {
		if got := initials(c.name, c.width); got != c.want {
			t.Errorf("initials(%q, %d) = %q, want %q", c.name, c.width, got, c.want)
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
