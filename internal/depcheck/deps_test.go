// Package depcheck holds gridlag's code to its architecture, in tests
// alone: the import policy (importPolicy, each layer importing only
// layers below it), the cores' freedom from I/O, the documentation's
// import table and the wire's byte layouts kept to package protocol.
package depcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gridlag/internal/doctest"
)

// importPolicy is which gridlag package may import which, from the
// bottom up, in the notation of Go's own go/build/deps_test.go:
//
//	a, b < c, d;
//
// says that c and d may import a and b, and whatever a and b may import.
// Packages on the right of one rule may not import each other (nothing
// sideways): an import between them needs one rule below the other. Each
// package is on the right of exactly one rule, and on the left only after
// it, so the text reads from the bottom up and can hold no cycle. "a < b
// < c;" is two rules. A name in capitals is a group, no package: it
// stands for what it may import. NONE is the empty group; # starts a
// comment. Paths are within the module (grid is gridlag/grid).
//
// TestImportPolicy holds every package's own code to it (its tests may
// import what they need: a client's test runs a real server) and fails,
// naming the file and the import, on an import upward or sideways, a
// package the policy does not name, or a name here that is no package. A
// new package is one more rule, above what it imports.
const importPolicy = `
# The rules of the game, and small pieces that import no other package
# of gridlag: the injected link, a log that summarises repeats, the
# command line's kit (flags that check their values), with which every
# package registers its own flags, the wake-up that never blocks, the
# counters of what a connection carries (the wire's cost of a move), the
# perception test's design and analysis.
NONE < grid, internal/link, internal/ratelog, internal/cli, internal/notify, internal/wire, internal/perception;

# The wire: the only byte layouts. How often something may happen (the
# game's speed limit on durations, by address) and how much of a pool
# one address may hold.
grid < protocol, internal/limit;

# The perception test's answers in files (the I/O its core-shared
# analysis does not do).
internal/perception < internal/perception/answers;

# Players' names compared by their look (Unicode's confusables, x/text),
# apart from the wire.
protocol < internal/names;

# The cores: state machines fed messages and a time (TestCoresDoNoIO).
protocol, internal/link, internal/cli, internal/perception < client;
protocol, internal/cli, internal/names < server/world;
server/world, internal/link, internal/limit, internal/perception < server/hub;

# Around a player's core: its TCP adapter, the screens, its recordings;
# bots on the TCP client.
client, internal/notify, internal/names, internal/wire < client/tcp, tui, lab/record;
client/tcp < client/bot;

# The server: its door (every front end's), then the TCP adapter around
# the hub.
internal/ratelog, internal/limit < server/admit;
server/hub, server/admit, internal/notify, internal/perception/answers < server;

# The lab: both ends' real cores on a virtual clock, timelines on it,
# the lab's model, replays.
client, server/hub, internal/notify < lab/sim < lab/scenario;
lab/scenario, tui, internal/perception/answers < lab;
lab, lab/record < lab/replay;

# The front ends: the mode a player asked for, a session on a remote
# terminal, then SSH and the browser, side by side.
client/tcp, tui < front;
front, lab/record, server/admit, internal/limit < front/remote;
front/remote < front/sshd, front/web;

# What an operator runs beside the game.
internal/cli, internal/notify < ops/agones;
protocol, internal/cli < ops/loadgen;
server < ops/metrics;

# The host: a server's services as one group, bound first, stopped in
# one place; what a move costs the wire, measured on such servers.
front/sshd, front/web, client/bot, ops/agones, ops/metrics < ops/host, ops/wirecost;

# The scale lab: a host and bots in steps, its figures the server's own.
ops/host, ops/loadgen, tui < ops/scale;

# The command: flags and a call into the packages.
ops/scale, ops/wirecost, lab/replay < cmd/gridlag;

# Test support, imported by tests alone: nothing but the runner of the
# real Agones SDK server and the front ends' kit (a real game server, a
# session that will not end), test support itself, sits above them.
NONE < internal/netcut, internal/doctest, server/admit/admittest;
internal/notify < internal/vt;
protocol < server/world/worldtest;
server/admit/admittest < ops/agones/sdktest;
front/remote, server, server/admit/admittest < front/remote/remotetest;
`

// TestImportPolicy: every package of the module, and each of its own
// imports of another, keeps importPolicy.
func TestImportPolicy(t *testing.T) {
	p, err := parsePolicy(importPolicy)
	if err != nil {
		t.Fatalf("importPolicy: %v", err)
	}
	for _, bad := range p.check(moduleImports(t)) {
		t.Error(bad)
	}
}

// cores are the sans-I/O packages: state machines fed with messages and
// an explicit now, which their adapters drive, messages (and notes) out.
// The compiler keeps them apart from their adapters; TestCoresDoNoIO
// holds each, and every gridlag package it imports, free of I/O. A new
// core is one more line here.
var cores = []string{
	"grid",
	"protocol",
	"internal/link",
	"client",
	"server/world",
	"server/hub",
}

