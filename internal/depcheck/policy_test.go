package depcheck

import (
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A policy is an import policy parsed: for each package (and group) the
// packages it may import.
type policy struct {
	below    map[string]map[string]bool // name -> the packages it may import
	packages []string                   // the packages named, in the order of their rules
}

// isGroup reports whether name is a group's (capitals) rather than a
// package's.
func isGroup(name string) bool {
	return name == strings.ToUpper(name) && strings.ToLower(name) != name
}

// parsePolicy reads a policy in the notation of the policy in
// deps_test.go. A rule "a, b < c, d" gives c and d what a and b may
// import and a and b themselves (a group itself is no package); a chain
// "a < b < c" is two rules. Each name is on the right of one rule only,
// and on the left only after its own rule, so that the text reads from
// the bottom up and holds no cycle.
func parsePolicy(text string) (*policy, error) {
	p := &policy{below: map[string]map[string]bool{"NONE": {}}}
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		lines = append(lines, line)
	}
	for _, rule := range strings.Split(strings.Join(lines, "\n"), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		steps := strings.Split(rule, "<")
		if len(steps) < 2 {
			return nil, fmt.Errorf("rule %q has no <", strings.Join(strings.Fields(rule), " "))
		}
		var left []string
		for i, step := range steps {
			names, err := policyNames(step, rule)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				if err := p.define(names, left); err != nil {
					return nil, err
				}
			}
			left = names
		}
	}
	return p, nil
}

// policyNames splits one side of a rule into its names.
func policyNames(side, rule string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(side, ",") {
		n = strings.TrimSpace(n)
		if n == "" || strings.ContainsAny(n, " \t\n") {
			return nil, fmt.Errorf("rule %q: %q is not a name", strings.Join(strings.Fields(rule), " "), n)
		}
		names = append(names, n)
	}
	return names, nil
}

// define gives each of names what left may import and left itself.
func (p *policy) define(names, left []string) error {
	allowed := map[string]bool{}
	for _, l := range left {
		below, ok := p.below[l]
		if !ok {
			return fmt.Errorf("%s is on the left of a rule before its own rule (the policy reads from the bottom up)", l)
		}
		for b := range below {
			allowed[b] = true
		}
		if !isGroup(l) {
			allowed[l] = true
		}
	}
	for _, n := range names {
		if n == "NONE" {
			return fmt.Errorf("NONE is on the right of a rule: it is the empty group, below everything")
		}
		if _, ok := p.below[n]; ok {
			return fmt.Errorf("%s has two rules: each name is defined once, by what it may import", n)
		}
		p.below[n] = allowed
		if !isGroup(n) {
			p.packages = append(p.packages, n)
		}
	}
	return nil
}

// An imp is one import of another package of the module, where it is
// written.
type imp struct {
	Path string // the imported package, as the policy names it
	At   string // file:line, from the module's root
}

// check returns every way pkgs, each package's own imports by its name
// in the policy, break p: a package the policy does not name, a name it
// has that is no package, and each import of a package that is not below
// the importer, said upward (the imported may import the importer) or
// sideways (neither may import the other).
func (p *policy) check(pkgs map[string][]imp) []string {
	var bad []string
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		below, ok := p.below[name]
		if !ok || isGroup(name) {
			bad = append(bad, fmt.Sprintf("%s is in no rule of the policy: add it above what it imports", name))
			continue
		}
		for _, i := range pkgs[name] {
			if below[i.Path] {
				continue
			}
			how := "sideways: neither is below the other in the policy"
			if p.below[i.Path][name] {
				how = "upward: " + i.Path + " is above " + name + " in the policy"
			}
			bad = append(bad, fmt.Sprintf("%s: %s imports %s, %s", i.At, name, i.Path, how))
		}
	}
	for _, name := range p.packages {
		if _, ok := pkgs[name]; !ok {
			bad = append(bad, fmt.Sprintf("the policy names %s, which is not a package of the module", name))
		}
	}
	return bad
}

// moduleImports returns every package of the module that code can
// import, by its path within the module, with its own imports of the
// module's packages: its non-test files for every platform and build tag
// (go list's GoFiles, CgoFiles and the IgnoredGoFiles of the same
// package, so that poll_other.go counts on Linux), each import with its
// file and line. A folder of tests alone (this one) is no package anyone
// can import, and is left out. Tests may import what they need, as in Go's
// own policy: a client's test runs a real server.
func moduleImports(t *testing.T) map[string][]imp {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module, root, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
	out, err = exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Name}}\t{{.Dir}}\t{{join .GoFiles \" \"}} {{join .CgoFiles \" \"}}\t{{join .IgnoredGoFiles \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list %s/...: %v", module, err)
	}
	pkgs := map[string][]imp{}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("go list said %q", line)
		}
		path, name, dir, files, ignored := f[0], f[1], f[2], strings.Fields(f[3]), strings.Fields(f[4])
		if len(files) == 0 {
			continue
		}
		for _, file := range ignored {
			if !strings.HasSuffix(file, "_test.go") {
				files = append(files, file)
			}
		}
		rel := strings.TrimPrefix(path, module+"/")
		pkgs[rel] = []imp{}
		fset := token.NewFileSet()
		for _, file := range files {
			full := filepath.Join(dir, file)
			src, err := parser.ParseFile(fset, full, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			if src.Name.Name != name {
				continue // a generator beside the package (package main, //go:build ignore)
			}
			at, _ := filepath.Rel(root, full)
			for _, spec := range src.Imports {
				p, _ := strconv.Unquote(spec.Path.Value)
				if own, ok := strings.CutPrefix(p, module+"/"); ok {
					pkgs[rel] = append(pkgs[rel], imp{Path: own, At: fmt.Sprintf("%s:%d", at, fset.Position(spec.Pos()).Line)})
				}
			}
		}
	}
	return pkgs
}

