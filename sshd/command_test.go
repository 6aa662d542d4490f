package sshd

import "testing"

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want command
		ok   bool
	}{
		{"", command{}, true},
		{"room kitchen", command{room: "kitchen"}, true},
		{"room  my  room", command{room: "my room"}, true},
		{"lobby", command{lobby: true}, true},
		{"spectate", command{spectate: true}, true},
		{"spectate kitchen", command{spectate: true, room: "kitchen"}, true},
		{"room", command{}, false},
		{"lobby kitchen", command{}, false},
		{"room \x1b[2J", command{}, false},
		{"ls -la", command{}, false},
		{"record", command{record: true}, true},
		{"record kitchen", command{record: true, room: "kitchen"}, true},
		{"recording", command{fetch: true}, true},
		{"recording extra", command{}, false},
	} {
		got, err := parseCommand(tc.raw)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseCommand(%q) = %+v, %v; want %+v, ok %v", tc.raw, got, err, tc.want, tc.ok)
		}
	}
}
