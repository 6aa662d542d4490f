package main

import (
	"fmt"
	"io"
	"strings"

	"gridlag/internal/cli"
)

var (
	versionCommand = &command{name: "version", does: "the version and the build's details",
		build: noFlags("version", func(out io.Writer) error { return readBuild().print(out) }),
		head:  func(w io.Writer) { fmt.Fprintln(w, "Prints the version, then the build's details.") }}
	helpCommand = &command{name: "help", args: "[CMD | old]", does: "this list; a command's flags; the old forms", most: 1,
		head: func(w io.Writer) {
			fmt.Fprintln(w, "Lists the commands; help CMD is gridlag CMD -help; help old lists the old forms.")
		}}
)

func init() {
	helpCommand.build = func(out io.Writer) (*cli.FlagSet, func([]string) error) {
		return cli.New("gridlag help"), func(args []string) error { return help(out, args) }
	}
}

// noFlags builds a command that takes no flags and runs do.
func noFlags(name string, do func(out io.Writer) error) func(io.Writer) (*cli.FlagSet, func([]string) error) {
	return func(out io.Writer) (*cli.FlagSet, func([]string) error) {
		return cli.New("gridlag " + name), func([]string) error { return do(out) }
	}
}

// help runs gridlag help: the commands; help CMD is CMD -help; help old
// lists the old forms.
func help(out io.Writer, args []string) error {
	switch {
	case len(args) == 0:
		writeHelp(out)
		return nil
	case args[0] == "old":
		writeOldForms(out)
		return nil
	}
	c := lookup(args[0])
	if c == nil {
		return &cli.UsageError{Cmd: "gridlag help", Err: fmt.Errorf("unexpected argument %q: the commands are %s", args[0], commandNames())}
	}
	fs, _ := c.build(out)
	c.help(out, fs)
	return nil
}

// usageColumn is where the descriptions start after the commands: a
// command that reaches it has its description on the next line.
const usageColumn = 48

// writeUsageLines writes every command, one line each, indented: what
// help lists (the README's table of the commands is the same list, a
// test keeps the two in step).
func writeUsageLines(w io.Writer) {
	for _, c := range commands {
		cmd := c.line()
		if len(cmd) <= usageColumn-2 {
			fmt.Fprintf(w, "  %-*s%s\n", usageColumn, cmd, c.does)
			continue
		}
		fmt.Fprintf(w, "  %s\n  %s%s\n", cmd, strings.Repeat(" ", usageColumn), c.does)
	}
}

// writeHelp writes gridlag's help: every command in a line, where the
// flags and the keys are, and the old forms in a line.
func writeHelp(w io.Writer) {
	fmt.Fprintln(w, "gridlag: a multiplayer grid game that shows netcode at work.")
	fmt.Fprintln(w, "\nUsage:")
	writeUsageLines(w)
	fmt.Fprint(w, `
gridlag alone plays. gridlag CMD -help lists CMD's flags (flags go before
or after HOST:PORT); ? on any screen, and play -help, list the keys.
The old forms -server, -connect, -spectate, -lobby and -teach still work:
gridlag help old.
`)
}
