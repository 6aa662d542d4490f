package tui

import (
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// ReplayModel is what the replay's screen needs from a replay (package
// replay implements it): a recording played on a clock that runs at a
// speed, pauses, steps, seeks and starts again, changed by a what-if the
// screen's keys switch, with the original run as a ghost. It is used
// from the screen's loop only.
type ReplayModel interface {
	// VirtualClock is the replay's clock: at the end it pauses, and
	// Resume there starts again.
	VirtualClock
	// End is the recording's end.
	End() time.Duration
	// Seek goes to time t; SeekNext to the next moment after now of a
	// kind ("zap", "correction", "loss"), reporting whether there is one.
	Seek(t time.Duration)
	SeekNext(kind string) bool
	// Title names the recording.
	Title() string
	// WhatIf says what the replay changes, "" for nothing.
	WhatIf() string
	// Switches are the what-if's switches (see ReplaySwitch); Toggle
	// flips the one named.
	Switches() []ReplaySwitch
	Toggle(name string)
	// Panes are the players at the replay's time: two for a scenario or
	// a lab, one for a game.
	Panes() []ReplayPane
	// Server returns the server's world, when the replay has it.
	Server() (client.WorldView, bool)
	// Differences are the lines of the moments up to now where the
	// changed run differs from the recording, oldest first.
	Differences() []string
	// Note is a line about the replay itself ("412 States, every view as
	// recorded"); "" for none.
	Note() string
}

// ReplaySwitch is one switch of a replay's what-if: its name (one of
// ReplaySwitchNames), whether it is on in the run shown, and whether
// that differs from the recording.
type ReplaySwitch struct {
	Name    string
	On      bool
	Changed bool
}

// ReplaySwitchNames are the what-if's switches, in the order the screen
// shows them: the client's three, the server's lag compensation, and the
// transport (on: a datagram link instead of TCP).
var ReplaySwitchNames = []string{"predict", "reconcile", "interpolate", "lagcomp", "datagram"}

// ReplayPane is one player of a replay at its time.
type ReplayPane struct {
	Name string
	View client.View
	// Ghost is where the player saw itself in the recording at this
	// moment, when the changed run has it elsewhere; nil otherwise.
	Ghost *grid.Pos
	// Flights are the messages on its simulated link; Link says it has
	// one (a game's recording has the socket's bytes, not a link).
	Flights []Flight
	Link    bool
}
