package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gridlag/internal/doctest"
)

// TestHelpListsEveryModeAsTheReadmeDoes: gridlag -help lists every way
// of running gridlag, every command run takes among them, says where the
// old forms went, and the README's table of the commands is the same
// list: each command's line and what it does.
func TestHelpListsEveryModeAsTheReadmeDoes(t *testing.T) {
	var help, lines bytes.Buffer
	writeHelp(&help)
	writeUsageLines(&lines)
	if !strings.Contains(help.String(), lines.String()) {
		t.Errorf("gridlag -help does not list the modes:\n%s", help.String())
	}
	for _, c := range commands {
		if !strings.Contains(lines.String(), "  gridlag "+c.name+" ") && !strings.Contains(lines.String(), "  gridlag "+c.name+"\n") {
			t.Errorf("gridlag -help does not list the mode %q:\n%s", c.name, lines.String())
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(lines.String()), "\n") {
		if word := strings.Fields(line)[0]; word == "gridlag" && lookup(strings.Fields(line)[1]) == nil {
			t.Errorf("-help lists %q, which is no mode gridlag runs", line)
		}
	}
	if !strings.Contains(lines.String(), "-room NAME") {
		t.Errorf("-help has no usage line with -room NAME")
	}
	for _, flag := range []string{"-spectate", "-lobby", "-server", "-connect", "-teach"} {
		if !strings.Contains(help.String(), flag) {
			t.Errorf("-help does not say where the old form %s went", flag)
		}
	}

	// The README's table of the commands is the same list.
	readme := doctest.Pages(t)[0]
	_, rest, ok := strings.Cut(readme.Text, "\n"+commandsTableHead+"\n| --- | --- |\n")
	if !ok {
		t.Fatalf("%s has no table of the commands (%s)", readme.Path, commandsTableHead)
	}
	var want strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&want, "| `%s` | %s |\n", strings.ReplaceAll(c.line(), "|", "\\|"), c.does)
	}
	if table, _, _ := strings.Cut(rest, "\n\n"); table+"\n" != want.String() {
		t.Errorf("%s's table of the commands is\n%s\n-help's list makes it\n%s", readme.Path, table, want.String())
	}
}

// commandsTableHead is the head of the README's table of the commands.
const commandsTableHead = "| command | does |"
