package main

import (
	"errors"
	"flag"

	"gridlag/client"
	"gridlag/internal/cli"
)

// refusedError is an input refused whole, a recording that is not one
// or cannot be read: main prints it on one line, without a pointer to
// -help, and exits with status 2.
type refusedError struct{ err error }

func (e *refusedError) Error() string { return e.err.Error() }
func (e *refusedError) Unwrap() error { return e.err }

// exitCode is the exit status for what a command returned: 0 for
// success, -help and a server that stopped normally, 2 for a usage error
// (cli.UsageError) or an input refused, 1 for any other failure.
func exitCode(err error) int {
	var ue *cli.UsageError
	var re *refusedError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp), stopped(err):
		return 0
	case errors.As(err, &ue), errors.As(err, &re):
		return 2
	}
	return 1
}

// stopped reports whether err is the end of a session because the server
// stopped normally (or was stopping and refused it): main says so in a
// sentence, with status 0.
func stopped(err error) bool { return errors.Is(err, client.ErrServerStopped) }
