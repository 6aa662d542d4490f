package remote

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"gridlag/tui"
)

// A terminal's size comes to the screen's, clamped, and the margins that
// centre it.
func TestWindowOf(t *testing.T) {
	for _, tc := range []struct {
		cols, rows int
		want       Window
	}{
		{80, 24, Window{size: tcell.WindowSize{Width: 80, Height: 24}}},
		{tui.MaxWidth + 10, tui.MaxHeight + 3, Window{size: tcell.WindowSize{Width: tui.MaxWidth, Height: tui.MaxHeight}, off: point{5, 1}}},
		{100000, 100000, Window{size: tcell.WindowSize{Width: tui.MaxWidth, Height: tui.MaxHeight}, off: point{(100000 - tui.MaxWidth) / 2, (100000 - tui.MaxHeight) / 2}}},
		{0, 0, Window{}},
	} {
		if got := WindowOf(tc.cols, tc.rows); got != tc.want {
			t.Errorf("WindowOf(%d, %d) = %+v, want %+v", tc.cols, tc.rows, got, tc.want)
		}
	}
}

// Cursor addresses are shifted by the margins, whatever else the output
// holds, and a sequence cut by the end of a write is kept for the next.
func TestShiftOutput(t *testing.T) {
	off := point{10, 3}
	for _, tc := range []struct{ in, out, rest string }{
		{"plain", "plain", ""},
		{"\x1b[1;1Hab\x1b[5;7Hc", "\x1b[4;11Hab\x1b[8;17Hc", ""},
		{"\x1b[H\x1b[2J", "\x1b[4;11H\x1b[2J", ""},
		{"\x1b[?25l\x1b[38;5;242m·\x1b]2;t\x1b\\", "\x1b[?25l\x1b[38;5;242m·\x1b]2;t\x1b\\", ""},
		{"x\x1b[12;3", "x", "\x1b[12;3"},
		{"x\x1b", "x", "\x1b"},
	} {
		out, rest := shiftOutput(nil, []byte(tc.in), off)
		if string(out) != tc.out || string(rest) != tc.rest {
			t.Errorf("shiftOutput(%q) = %q, rest %q; want %q, rest %q", tc.in, out, rest, tc.out, tc.rest)
		}
	}
}

// Mouse reports are shifted back by the margins; those outside the screen
// are dropped; keys pass untouched, an Escape alone included.
func TestShiftInput(t *testing.T) {
	off, size := point{10, 3}, tcell.WindowSize{Width: 100, Height: 40}
	for _, tc := range []struct{ in, out, rest string }{
		{"q\x1b[C", "q\x1b[C", ""},
		{"\x1b[<0;15;8M\x1b[<0;15;8m", "\x1b[<0;5;5M\x1b[<0;5;5m", ""},
		{"\x1b[<0;5;8Mx", "x", ""},   // left of the screen
		{"\x1b[<0;200;8Mx", "x", ""}, // right of it
		{"a\x1b[<0;15", "a", "\x1b[<0;15"},
		{"\x1b", "\x1b", ""},
	} {
		out, rest := shiftInput(nil, []byte(tc.in), off, size)
		if string(out) != tc.out || string(rest) != tc.rest {
			t.Errorf("shiftInput(%q) = %q, rest %q; want %q, rest %q", tc.in, out, rest, tc.out, tc.rest)
		}
	}
}
