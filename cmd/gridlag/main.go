// Command gridlag is a terminal multiplayer grid game that shows netcode at
// work: client-side prediction, server reconciliation and entity
// interpolation over an injected latency.
//
//	gridlag                       play on an embedded local server (with bots)
//	gridlag -connect HOST:PORT    play on a remote server
//	gridlag -server -addr :7777   run a headless server (add -ssh :2222 for SSH players)
//	gridlag scenario              replay Gambetta's timelines on a virtual clock
//	gridlag bots -connect H:P     run headless players and print a summary
//
// This file and its siblings only parse flags and wire the packages.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	args := os.Args[1:]
	var err error
	switch {
	case len(args) > 0 && args[0] == "scenario":
		err = scenarioMain(args[1:], os.Stdout)
	case len(args) > 0 && args[0] == "bots":
		err = botsMain(args[1:], os.Stdout)
	case len(args) > 0 && (args[0] == "help" || args[0] == "version"):
		if args[0] == "version" {
			fmt.Println("gridlag", version)
			return
		}
		args = []string{"-help"}
		fallthrough
	default:
		err = gameMain(args)
	}
	if err != nil {
		if !errors.Is(err, errUsage) && !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "gridlag:", err)
		}
		os.Exit(exitCode(err))
	}
}
