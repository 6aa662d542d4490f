package main

import (
	"errors"
	"flag"
)

// version is the program's version, printed by `gridlag version`.
const version = "0.1.0"

// errUsage is returned after a flag error has been printed with the usage.
var errUsage = errors.New("usage")

func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	return 1
}

// parse parses args with fs, mapping -help to flag.ErrHelp (exit 0) and
// other flag errors to errUsage (exit 2); fs prints the message itself.
func parse(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(fs.Output())
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	return nil
}
