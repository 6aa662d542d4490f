package doctest

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// readmeLines is the most lines the README may have: a newcomer reads
// it in five minutes, and docs/ holds the rest.
const readmeLines = 250

// TestReadmeIsShort: the README is at most readmeLines lines.
func TestReadmeIsShort(t *testing.T) {
	readme := Pages(t)[0]
	if n := len(readme.Lines()); n > readmeLines {
		t.Errorf("README.md has %d lines; at most %d (move the rest into a page of docs/)", n, readmeLines)
	}
}

// TestLinksResolve: every relative link of README.md and docs/*.md
// points at a file or folder of the repository, and its #anchor, if it
// has one, at a heading of that page (as GitHub makes anchors).
func TestLinksResolve(t *testing.T) {
	root := Root(t)
	pages := Pages(t)
	anchors := map[string]map[string]bool{}
	for _, p := range pages {
		anchors[p.Path] = headingAnchors(p)
	}
	n := 0
	for _, p := range pages {
		for _, l := range links(p) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			n++
			file, anchor, _ := strings.Cut(l.target, "#")
			target := p.Path
			if file != "" {
				target = path.Clean(path.Join(path.Dir(p.Path), file))
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s:%d: the link %q points at %s, which is not there", p.Path, l.line, l.target, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			a, ok := anchors[target]
			if !ok {
				t.Errorf("%s:%d: the link %q has an anchor in %s, which is not a page of the documentation", p.Path, l.line, l.target, target)
				continue
			}
			if !a[anchor] {
				t.Errorf("%s:%d: the link %q: %s has no heading #%s", p.Path, l.line, l.target, target, anchor)
			}
		}
	}
	if n < 20 {
		t.Errorf("found only %d relative links", n)
	}
}

// TestEveryPageIsIndexed: docs/README.md links every page of docs/, and
// the README links docs/README.md.
func TestEveryPageIsIndexed(t *testing.T) {
	pages := Pages(t)
	linked := func(from Page) map[string]bool {
		to := map[string]bool{}
		for _, l := range links(from) {
			file, _, _ := strings.Cut(l.target, "#")
			to[path.Clean(path.Join(path.Dir(from.Path), file))] = true
		}
		return to
	}
	if !linked(pages[0])["docs/README.md"] {
		t.Error("README.md does not link docs/README.md, the index of the pages")
	}
	var index Page
	for _, p := range pages {
		if p.Path == "docs/README.md" {
			index = p
		}
	}
	if index.Path == "" {
		t.Fatal("docs/README.md is missing: the index of the pages")
	}
	in := linked(index)
	for _, p := range pages[1:] {
		if p.Path != index.Path && !in[p.Path] {
			t.Errorf("docs/README.md does not list %s", p.Path)
		}
	}
}

// link is a link of a page: its target and its line.
type link struct {
	target string
	line   int
}

var linkPattern = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// links returns a page's links, outside code blocks and code spans.
func links(p Page) []link {
	var out []link
	fence := false
	span := regexp.MustCompile("`[^`]*`")
	for i, line := range p.Lines() {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range linkPattern.FindAllStringSubmatch(span.ReplaceAllString(line, ""), -1) {
			out = append(out, link{target: m[1], line: i + 1})
		}
	}
	return out
}

// headingAnchors returns the anchors of a page's headings as GitHub makes
// them: the heading's text lower-cased, its punctuation dropped, its
// spaces made hyphens, "-1", "-2" after a repeated one.
func headingAnchors(p Page) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, line := range p.Lines() {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			anchors[a+"-"+strconv.Itoa(k)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestHeadingAnchors: anchors as GitHub makes them.
func TestHeadingAnchors(t *testing.T) {
	p := Page{Path: "x.md", Text: "# Rooms and names\n## `gridlag lab`\n### The teachers' keys\n```\n# not a heading\n```\n" +
		"### Zap tag and lag compensation (Part IV, \"Headshot!\")\n## Notes\n## Notes\n"}
	got := headingAnchors(p)
	for _, want := range []string{"rooms-and-names", "gridlag-lab", "the-teachers-keys", "zap-tag-and-lag-compensation-part-iv-headshot", "notes", "notes-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line of a code block made an anchor")
	}
}
