package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestHelpListsEveryModeAsTheReadmeDoes: gridlag -help lists every way
// of running gridlag, every command run takes among them, says where the
// old forms went, and the README's "Modes and flags" block is the same
// list.
func TestHelpListsEveryModeAsTheReadmeDoes(t *testing.T) {
	var help, lines bytes.Buffer
	writeHelp(&help)
	writeUsageLines(&lines, "", "  ")
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

	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "## Modes and flags\n\n```\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("the README has no \"Modes and flags\" block")
	}
	var want bytes.Buffer
	writeUsageLines(&want, "bin/", "")
	if block != want.String() {
		t.Errorf("the README's \"Modes and flags\" block is\n%s\n-help's list (with bin/) is\n%s", block, want.String())
	}
}
