package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestOldReadmeFormsStillWork: every old form the README showed before
// its text moved into docs/ (testdata/old-readme-forms.txt, beside the
// command the docs show in its place) still works: it comes to that
// command, its arguments and every flag the same, and the servers among
// them start and take a player.
func TestOldReadmeFormsStillWork(t *testing.T) {
	text, err := os.ReadFile("testdata/old-readme-forms.txt")
	if err != nil {
		t.Fatal(err)
	}
	placeholders := strings.NewReplacer("HOST:PORT", "127.0.0.1:7777", "HOST", "127.0.0.1")
	n := 0
	for i, line := range strings.Split(string(text), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		oldForm, now, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("testdata/old-readme-forms.txt:%d: no tab between the old form and the command: %q", i+1, line)
		}
		n++
		old, cmd := shellWords(t, placeholders.Replace(oldForm)), shellWords(t, placeholders.Replace(now))
		t.Run(oldForm, func(t *testing.T) {
			if oldForm == "-help" { // the commands and where the old forms went
				var a, b bytes.Buffer
				if err := run(old, &a); exitCode(err) != 0 || run(cmd, &b) != nil || a.String() != b.String() {
					t.Fatalf("gridlag -help: %v\n%s\nwant what gridlag help says:\n%s", err, a.String(), b.String())
				}
				return
			}
			if got, want := parsed(t, old), parsed(t, cmd); got != want {
				t.Fatalf("gridlag %s comes to\n%s\ngridlag %s to\n%s", oldForm, got, now, want)
			}
			if cmd[0] == serveCommand.name {
				if err := startReadmeServer(t, old); err != nil {
					t.Fatalf("gridlag %s: %v", oldForm, err)
				}
			}
		})
	}
	if n < 25 {
		t.Errorf("testdata/old-readme-forms.txt has %d old forms; the README showed 25", n)
	}
}
