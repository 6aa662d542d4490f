// Command gridlag is a terminal multiplayer grid game that shows netcode at
// work: client-side prediction, server reconciliation and entity
// interpolation over an injected latency.
//
//	gridlag                       play on an embedded local server (with bots)
//	gridlag -connect HOST:PORT    play on a remote server
//	gridlag -server -addr :7777   run a headless server (add -ssh :2222 for SSH players)
//	gridlag scenario              replay Gambetta's timelines on a virtual clock
//	gridlag lab                   Player 1, the server and Player 2 side by side, slowed down
//	gridlag replay FILE           play a recording again, or with one thing changed
//	gridlag bots -connect H:P     run headless players and print a summary
//	gridlag load -connect H:P     drive many light players to measure a server
//
// This file and its siblings only parse flags and wire the packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	err := run(os.Args[1:], os.Stdout)
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(os.Stderr, "%s: %v\nRun '%s -help' for its flags.\n", ue.cmd, ue.err, ue.cmd)
	case errors.As(err, new(*refusedError)):
		fmt.Fprintln(os.Stderr, "gridlag:", err)
	case err != nil && (exitCode(err) != 0 || stopped(err)):
		fmt.Fprintln(os.Stderr, "gridlag:", err)
	}
	os.Exit(exitCode(err))
}

// modes are the first words gridlag takes; without one it plays.
var modes = []string{"scenario", "lab", "replay", "bots", "load", "version", "help"}

// run runs the mode args ask for.
func run(args []string, out io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return gameMain(args)
	}
	switch mode, rest := args[0], args[1:]; mode {
	case "scenario":
		return scenarioMain(rest, out)
	case "lab":
		return labMain(rest, out)
	case "replay":
		return replayMain(rest, out)
	case "bots":
		return botsMain(rest, out)
	case "load":
		return loadMain(rest, out)
	case "version", "help":
		if len(rest) > 0 {
			return &usageError{cmd: "gridlag", err: fmt.Errorf("unexpected argument %q after %s", rest[0], mode)}
		}
		if mode == "help" {
			return gameMain([]string{"-help"})
		}
		return readBuild().print(out)
	}
	return &usageError{cmd: "gridlag", err: fmt.Errorf("unexpected argument %q: the modes are %s (or none, to play)",
		args[0], strings.Join(modes, ", "))}
}
