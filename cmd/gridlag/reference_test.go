package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"gridlag/internal/cli"
)

var update = flag.Bool("update", false, "write docs/flags.md again from the flag sets")

// referencePath is the flag reference, made from the flag sets.
const referencePath = "../../docs/flags.md"

// writeReference writes the flag reference: a section for each command,
// its usage line, what it does and its flags, group by group. The
// defaults taken from the machine are written as the environment they
// come from ($USER, $XDG_STATE_HOME).
func writeReference(w io.Writer) {
	fmt.Fprint(w, `# gridlag's flags

Every command's flags, made from its flag set by
`+"`go test ./cmd/gridlag -run TestFlagReference -update`"+` (a test fails
when this file is stale): do not edit it by hand. `+"`gridlag CMD -help`"+`
lists the same. A default written `+"`$USER`"+` is your login name;
`+"`$XDG_STATE_HOME/gridlag`"+` is the state directory
(`+"`~/.local/state/gridlag`"+` when XDG_STATE_HOME is not set).
`)
	serve, _ := serveCommand.build(io.Discard)
	for _, c := range commands {
		fs, _ := c.build(io.Discard)
		fmt.Fprintf(w, "\n## gridlag %s\n\n```\n%s\n```\n\n%s.\n\n", c.name, c.line(), strings.ToUpper(c.does[:1])+c.does[1:])
		if len(fs.Flags(nil)) == 0 {
			fmt.Fprintln(w, "No flags.")
			continue
		}
		fs.WriteMarkdown(w, c.keep)
		if c.keep != nil && len(fs.Flags(nil)) > len(fs.Flags(c.keep)) {
			fmt.Fprintf(w, "\n%s\n", embedded(fs, serve))
		}
	}
}

// embedded says which flags of gridlag serve a player's embedded server
// takes: all but those its set lacks, some with other defaults.
func embedded(fs, serve *cli.FlagSet) string {
	var lacks, other []string
	for _, f := range serve.Flags(nil) {
		mine := fs.Lookup(f.Name)
		switch {
		case mine == nil:
			lacks = append(lacks, "`-"+f.Name+"`")
		case fs.GroupOf(f.Name) == "":
			// the player's own, listed above
		case mine.DefValue != serve.Lookup(f.Name).DefValue:
			other = append(other, fmt.Sprintf("`-%s` is `%s`", f.Name, mine.DefValue))
		}
	}
	s := "Without HOST:PORT it plays on an embedded server, which takes the flags of [gridlag serve](#gridlag-serve) but " + strings.Join(lacks, ", ")
	if len(other) > 0 {
		s += "; there " + strings.Join(other, ", ")
	}
	return s + "."
}

// TestFlagReference: docs/flags.md is what the flag sets say; run with
// -update to write it again.
func TestFlagReference(t *testing.T) {
	t.Setenv("USER", "$USER")
	t.Setenv("XDG_STATE_HOME", "$XDG_STATE_HOME")
	var want bytes.Buffer
	writeReference(&want)
	if *update {
		if err := os.MkdirAll("../../docs", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(referencePath, want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(referencePath)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("docs/flags.md is not what the flag sets say (%v): write it again with\n\tgo test ./cmd/gridlag -run TestFlagReference -update", err)
	}
}

// TestEachHelpListsItsOwnFlags: serve -help lists the server's flags and
// none of a player's; play -help the player's and none of the embedded
// server's (a line points to serve -help); teach -help the teacher's and
// its server's, none of a player's. Each flag of a set is in its help or
// (play's embedded server) in serve's.
func TestEachHelpListsItsOwnFlags(t *testing.T) {
	helps := map[string]string{}
	for _, name := range []string{"serve", "play", "teach", "watch", "lobby"} {
		var out bytes.Buffer
		if err := run([]string{name, "-help"}, &out); exitCode(err) != 0 {
			t.Fatalf("gridlag %s -help: %v", name, err)
		}
		helps[name] = out.String()
	}
	has := func(help, flag string) bool {
		return strings.Contains(help, "\n  -"+flag+" ") || strings.Contains(help, "\n  -"+flag+"\n")
	}
	player := []string{"room", "record", "cast", "loss", "connect"}
	server := []string{"addr", "ssh", "ssh-idle", "max-conns", "web", "metrics", "rate", "bots", "drain"}
	for _, c := range []struct {
		name      string
		has, lack []string
	}{
		{"serve", append(server, "agones", "latency"), player},
		{"play", []string{"room", "record", "cast", "loss", "connect", "name", "latency", "log"}, append(server, "agones")},
		{"teach", append(server, "name", "teachers"), append(player, "agones")},
		{"watch", []string{"room", "cast", "loss", "connect"}, append(server, "record", "agones")},
		{"lobby", []string{"cast", "loss", "connect"}, append(server, "room", "record", "agones")},
	} {
		for _, f := range c.has {
			if !has(helps[c.name], f) {
				t.Errorf("gridlag %s -help does not list -%s", c.name, f)
			}
		}
		for _, f := range c.lack {
			if has(helps[c.name], f) {
				t.Errorf("gridlag %s -help lists -%s, not its own", c.name, f)
			}
		}
	}
	if !strings.Contains(helps["play"], "gridlag serve -help") {
		t.Errorf("gridlag play -help does not say where the embedded server's flags are:\n%s", helps["play"])
	}
	for _, c := range commands {
		fs, _ := c.build(io.Discard)
		fs.VisitAll(func(f *flag.Flag) {
			where := c.name
			if c.keep != nil && !c.keep(fs.GroupOf(f.Name)) {
				where = "serve"
			}
			if _, ok := helps[where]; !ok {
				var out bytes.Buffer
				run([]string{where, "-help"}, &out)
				helps[where] = out.String()
			}
			if !has(helps[where], f.Name) {
				t.Errorf("-%s of gridlag %s is in neither its -help nor gridlag serve's", f.Name, c.name)
			}
		})
	}
	lines := map[string]int{}
	for _, name := range []string{"serve", "play", "teach"} {
		lines[name] = strings.Count(helps[name], "\n")
	}
	var overview bytes.Buffer
	run([]string{"help"}, &overview)
	lines["help"] = strings.Count(overview.String(), "\n")
	t.Logf("lines of -help: %v", lines)
	if lines["help"] > 30 || lines["play"] > 60 || slices.Max([]int{lines["serve"], lines["teach"]}) > 200 {
		t.Errorf("-help too long to read: %v", lines)
	}
}
