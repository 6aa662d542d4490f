package main

import (
	"bufio"
	"os"
	"os/exec"
	"path"
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
