package sshd

import (
	"testing"

	"gridlag/front"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want command
		ok   bool
	}{
		{"", command{}, true},
		{"room kitchen", command{mode: front.Mode{Room: "kitchen"}}, true},
		{"room  my  room", command{mode: front.Mode{Room: "my room"}}, true},
		{"lobby", command{mode: front.Mode{Kind: front.Lobby}}, true},
		{"spectate", command{mode: front.Mode{Kind: front.Watch}}, true},
		{"spectate kitchen", command{mode: front.Mode{Kind: front.Watch, Room: "kitchen"}}, true},
		{"room", command{}, false},
		{"lobby kitchen", command{}, false},
		{"room \x1b[2J", command{}, false},
		{"ls -la", command{}, false},
		{"record", command{record: true}, true},
		{"record kitchen", command{record: true, mode: front.Mode{Room: "kitchen"}}, true},
		{"teach", command{teach: true}, true},
		{"teach kitchen", command{teach: true, mode: front.Mode{Room: "kitchen"}}, true},
		{"teach \x1b[2J", command{}, false},
		{"recording", command{fetch: true}, true},
		{"recording extra", command{}, false},
	} {
		got, err := parseCommand(tc.raw)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseCommand(%q) = %+v, %v; want %+v, ok %v", tc.raw, got, err, tc.want, tc.ok)
		}
	}
}
