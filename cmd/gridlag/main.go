// Command gridlag is a terminal multiplayer grid game that shows netcode at
// work: client-side prediction, server reconciliation and entity
// interpolation over an injected latency.
//
//	gridlag                       play on an embedded local server (with bots)
//	gridlag play HOST:PORT        play on a remote server
//	gridlag serve                 run a server (add -ssh :2222 for SSH players)
//	gridlag lab                   Player 1, the server and Player 2 side by side, slowed down
//	gridlag help                  every command, one line each
//
// Each command's flags are registered by the packages it runs (commands.go
// lists them); this package parses them and calls into the packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"gridlag/internal/cli"
)

// stopSignals end gridlag: Ctrl-C, SIGTERM (a service manager), SIGHUP
// (the terminal went away).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	err := run(os.Args[1:], os.Stdout)
	var ue *cli.UsageError
	switch {
	case errors.As(err, &ue) && ue.Cmd == "gridlag": // no command: an old form, or none known
		fmt.Fprintf(os.Stderr, "gridlag: %v\nRun 'gridlag help' for the commands, 'gridlag help old' for the old forms.\n", ue.Err)
	case errors.As(err, &ue):
		fmt.Fprintf(os.Stderr, "%s: %v\nRun '%s -help' for its flags.\n", ue.Cmd, ue.Err, ue.Cmd)
	case errors.As(err, new(*refusedError)):
		fmt.Fprintln(os.Stderr, "gridlag:", err)
	case err != nil && (exitCode(err) != 0 || stopped(err)):
		fmt.Fprintln(os.Stderr, "gridlag:", err)
	}
	os.Exit(exitCode(err))
}

// run runs the command args ask for, writing what it prints to out.
func run(args []string, out io.Writer) error {
	inv, err := parse(args, out)
	if err != nil {
		return err
	}
	return inv.run(inv.args)
}
