package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadmeZapTimelines: the README's Part IV timelines, and the one of
// a zap after a respawn, are what `gridlag scenario` prints for the
// commands they show.
func TestReadmeZapTimelines(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"-latency 200ms -presses zap@150ms -presses2 down@0ms\n",
		"-latency 200ms -presses zap@150ms -presses2 down@0ms -lagcomp=false\n",
		"-latency 200ms -presses zap@0ms,zap@2100ms -start2 12,10 -presses2 zap@5000ms\n",
	} {
		_, rest, ok := strings.Cut(string(readme), "$ bin/gridlag scenario "+cmd)
		want, _, closed := strings.Cut(rest, "```")
		if !ok || !closed {
			t.Fatalf("the README shows no timeline of `gridlag scenario %s`", strings.TrimSpace(cmd))
		}
		var out bytes.Buffer
		if err := scenarioMain(strings.Fields(cmd), &out); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("gridlag scenario %s prints\n%s\nthe README shows\n%s", strings.TrimSpace(cmd), out.String(), want)
		}
	}
}
