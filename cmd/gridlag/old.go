package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gridlag/internal/cli"
	"gridlag/protocol"
)

// oldForms are gridlag's command lines of before its commands, the modes
// as flags, each with the command it stands for. They still work (people
// have them in scripts and slides: oldForm turns them into their
// commands), and gridlag help old lists them.
var oldForms = []struct{ old, now string }{
	{"gridlag [flags]", "gridlag play [flags]"},
	{"gridlag -connect HOST:PORT [flags]", "gridlag play HOST:PORT [flags]"},
	{"gridlag -connect HOST:PORT -room NAME", "gridlag play HOST:PORT -room NAME"},
	{"gridlag -connect HOST:PORT -spectate [-room NAME]", "gridlag watch HOST:PORT [-room NAME]"},
	{"gridlag [-connect HOST:PORT] -lobby", "gridlag lobby [HOST:PORT]"},
	{"gridlag -server [flags]", "gridlag serve [flags]"},
	{"gridlag -server -teach ROOM [flags]", "gridlag teach ROOM [flags]"},
}

// oldMode is what an old form's mode flags said.
type oldMode struct {
	server, spectate, lobby bool
	connect, teach          *string
	help                    bool
}

// oldForm turns an old form's arguments (flags alone) into the command
// they stand for and its arguments: the mode flags -server, -connect,
// -spectate, -lobby and -teach become the command and its argument, the
// other flags stay as they are. -help without a mode is gridlag's help
// (flag.ErrHelp).
func oldForm(args []string) (name string, rest []string, err error) {
	var m oldMode
	takesValue := oldValueFlags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" { // the end of the flags: no argument may follow
			if i+1 < len(args) {
				return "", nil, oldError("unexpected argument %q", args[i+1])
			}
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			return "", nil, oldError("unexpected argument %q", a)
		}
		flagName, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch flagName {
		case "server", "spectate", "lobby":
			b := true
			if hasValue {
				if b, err = strconv.ParseBool(value); err != nil {
					return "", nil, oldError("invalid boolean value %q for -%s: parse error", value, flagName)
				}
			}
			*map[string]*bool{"server": &m.server, "spectate": &m.spectate, "lobby": &m.lobby}[flagName] = b
			continue
		case "connect", "teach":
			if !hasValue {
				if i+1 == len(args) {
					return "", nil, oldError("flag needs an argument: -%s", flagName)
				}
				i++
				value = args[i]
			}
			v := value
			if flagName == "connect" {
				m.connect = &v
			} else {
				m.teach = &v
			}
			continue
		case "h", "help":
			m.help = true
		}
		rest = append(rest, a)
		if !hasValue && takesValue[flagName] && i+1 < len(args) {
			i++
			rest = append(rest, args[i])
		}
	}
	return m.command(rest)
}

// command is the command the mode stands for, with its argument before
// the other flags.
func (m oldMode) command(rest []string) (string, []string, error) {
	connect, teach := "", ""
	if m.connect != nil {
		connect = *m.connect
	}
	if m.teach != nil {
		teach = *m.teach
	}
	switch {
	case m.help && !m.server && m.connect == nil && !m.spectate && !m.lobby && m.teach == nil:
		return "", nil, flag.ErrHelp
	case m.server && connect != "":
		return "", nil, oldError("-server and -connect do not go together")
	case m.teach != nil && !m.server:
		return "", nil, oldError("-teach is for -server: this terminal teaches a room of the server it runs (a remote teacher: ssh -p PORT host teach ROOM)")
	case m.spectate && connect == "":
		return "", nil, oldError("-spectate needs -connect HOST:PORT: the server to watch")
	case m.lobby && m.spectate:
		return "", nil, oldError("-lobby is for playing; to watch a room, give -spectate -room NAME")
	case m.lobby && m.server:
		return "", nil, oldError("-lobby is a player's: a server has no screen to show it on")
	case m.teach != nil:
		if err := protocol.CheckName(teach); err != nil {
			return "", nil, oldError("-teach %q: %w", teach, err)
		}
		return "teach", append([]string{teach}, rest...), nil
	case m.server:
		return "serve", rest, nil
	}
	name := "play"
	switch {
	case m.spectate:
		name = "watch"
	case m.lobby:
		name = "lobby"
	}
	if connect != "" {
		rest = append([]string{connect}, rest...)
	}
	return name, rest, nil
}

// oldError is a usage error of an old form.
func oldError(format string, a ...any) error {
	return &cli.UsageError{Cmd: "gridlag", Err: fmt.Errorf(format, a...)}
}

// oldValueFlags are the flags of the old forms' commands that take a
// value: the one after such a flag is its value, whatever it looks like.
func oldValueFlags() map[string]bool {
	takes := map[string]bool{}
	for _, c := range []*command{playCommand, serveCommand, teachCommand} {
		fs, _ := c.build(io.Discard)
		fs.VisitAll(func(f *flag.Flag) {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				takes[f.Name] = true
			}
		})
	}
	return takes
}

// writeOldForms writes gridlag help old: each old form, and its command.
func writeOldForms(w io.Writer) {
	fmt.Fprintln(w, "The old forms, modes as flags, still work; each is a command now:")
	for _, f := range oldForms {
		fmt.Fprintf(w, "  %-50s %s\n", f.old, f.now)
	}
}