// coreForbidden are the imports a core must not have, with the packages
// below them: sockets, files and processes, goroutines' locks.
var coreForbidden = []string{"net", "os", "sync", "syscall"}

// forbiddenInCore reports whether a core must not import imp: one of
// coreForbidden or a package below one (net/http, os/exec, sync/atomic).
func forbiddenInCore(imp string) bool {
	for _, f := range coreForbidden {
		if imp == f || strings.HasPrefix(imp, f+"/") {
			return true
		}
	}
	return false
}

// coreClock are the functions of package time that read the wall clock
// or wait on it; a core is given its time. time.Duration and the other
// types and constants are fine.
var coreClock = []string{"Now", "Since", "Until", "Sleep", "NewTimer", "NewTicker", "After", "AfterFunc", "Tick"}

// TestCoresDoNoIO: no core (see cores), nor any gridlag package it
// imports, imports the network, the operating system or locks (net, os,
// sync, syscall and the packages below them), or reads or waits on the
// clock: a core is driven on any clock, real or virtual, and never
// blocks. go list -deps gives the packages, each one's own imports are
// checked, and its non-test sources are parsed for uses of coreClock.
// (The standard library's own packages, fmt among them, are not held to
// it.)
func TestCoresDoNoIO(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	for _, core := range cores {
		args := []string{"list", "-deps", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .Imports \" \"}}\t{{join .GoFiles \" \"}}", "gridlag/" + core}
		out, err := exec.Command("go", args...).Output()
		if err != nil {
			t.Fatalf("go list -deps gridlag/%s: %v", core, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line, "\t")
			pkg, dir, imports, files := f[0], f[1], strings.Fields(f[2]), strings.Fields(f[3])
			if !strings.HasPrefix(pkg, "gridlag/") {
				continue
			}
			for _, imp := range imports {
				if forbiddenInCore(imp) {
					t.Errorf("%s imports %s: a core (%s) does no I/O and starts no goroutine", pkg, imp, core)
				}
			}
			for _, name := range files {
				for _, call := range clockCalls(t, filepath.Join(dir, name)) {
					t.Errorf("%s: %s reads the clock: a core (%s) is given its time", call, pkg, core)
				}
			}
		}
	}
}

// clockCalls returns where the Go file at path uses a function of
// coreClock ("file:line: time.Now").
func clockCalls(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
			local = "time"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var calls []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && slices.Contains(coreClock, sel.Sel.Name) {
			calls = append(calls, fset.Position(sel.Pos()).String()+": time."+sel.Sel.Name)
		}
		return true
	})
	return calls
}

// importTableHead is the head of the documentation's table of what each
// package imports (docs/architecture.md).
const importTableHead = "| package | imports (within gridlag) |"

// TestReadmeImportTable holds the documentation's table of what each
// package imports (importTableHead, in docs/architecture.md) to what the
// code imports, so that the picture a newcomer reads stays true: a new
// package, or a new import between packages, fails here until the table
// says so. The table is thus one that importPolicy allows, since the
// code is (TestImportPolicy).
func TestReadmeImportTable(t *testing.T) {
	actual := map[string][]string{}
	for pkg, imps := range moduleImports(t) {
		own := []string{}
		for _, i := range imps {
			own = append(own, i.Path)
		}
		slices.Sort(own)
		actual[pkg] = slices.Compact(own)
	}

	page, at := doctest.Containing(t, "\n"+importTableHead+"\n")
	row := regexp.MustCompile("^\\| `([a-z/]+)` \\| (.*) \\|$")
	name := regexp.MustCompile("`([a-z/]+)`")
	documented := map[string][]string{}
	for _, line := range strings.Split(page.Text[at+1:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break // the table's end
		}
		m := row.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s: the import table has a row %q, not | `package` | imports |", page.Path, line)
		}
		// "(never `server`)" names what is NOT imported.
		cell, _, _ := strings.Cut(m[2], "(never")
		var imps []string
		for _, n := range name.FindAllStringSubmatch(cell, -1) {
			imps = append(imps, n[1])
		}
		slices.Sort(imps)
		documented[m[1]] = imps
	}
	for pkg, imps := range actual {
		doc, ok := documented[pkg]
		if !ok {
			t.Errorf("%s: the import table has no row for %s (it imports %v)", page.Path, pkg, imps)
			continue
		}
		if !slices.Equal(doc, imps) {
			t.Errorf("%s says %s imports %v; it imports %v", page.Path, pkg, doc, imps)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("%s: the import table has a row for %s, which is not a package", page.Path, pkg)
		}
	}
}

// TestWireLayoutOnlyInProtocol: the game's byte layouts are protocol's
// alone: no other package reads or writes a big-endian field (a frame's
// length read outside protocol once let a reader disagree with the
// Decoder). record's file, a format of its own with a checksum, is the
// one exception.
func TestWireLayoutOnlyInProtocol(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == "protocol" || rel == filepath.Join("lab", "record") || d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "binary.BigEndian") {
			t.Errorf("%s reads or writes a big-endian field: the wire's layout belongs to protocol", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
