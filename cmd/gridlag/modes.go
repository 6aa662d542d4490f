package main

import (
	"fmt"
	"io"
	"strings"
)

// usageLines are gridlag's ways of running, one line each: what -help
// lists, and what the README's "Modes and flags" block shows (a test
// keeps the two in step, and every mode of modes in them).
var usageLines = []struct{ cmd, does string }{
	{"gridlag [flags]", "play on an embedded local server"},
	{"gridlag -connect HOST:PORT [flags]", "play on a remote server"},
	{"gridlag -connect HOST:PORT -spectate", "watch a server, without playing"},
	{"gridlag -connect HOST:PORT -room NAME", "play in room NAME (opened if needed)"},
	{"gridlag -connect HOST:PORT -lobby", "choose a room, or name a new one"},
	{"gridlag -connect HOST:PORT -spectate -room NAME", "watch room NAME"},
	{"gridlag -server [-addr :7777] [-ssh :2222] [-web :8080] [-agones] [flags]", "a headless server (on Agones too)"},
	{"gridlag -server -ssh :2222 [-teachers FILE] -teach ROOM [flags]", "a server, and this terminal teaches room ROOM"},
	{"gridlag scenario [flags]", "replay the articles' timelines"},
	{"gridlag lab [flags]", "the lab: two players and the server"},
	{"gridlag replay FILE [flags]", "play a recording again, or with one thing changed"},
	{"gridlag bots -connect HOST:PORT [flags]", "headless players, then a summary"},
	{"gridlag load -connect HOST:PORT [flags]", "measure a server with light players"},
	{"gridlag version", "the version and the build's details"},
	{"gridlag help", "list the modes, keys and flags"},
}

// usageColumn is where the descriptions start after the commands, with
// a "bin/" before each (the README's): a command that reaches it has
// its description on the next line.
const usageColumn = 44

// writeUsageLines writes usageLines with prefix before each command
// ("bin/" in the README) and indent before each line.
func writeUsageLines(w io.Writer, prefix, indent string) {
	col := usageColumn - len("bin/") + len(prefix)
	for _, l := range usageLines {
		cmd := prefix + l.cmd
		if len(cmd) <= col-2 {
			fmt.Fprintf(w, "%s%-*s%s\n", indent, col, cmd, l.does)
			continue
		}
		fmt.Fprintf(w, "%s%s\n%s%s%s\n", indent, cmd, indent, strings.Repeat(" ", col), l.does)
	}
}
