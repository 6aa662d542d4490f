package remote

import (
	"fmt"
	"io"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"gridlag/tui"
)

// FallbackTerm is the terminal type used when the client's TERM is missing
// or not in tcell's built-in terminal database.
const FallbackTerm = "xterm-256color"

// Window size limits. A client may claim any size; the screen allocates a
// cell per character (tcell keeps about 200 bytes a cell, the interface's
// two frames a few dozen more), so a claim is clamped to the largest
// screen the interface can use, tui.MaxWidth x tui.MaxHeight: a larger
// terminal would show nothing more of the game, and cost each session
// ever more memory and CPU (at 512x256, about 50 MB and a tenth of a core
// while idle).
const (
	maxCols = tui.MaxWidth
	maxRows = tui.MaxHeight
)

// OpenScreen makes the screen of a session whose client's terminal is
// of type term (FallbackTerm if unknown: see LookupTerm) and cols x rows:
// a tty writing to w, its window clamped and centred (WindowOf: a claim
// of any size costs at most the largest screen the interface can use),
// and a tcell screen on it, not yet initialised, whose input the tty
// scans and whose Fini cannot hold the session (see newScreen); its lines
// go to log. Every front end opens
// its sessions' screens with it, so that a session costs the same on
// each. It returns the terminal type in use, and an error only if the
// fallback has no description.
func OpenScreen(w io.Writer, term string, cols, rows int, log *SessionLog) (*Tty, tcell.Screen, string, error) {
	ti, name, err := LookupTerm(term)
	if err != nil {
		return nil, nil, "", err
	}
	tty := NewTty(w, WindowOf(cols, rows), CanShift(ti))
	screen, err := newScreen(tty, ti, log)
	if err != nil {
		return nil, nil, "", fmt.Errorf("remote: a screen for %s: %w", name, err)
	}
	return tty, screen, name, nil
}

// LookupTerm finds the terminal description for the client's TERM in
// tcell's built-in database, falling back to FallbackTerm. It never runs an
// external program (tcell.LookupTerminfo may run infocmp): the name comes
// from the network. The result is a copy of the database's entry: tcell
// writes to the entry it is given when it builds a screen, and sessions
// build screens concurrently.
func LookupTerm(name string) (*terminfo.Terminfo, string, error) {
	if validTermName(name) {
		if ti, err := terminfo.LookupTerminfo(name); err == nil {
			own := *ti
			return &own, name, nil
		}
	}
	ti, err := terminfo.LookupTerminfo(FallbackTerm)
	if err != nil {
		return nil, "", fmt.Errorf("remote: no terminfo for %s: %w", FallbackTerm, err)
	}
	own := *ti
	return &own, FallbackTerm, nil
}

// validTermName reports whether name looks like a terminal type: short,
// letters, digits and a few punctuation characters.
func validTermName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '-', r == '_', r == '.', r == '+':
		default:
			return false
		}
	}
	return true
}

// clampWindow limits a window size claimed by a client to what a screen
// will allocate. Zero stays zero (unknown: tcell uses the terminal's
// default size).
func clampWindow(cols, rows int) tcell.WindowSize {
	return tcell.WindowSize{Width: min(max(cols, 0), maxCols), Height: min(max(rows, 0), maxRows)}
}
