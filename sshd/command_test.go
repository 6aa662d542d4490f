package sshd

import (
	"testing"

	"gridlag/front"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want front.Mode
		ok   bool
	}{
		{"", front.Mode{}, true},
		{"room kitchen", front.Mode{Room: "kitchen"}, true},
		{"room  my  room", front.Mode{Room: "my room"}, true},
		{"lobby", front.Mode{Kind: front.Lobby}, true},
		{"spectate", front.Mode{Kind: front.Watch}, true},
		{"spectate kitchen", front.Mode{Kind: front.Watch, Room: "kitchen"}, true},
		{"room", front.Mode{}, false},
		{"lobby kitchen", front.Mode{}, false},
		{"room \x1b[2J", front.Mode{}, false},
		{"ls -la", front.Mode{}, false},
	} {
		got, err := parseCommand(tc.raw)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseCommand(%q) = %+v, %v; want %+v, ok %v", tc.raw, got, err, tc.want, tc.ok)
		}
	}
}
