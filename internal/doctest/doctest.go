// Package doctest is test support: gridlag's documentation, README.md
// and the pages of docs/, read for the tests that hold it to the code. A
// test that checks what the documentation says (a command it shows, a
// figure it quotes, a table it keeps) finds the text on whichever page
// holds it, so that text can move between pages without the test losing
// its assertion.
package doctest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Page is one page of the documentation.
type Page struct {
	// Path is the page's path from the module's root, with slashes:
	// "README.md", "docs/lab.md".
	Path string
	Text string
}

// Lines returns the page's lines (the last one, after the final newline,
// left out).
func (p Page) Lines() []string {
	return strings.Split(strings.TrimSuffix(p.Text, "\n"), "\n")
}

// Root returns the module's root: the nearest directory, from the test's
// working directory up, that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}

// Pages returns the documentation: README.md, then every docs/*.md in
// the order of their names.
func Pages(t testing.TB) []Page {
	t.Helper()
	root := Root(t)
	paths, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	paths = append([]string{filepath.Join(root, "README.md")}, paths...)
	var pages []Page
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		pages = append(pages, Page{Path: filepath.ToSlash(rel), Text: string(b)})
	}
	return pages
}

// Flat returns text with every run of white space made one space: a
// sentence as it reads, wherever its lines were wrapped.
func Flat(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// Says reports whether some page says s, however either is wrapped.
func Says(t testing.TB, s string) bool {
	t.Helper()
	s = Flat(s)
	for _, p := range Pages(t) {
		if strings.Contains(Flat(p.Text), s) {
			return true
		}
	}
	return false
}

// Containing returns the first page whose text holds s as it is written,
// and where s starts in it; the test fails if no page does.
func Containing(t testing.TB, s string) (Page, int) {
	t.Helper()
	for _, p := range Pages(t) {
		if i := strings.Index(p.Text, s); i >= 0 {
			return p, i
		}
	}
	t.Fatalf("no page of the documentation (README.md, docs/*.md) holds %q", s)
	return Page{}, 0
}

// Section returns the text under the heading written as heading ("###
// `gridlag lab`"), up to the next heading of its level or above, from
// the first page that has it; the test fails if none does.
func Section(t testing.TB, heading string) (Page, string) {
	t.Helper()
	p, i := Containing(t, "\n"+heading+"\n")
	rest := p.Text[i+len(heading)+2:]
	level := strings.Index(heading, " ")
	end := regexp.MustCompile(`(?m)^#{1,` + string(rune('0'+level)) + `} `)
	fence := false
	off := 0
	for _, line := range strings.SplitAfter(rest, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if !fence && end.MatchString(line) {
			return p, rest[:off]
		}
		off += len(line)
	}
	return p, rest
}
