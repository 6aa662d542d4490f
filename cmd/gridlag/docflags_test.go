package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/internal/cli"
	"gridlag/internal/doctest"
)

// oldModeFlags are the old forms' mode flags: no command has them (they
// became the commands), and the docs name them only in the note on the
// old forms, a paragraph that points at gridlag help old.
var oldModeFlags = []string{"server", "spectate", "lobby", "teach"}

// oldFormsNote is what the paragraph on the old forms says.
const oldFormsNote = "gridlag help old"

// flagWord is a word written as a flag: -name, --name or -name=value;
// "-", "--", "-1" and "->" are none.
var flagWord = regexp.MustCompile(`^--?([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?:=.*)?$`)

// docFlag is a flag the documentation names: where, the flag, and the
// command it follows (nil where it follows none).
type docFlag struct {
	where string // "docs/lab.md:12"
	name  string
	cmd   *command
	old   bool // in the note on the old forms
}

// docFlagSets are the flag sets of every command, with the defaults a
// page writes for the machine's ($USER, $XDG_STATE_HOME).
func docFlagSets(t *testing.T) map[*command]*cli.FlagSet {
	t.Helper()
	t.Setenv("USER", "$USER")
	t.Setenv("XDG_STATE_HOME", "$XDG_STATE_HOME")
	sets := map[*command]*cli.FlagSet{}
	for _, c := range commands {
		sets[c], _ = c.build(io.Discard)
	}
	return sets
}

// TestDocsNameOnlyFlagsThatExist: every flag the README and docs/*.md
// name, in a command line or a code span, is a flag of the command it
// follows (`gridlag load -ramp`, `scenario -json`, a row of a table
// headed "`gridlag serve` flag"), or, following none, of some command;
// the old forms' mode flags (-server, -spectate, -lobby, -teach) appear
// only in the note on the old forms. A table of a command's flags gives
// each flag's default as the flag set has it. And every flag of every
// command is in the docs (docs/flags.md, made from the flag sets, lists
// them all: TestFlagReference keeps it so).
func TestDocsNameOnlyFlagsThatExist(t *testing.T) {
	sets := docFlagSets(t)
	var named []docFlag
	for _, page := range doctest.Pages(t) {
		named = append(named, pageFlags(t, page)...)
		for _, row := range flagTableRows(page) {
			checkDefault(t, sets[row.cmd], row)
		}
	}
	if len(named) < 200 {
		t.Fatalf("found only %d flags in the documentation", len(named))
	}
	for _, f := range named {
		if f.name == "help" || f.name == "h" {
			continue // every command's
		}
		if f.cmd != nil {
			if sets[f.cmd].Lookup(f.name) == nil {
				t.Errorf("%s: -%s is no flag of gridlag %s", f.where, f.name, f.cmd.name)
			}
			continue
		}
		if slices.Contains(oldModeFlags, f.name) {
			if !f.old {
				t.Errorf("%s: -%s is an old form's: show its command (gridlag help old), or name it in the note on the old forms", f.where, f.name)
			}
			continue
		}
		if !slices.ContainsFunc(commands, func(c *command) bool { return sets[c].Lookup(f.name) != nil }) {
			t.Errorf("%s: -%s is no flag of any command", f.where, f.name)
		}
	}

	var all strings.Builder
	for _, page := range doctest.Pages(t) {
		all.WriteString(page.Text)
	}
	for _, c := range commands {
		sets[c].VisitAll(func(f *flag.Flag) {
			if !strings.Contains(all.String(), "`-"+f.Name) {
				t.Errorf("gridlag %s -%s is in no page of the documentation", c.name, f.Name)
			}
		})
	}
}

// pageFlags returns the flags a page names: in its code spans, in the
// lines of its sh blocks, and in the "$ " lines of any block.
func pageFlags(t *testing.T, page doctest.Page) []docFlag {
	t.Helper()
	var (
		flags []docFlag
		fence string
		para  []string // the paragraph being read, and where it starts
		start int
		// continued is a command line of an sh block so far, while its
		// lines end in a backslash
		continued string
	)
	tables := map[int]*command{} // the rows of tables of a command's flags
	for _, row := range flagTableRows(page) {
		tables[row.line] = row.cmd
	}
	span := regexp.MustCompile("`([^`]+)`")
	spans := func(text string, n int, cmd *command) {
		old := strings.Contains(text, oldFormsNote)
		for _, m := range span.FindAllStringSubmatch(text, -1) {
			for _, f := range wordFlags(strings.Fields(m[1])) {
				f.where, f.old = fmt.Sprintf("%s:%d", page.Path, n), old
				if f.cmd == nil {
					f.cmd = cmd
				}
				flags = append(flags, f)
			}
		}
	}
	flush := func() {
		spans(strings.Join(para, " "), start, nil)
		para = nil
	}
	for i, line := range page.Lines() {
		n := i + 1
		switch {
		case strings.HasPrefix(line, "```"):
			flush()
			if fence == "" {
				fence = line
			} else {
				fence = ""
			}
		case fence == "```sh" || fence != "" && strings.HasPrefix(line, "$ "):
			cmd, _, _ := strings.Cut(strings.TrimPrefix(line, "$ "), " #")
			if strings.HasPrefix(strings.TrimSpace(cmd), "#") {
				continue
			}
			if continued != "" { // the line before ended in a backslash
				cmd = continued + " " + cmd
			} else {
				start = n
			}
			if c, ok := strings.CutSuffix(strings.TrimSpace(cmd), "\\"); ok {
				continued = c
				continue
			}
			continued = ""
			for _, f := range wordFlags(strings.Fields(cmd)) {
				f.where = fmt.Sprintf("%s:%d", page.Path, start)
				flags = append(flags, f)
			}
		case fence != "":
		case strings.HasPrefix(line, "|"):
			// a row of a table of a command's flags: the first cell's
			// flags are that command's
			flush()
			first, rest, _ := strings.Cut(strings.TrimPrefix(line, "|"), " | ")
			spans(first, n, tables[n])
			spans(rest, n, nil)
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			flush()
		default:
			if para == nil {
				start = n
			}
			para = append(para, line)
		}
	}
	flush()
	return flags
}

