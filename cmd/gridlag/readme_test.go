package main

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestHelpListsEveryModeAsTheReadmeDoes: gridlag -help lists every way
// of running gridlag, every mode run takes among them, and the README's
// "Modes and flags" block is the same list.
func TestHelpListsEveryModeAsTheReadmeDoes(t *testing.T) {
	var help, lines bytes.Buffer
	gameUsage(&help)
	writeUsageLines(&lines, "", "  ")
	if !strings.Contains(help.String(), lines.String()) {
		t.Errorf("gridlag -help does not list the modes:\n%s", help.String())
	}
	for _, mode := range modes {
		if !strings.Contains(lines.String(), "  gridlag "+mode+" ") && !strings.Contains(lines.String(), "  gridlag "+mode+"\n") {
			t.Errorf("gridlag -help does not list the mode %q:\n%s", mode, lines.String())
		}
	}
	for _, l := range usageLines {
		if word := strings.Fields(l.cmd)[1]; !strings.HasPrefix(word, "-") && !strings.HasPrefix(word, "[") && !slices.Contains(modes, word) {
			t.Errorf("-help lists %q, which is no mode gridlag runs", l.cmd)
		}
	}
	for _, flag := range []string{"-spectate", "-room NAME", "-lobby", "-server"} {
		if !strings.Contains(lines.String(), flag) {
			t.Errorf("-help has no usage line with %s", flag)
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
