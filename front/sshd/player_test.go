package sshd

import (
	"gridlag/internal/names"
	"testing"
)

func TestPlayerNameIsAlwaysAccepted(t *testing.T) {
	for _, c := range []struct{ user, want string }{
		{"ada", "ada"},
		{"a\nX", "a X"},
		{"\u3164", DefaultPlayerName},
		{"\u0301\u0308", DefaultPlayerName},
		{"bot-1", DefaultPlayerName},
		{"BOT", DefaultPlayerName},
		{"botanist", "botanist"},
	} {
		got := PlayerName(c.user)
		if got != c.want {
			t.Errorf("PlayerName(%q) = %q, want %q", c.user, got, c.want)
		}
		if err := names.CheckPlayer(got, false); err != nil {
			t.Errorf("PlayerName(%q) = %q, which the server refuses: %v", c.user, got, err)
		}
	}
}
