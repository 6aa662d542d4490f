package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"gridlag/internal/cli"
)

// command is one of gridlag's commands: its name, its arguments, what it
// does in a line, and how it builds its flags. Every command's flags are
// built without running anything (the flag reference, docs/flags.md, is
// made from them).
//
// What a command acts on is its argument, never a flag: the server to
// join (HOST:PORT) for play, watch, lobby, bots and load (-connect
// HOST:PORT still says the same), the room for teach, the recording for
// replay. Flags go before or after it.
type command struct {
	name string
	args string // its arguments as help shows them: "[HOST:PORT]"
	// usage is the rest of its line in help: its chief flags.
	usage string
	does  string
	// least and most are how many arguments it takes; missing says what
	// is missing with fewer.
	least, most int
	missing     string
	// more says why an argument past most is refused, if it needs saying.
	more string
	// build builds its flags, with this machine's defaults, and returns
	// what runs once they are parsed (with the arguments); -help writes
	// head, then the flags of the groups keep keeps (all if nil).
	build func(out io.Writer) (*cli.FlagSet, func(args []string) error)
	head  func(w io.Writer)
	keep  func(group string) bool
}

// commands are gridlag's commands, in the order help lists them.
// (Filled in by init: the help command lists them.)
var commands []*command

func init() {
	commands = []*command{
		playCommand, watchCommand, lobbyCommand, serveCommand, teachCommand,
		labCommand, scenarioCommand, replayCommand, botsCommand, loadCommand,
		versionCommand, helpCommand,
	}
}

// lookup returns the command named name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames lists the commands' names, for an error.
func commandNames() string {
	var n []string
	for _, c := range commands {
		n = append(n, c.name)
	}
	return strings.Join(n, ", ")
}

// invocation is a command line parsed: the command, its flags set, its
// arguments, and what runs them.
type invocation struct {
	cmd  *command
	fs   *cli.FlagSet
	args []string
	run  func(args []string) error
}

// parse parses a command line: a command and its flags and arguments, or
// flags alone (an old form: see oldForm). Nothing runs; -help writes the
// command's help to out and returns flag.ErrHelp.
func parse(args []string, out io.Writer) (*invocation, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		name, rest, err := oldForm(args)
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(out)
			return nil, err
		}
		if err != nil {
			return nil, err
		}
		return parseCommand(lookup(name), rest, out)
	}
	c := lookup(args[0])
	if c == nil {
		return nil, &cli.UsageError{Cmd: "gridlag", Err: fmt.Errorf("unexpected argument %q: the commands are %s (or none, to play)", args[0], commandNames())}
	}
	return parseCommand(c, args[1:], out)
}

// parseCommand parses c's flags and arguments.
func parseCommand(c *command, args []string, out io.Writer) (*invocation, error) {
	fs, run := c.build(out)
	pos, err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		c.help(out, fs)
		return nil, err
	}
	if name := cli.Undefined(err); name != "" {
		return nil, misplaced(c, name, err)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case len(pos) > c.most && c.more != "":
		return nil, fs.Errorf("unexpected argument %q: %s", pos[c.most], c.more)
	case len(pos) > c.most:
		return nil, fs.Errorf("unexpected argument %q", pos[c.most])
	case len(pos) < c.least:
		return nil, fs.Errorf("%s", c.missing)
	}
	return &invocation{cmd: c, fs: fs, args: pos, run: run}, nil
}

// help writes c's -help: its usage line, its head, then its flags.
func (c *command) help(w io.Writer, fs *cli.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\n", c.line())
	c.head(w)
	fs.WriteHelp(w, c.keep)
}

// line is c's usage line: "gridlag watch HOST:PORT [-room NAME] [flags]".
func (c *command) line() string {
	return strings.Join(strings.Fields("gridlag "+c.name+" "+c.args+" "+c.usage), " ")
}

// misplacedFlags say why a flag is not one of some commands', where a
// newcomer (or an old form) may give it.
var misplacedFlags = []struct {
	flag string
	in   []string // the commands that do not take it; nil: none does
	why  string
}{
	{"loss", []string{"serve", "teach"}, "-loss is the terminal client's (playing or spectating); a server's SSH players and bots have none"},
	{"room", []string{"serve", "teach"}, "-room is the client's: a server opens rooms as clients name them"},
	{"room", []string{"lobby"}, "-room and -lobby do not go together: the lobby is for choosing a room"},
	{"record", []string{"serve", "teach"}, "-record and -cast are a player's: a server's SSH players record with ssh -t HOST record"},
	{"cast", []string{"serve", "teach"}, "-record and -cast are a player's: a server's SSH players record with ssh -t HOST record"},
	{"record", []string{"lobby"}, "-record records one game in one room: give -room NAME instead of -lobby (gridlag play -room NAME -record FILE)"},
	{"record", []string{"watch"}, "-record records a player's game: a spectator records nothing (-cast records the screen)"},
	{"agones", []string{"teach"}, "-teach and -agones do not go together: an Agones game server has no terminal (a teacher connects with ssh -p PORT host teach ROOM)"},
	{"agones", []string{"play", "lobby", "watch"}, "-agones is for -server: gridlag serve -agones"},
	{"drain", []string{"play", "lobby"}, "-drain is for -server: a player's embedded server closes with the player's screen"},
	{"addr", []string{"play", "lobby"}, "-addr is for -server: a player's embedded server listens on loopback (its friends join with -ssh or -web)"},
	// The old forms' mode flags, given with a command.
	{"server", nil, "-server is an old form, with no command before it: its command is gridlag serve"},
	{"spectate", nil, "-spectate is an old form, with no command before it: its command is gridlag watch HOST:PORT"},
	{"lobby", nil, "-lobby is an old form, with no command before it: its command is gridlag lobby [HOST:PORT]"},
	{"teach", nil, "-teach is an old form, with no command before it: its command is gridlag teach ROOM"},
}

// misplaced is the usage error for the flag name that c does not take:
// why, where that is known, or which commands take it.
func misplaced(c *command, name string, err error) error {
	for _, m := range misplacedFlags {
		if m.flag == name && (m.in == nil || slices.Contains(m.in, c.name)) {
			return &cli.UsageError{Cmd: "gridlag " + c.name, Err: errors.New(m.why)}
		}
	}
	var others []string
	for _, o := range commands {
		if o == c || o.build == nil {
			continue
		}
		if fs, _ := o.build(io.Discard); fs.Lookup(name) != nil {
			others = append(others, "gridlag "+o.name)
		}
	}
	if len(others) > 0 {
		return &cli.UsageError{Cmd: "gridlag " + c.name, Err: fmt.Errorf("gridlag %s has no flag -%s: %s takes it", c.name, name, strings.Join(others, ", "))}
	}
	return err
}