// TestPolicyChecker: the checker fails an import upward or sideways, a
// package the policy does not name and a name that is no package, and
// passes what the policy allows, below and transitively; a policy out of
// order, or naming a package twice, is refused. So TestImportPolicy can
// fail.
func TestPolicyChecker(t *testing.T) {
	const small = `
# a comment; with a semicolon
NONE < base, side;
base < mid1, mid2;
mid1, side < top < TOP;
`
	at := func(path, file string) imp { return imp{Path: path, At: file} }
	ok := map[string][]imp{
		"base": {},
		"side": {},
		"mid1": {at("base", "mid1/a.go:3")},
		"mid2": {},
		"top":  {at("mid1", "top/a.go:3"), at("base", "top/a.go:4"), at("side", "top/b.go:5")},
	}
	p, err := parsePolicy(small)
	if err != nil {
		t.Fatal(err)
	}
	if bad := p.check(ok); len(bad) > 0 {
		t.Fatalf("a module that keeps the policy fails it: %q", bad)
	}
	with := func(change func(map[string][]imp)) map[string][]imp {
		m := map[string][]imp{}
		for k, v := range ok {
			m[k] = slices.Clone(v)
		}
		change(m)
		return m
	}
	cases := []struct {
		name string
		pkgs map[string][]imp
		want string
	}{
		{"upward", with(func(m map[string][]imp) { m["base"] = append(m["base"], at("mid1", "base/x.go:7")) }),
			"base/x.go:7: base imports mid1, upward: mid1 is above base in the policy"},
		{"upward past a layer", with(func(m map[string][]imp) { m["base"] = append(m["base"], at("top", "base/x.go:8")) }),
			"base/x.go:8: base imports top, upward: top is above base in the policy"},
		{"sideways", with(func(m map[string][]imp) { m["mid1"] = append(m["mid1"], at("mid2", "mid1/b.go:9")) }),
			"mid1/b.go:9: mid1 imports mid2, sideways: neither is below the other in the policy"},
		{"sideways, not below a group", with(func(m map[string][]imp) { m["mid2"] = append(m["mid2"], at("side", "mid2/c.go:4")) }),
			"mid2/c.go:4: mid2 imports side, sideways"},
		{"a package the policy does not name", with(func(m map[string][]imp) { m["extra"] = nil }),
			"extra is in no rule of the policy"},
		{"a group is no package", with(func(m map[string][]imp) { m["TOP"] = nil }),
			"TOP is in no rule of the policy"},
		{"a name that is no package", with(func(m map[string][]imp) { delete(m, "mid2") }),
			"the policy names mid2, which is not a package of the module"},
	}
	for _, c := range cases {
		bad := p.check(c.pkgs)
		if len(bad) != 1 || !strings.Contains(bad[0], c.want) {
			t.Errorf("%s: the checker says %q, want one line with %q", c.name, bad, c.want)
		}
	}

	for _, c := range []struct{ policy, want string }{
		{"base < top; NONE < base;", "base is on the left of a rule before its own rule"},
		{"NONE < a; a < b; b < a;", "a has two rules"},
		{"NONE < a; a < b, c < a;", "a has two rules"},
		{"NONE < a; a b < c;", "is not a name"},
		{"NONE < a; a, < c;", "is not a name"},
		{"NONE < a; a;", "has no <"},
		{"NONE < a; a < NONE;", "NONE is on the right"},
	} {
		if _, err := parsePolicy(c.policy); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parsePolicy(%q) = %v, want an error with %q", c.policy, err, c.want)
		}
	}
}

// TestPolicyCatchesUpwardImports: the real policy refuses imports that
// would break the architecture, each named with its file: the rules
// importing the wire, a core importing its adapter, the screens importing
// the server, a front end importing the lab's simulator.
func TestPolicyCatchesUpwardImports(t *testing.T) {
	p, err := parsePolicy(importPolicy)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"grid", "protocol", "upward"},
		{"client", "client/tcp", "upward"},
		{"server/world", "server/hub", "upward"},
		{"tui", "server", "sideways"},
		{"protocol", "internal/link", "sideways"},
		{"front/sshd", "front/web", "sideways"},
		{"front/web", "lab/sim", "sideways"},
		{"internal/link", "server/admit/admittest", "sideways"},
		{"server", "cmd/gridlag", "upward"},
	} {
		pkgs := map[string][]imp{}
		for _, name := range p.packages {
			pkgs[name] = nil
		}
		pkgs[c.from] = []imp{{Path: c.to, At: c.from + "/x.go:1"}}
		bad := p.check(pkgs)
		want := fmt.Sprintf("%s/x.go:1: %s imports %s, %s", c.from, c.from, c.to, c.want)
		if len(bad) != 1 || !strings.HasPrefix(bad[0], want) {
			t.Errorf("%s importing %s: the checker says %q, want %q", c.from, c.to, bad, want)
		}
	}
}
