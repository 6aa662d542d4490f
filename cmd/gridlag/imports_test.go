package main

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeImportTable holds the README's table of what each package
// imports to what the code imports, so that the picture a newcomer reads
// stays true: a new package, or a new import between packages, fails here
// until the README says so.
func TestReadmeImportTable(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "gridlag/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	actual := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, "gridlag/")
		var own []string
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "gridlag/") {
				own = append(own, strings.TrimPrefix(imp, "gridlag/"))
			}
		}
		slices.Sort(own)
		actual[pkg] = own
	}

	f, err := os.Open(path.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `([a-z/]+)` \\| (.*) \\|$")
	name := regexp.MustCompile("`([a-z/]+)`")
	documented := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if _, ok := actual[m[1]]; !ok && !strings.Contains(m[2], "`") && m[2] != "nothing" {
			continue // a row of another table
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
			t.Errorf("README's import table has no row for %s (it imports %v)", pkg, imps)
			continue
		}
		if !slices.Equal(doc, imps) {
			t.Errorf("README says %s imports %v; it imports %v", pkg, doc, imps)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("README's import table has a row for %s, which is not a package", pkg)
		}
	}
}

// corePackages are the sans-I/O cores: state machines fed with messages
// and an explicit now, which their adapters drive. The compiler keeps
// them apart; TestCoresDoNoIO keeps them free of I/O.
var corePackages = []string{"client", "link"}

// TestCoresDoNoIO fails if a core package imports the network, the
// operating system or locks (net, os, sync and the packages below them),
// or reads or waits on the clock (time.Now, time.Since, a timer...): a
// core is driven on any clock, real or virtual, and never blocks.
func TestCoresDoNoIO(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	forbidden := func(imp string) bool {
		for _, io := range []string{"net", "os", "sync", "syscall"} {
			if imp == io || strings.HasPrefix(imp, io+"/") {
				return true
			}
		}
		return false
	}
	clock := map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
		"AfterFunc": true, "NewTimer": true, "NewTicker": true, "Tick": true}
	for _, pkg := range corePackages {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}\n{{join .Imports \" \"}}\n{{join .GoFiles \" \"}}", "gridlag/"+pkg).Output()
		if err != nil {
			t.Errorf("go list %s: %v", pkg, err)
			continue
		}
		lines := strings.Split(string(out), "\n")
		dir, imports, files := lines[0], strings.Fields(lines[1]), strings.Fields(lines[2])
		for _, imp := range imports {
			if forbidden(imp) {
				t.Errorf("core package %s imports %s", pkg, imp)
			}
		}
		fset := token.NewFileSet()
		for _, name := range files {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			timeName := ""
			for _, imp := range f.Imports {
				if imp.Path.Value == `"time"` {
					timeName = "time"
					if imp.Name != nil {
						timeName = imp.Name.Name
					}
				}
			}
			if timeName == "" {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == timeName && clock[sel.Sel.Name] {
					t.Errorf("core package %s reads the clock: time.%s at %v", pkg, sel.Sel.Name, fset.Position(sel.Pos()))
				}
				return true
			})
		}
	}
}
