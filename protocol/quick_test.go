package protocol

import (
	"bytes"
	"reflect"
	"testing"

	"gridlag/grid"
)

func TestInputIsEightBytes(t *testing.T) {
	b, err := Marshal(&Input{Seq: 1 << 31, Dir: grid.Right})
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 8 {
		t.Fatalf("input frame is %d bytes, want 8", len(b))
	}
}

func TestRoundTripAll(t *testing.T) {
	m := grid.DefaultMap()
	msgs := []Message{
		&Hello{Version: Version, Name: "ada", Bot: true},
		&Welcome{Player: 3, UpdateRate: 20, MoveTimeMS: 100, Burst: 4, MapWidth: uint16(m.Width()), MapHeight: uint16(m.Height()), Cells: m.Cells(),
			Players: []PlayerInfo{{ID: 1, Color: 2, Name: "bot-1"}}},
		&Error{Code: ErrCodeVersion, Text: "wrong version"},
		&Input{Seq: 7, Dir: grid.Up},
		&State{Tick: 9, TimeNS: 450e6, Ack: 7, Players: []grid.PlayerPos{{ID: 1, Pos: grid.Pos{X: 10, Y: 10}}}},
		&Ping{Stamp: 12345}, &Pong{Stamp: 12345}, &Bye{Reason: "quit"},
		&Join{Player: PlayerInfo{ID: 4, Color: 1, Name: "grace"}}, &Leave{ID: 4},
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, msg := range msgs {
		if err := enc.Encode(msg); err != nil {
			t.Fatal(err)
		}
	}
	dec := NewDecoder(&buf)
	for _, want := range msgs {
		got, err := dec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
	}
}

func TestSanitizeName(t *testing.T) {
	cases := map[string]string{
		"ada":                   "ada",
		"\x1b[31mred\x1b[0m":    "[31mred[0m",
		"  two   words ":        "two words",
		"a\u202eb":              "ab",
		"abcdefghijklmnopqrstu": "abcdefghijklmnop",
	}
	for in, want := range cases {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	if CheckName("ada") != nil || CheckName("a\x1bb") == nil || CheckName("") == nil || CheckName("abcdefghijklmnopq") != ErrNameLong {
		t.Error("CheckName verdicts wrong")
	}
}
