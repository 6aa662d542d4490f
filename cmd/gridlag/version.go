package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version is the program's version, printed by `gridlag version` and in
// the start line.
const version = "0.1.0"

// stamp is the commit the binary was built from, as `git describe
// --always --dirty` says it: `make build` sets it (-ldflags "-X
// main.stamp=..."); a plain `go build` leaves it empty.
var stamp string

// buildInfo is which build this is: the version, the stamp, and what Go
// wrote into the binary (runtime/debug.ReadBuildInfo).
type buildInfo struct {
	version  string
	stamp    string // make build's, "" without
	goVer    string // the Go that built it, e.g. go1.26.8
	platform string // GOOS/GOARCH
	revision string // the commit go build saw (vcs.revision), "" without
	time     string // its commit time (vcs.time)
	modified bool   // the tree had changes (vcs.modified)
}

// readBuild reads this binary's build.
func readBuild() buildInfo {
	b := buildInfo{version: version, stamp: stamp}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.goVer = info.GoVersion
	var goos, goarch string
	for _, s := range info.Settings {
		switch s.Key {
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		case "vcs.revision":
			b.revision = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	if goos != "" {
		b.platform = goos + "/" + goarch
	}
	return b
}

// commit names the commit: make build's stamp, else go build's revision
// (12 digits, "-dirty" if the tree had changes), else "unknown".
func (b buildInfo) commit() string {
	switch {
	case b.stamp != "":
		return b.stamp
	case b.revision != "":
		c := b.revision[:min(12, len(b.revision))]
		if b.modified {
			c += "-dirty"
		}
		return c
	}
	return "unknown"
}

// String is the version with its commit, e.g. 0.1.0+d97d394-dirty: what
// the start line says and `gridlag version` begins with.
func (b buildInfo) String() string { return b.version + "+" + b.commit() }

// print writes what `gridlag version` prints: the version, then the build's
// details, one per line.
func (b buildInfo) print(w io.Writer) error {
	fmt.Fprintf(w, "gridlag %s\n", b)
	fmt.Fprintf(w, "  go        %s %s\n", b.goVer, b.platform)
	if b.stamp != "" {
		fmt.Fprintf(w, "  git       %s (git describe, stamped by make build)\n", b.stamp)
	}
	if b.revision != "" {
		modified := ""
		if b.modified {
			modified = ", modified"
		}
		fmt.Fprintf(w, "  revision  %s (%s%s)\n", b.revision, b.time, modified)
	}
	if b.stamp == "" && b.revision == "" {
		fmt.Fprintln(w, "  commit    unknown: built without make build, outside a git checkout")
	}
	return nil
}