// wordFlags returns the flags among the words of a command line or a
// code span, each with the command it follows: the gridlag command the
// words name (gridlag CMD first, bin/gridlag CMD anywhere, or CMD as the
// first word),
// play for make run's ARGS and flags after a bare gridlag, load for make
// load's LOAD_FLAGS. The flags of another program (ssh -p, go test
// -bench, taskset -c) are none of gridlag's; the words after it may
// start a gridlag command again (taskset -c 0 bin/gridlag serve ...).
func wordFlags(words []string) []docFlag {
	var (
		flags []docFlag
		cmd   *command
		other bool // the words belong to another program
	)
	for i, w := range words {
		switch {
		case i == 0 && w == "gridlag" || w == "bin/gridlag" || w == "./bin/gridlag":
			other, cmd = false, playCommand // gridlag [flags] plays
			if i+1 < len(words) {
				if c := lookup(words[i+1]); c != nil {
					cmd = c
				}
			}
			if i+1 < len(words) && strings.HasPrefix(words[i+1], "-") {
				cmd = nil // an old form, or a play's flags: as any command's
			}
			continue
		case i == 0 && lookup(w) != nil:
			cmd = lookup(w)
			continue
		case strings.HasPrefix(w, "ARGS="):
			other, cmd, w = false, nil, strings.TrimPrefix(w, "ARGS=")
		case strings.HasPrefix(w, "LOAD_FLAGS="):
			other, cmd, w = false, loadCommand, strings.TrimPrefix(w, "LOAD_FLAGS=")
		case i == 0 && !strings.HasPrefix(strings.TrimLeft(w, "[("), "-"):
			other = true
			continue
		}
		if other {
			continue
		}
		m := flagWord.FindStringSubmatch(strings.Trim(w, `[](),;:"'`))
		if m == nil {
			continue
		}
		flags = append(flags, docFlag{name: m[1], cmd: cmd})
	}
	return flags
}

// flagRow is a row of a table of one command's flags, whose head says
// whose: "| `gridlag serve` flag | default | meaning |".
type flagRow struct {
	where string
	line  int
	cmd   *command
	flags []string
	def   string // the default cell, as written
}

var flagTableHead = regexp.MustCompile("^\\| `gridlag ([a-z]+)` flag \\| default \\| meaning \\|$")

// flagTableRows returns the rows of a page's tables of a command's flags.
func flagTableRows(page doctest.Page) []flagRow {
	var rows []flagRow
	var cmd *command
	for i, line := range page.Lines() {
		if m := flagTableHead.FindStringSubmatch(line); m != nil {
			cmd = lookup(m[1])
			continue
		}
		if !strings.HasPrefix(line, "|") {
			cmd = nil
			continue
		}
		if cmd == nil || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) < 3 {
			continue
		}
		row := flagRow{where: fmt.Sprintf("%s:%d", page.Path, i+1), line: i + 1, cmd: cmd, def: strings.TrimSpace(cells[1])}
		for _, f := range wordFlags(strings.Fields(strings.ReplaceAll(cells[0], "`", " "))) {
			row.flags = append(row.flags, f.name)
		}
		rows = append(rows, row)
	}
	return rows
}

// checkDefault checks a table row's default against the flag set: a
// default written as one code span (`250ms`, `$USER`), off or on, or
// nothing (a flag whose default is its zero value) must be the flag's;
// a default in words ("as recorded", "3 (0 with ...)") is not checked.
func checkDefault(t *testing.T, fs *cli.FlagSet, row flagRow) {
	t.Helper()
	want, ok := strings.CutPrefix(row.def, "`")
	if ok {
		want, ok = strings.CutSuffix(want, "`")
		ok = ok && !strings.Contains(want, "`")
	}
	switch row.def {
	case "off":
		want, ok = "false", true
	case "on":
		want, ok = "true", true
	case "":
		want, ok = "", true
	}
	if !ok {
		return
	}
	for _, name := range row.flags {
		f := fs.Lookup(name)
		if f == nil {
			continue // TestDocsNameOnlyFlagsThatExist says so
		}
		if !sameDefault(want, f.DefValue) {
			t.Errorf("%s: the table gives gridlag %s -%s the default %q; its flag set has %q", row.where, row.cmd.name, name, row.def, f.DefValue)
		}
	}
}

// sameDefault reports whether a default as the docs write it is the flag
// set's: the same text, or the same duration or size, "" and "0" for a
// zero value.
func sameDefault(doc, def string) bool {
	zero := func(s string) bool { return s == "" || s == "0" || s == "0s" || s == "false" }
	switch {
	case doc == def, zero(doc) && zero(def):
		return true
	}
	if a, err := time.ParseDuration(doc); err == nil {
		b, err := time.ParseDuration(def)
		return err == nil && a == b
	}
	if a, err := cli.ParseSize(doc); err == nil {
		b, err := cli.ParseSize(def)
		return err == nil && a == b
	}
	return false
}
