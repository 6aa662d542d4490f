package main

import (
	"io"
	"strings"
	"testing"
)

// TestLabLagCompFlag: `gridlag lab` compensates lag unless -lagcomp=false
// says otherwise, and takes -unlag; the README's Part IV lab command is
// accepted.
func TestLabLagCompFlag(t *testing.T) {
	part4 := "-start2 12,10 -presses2 down@0ms -presses zap@150ms -latency 200ms -speed 1/10"
	for _, c := range []struct {
		args string
		want bool
	}{{"", true}, {"-lagcomp=false", false}, {"-lagcomp=false -unlag 0", false}, {"-unlag 200ms", true}, {part4, true}} {
		l, _, err := newLab(strings.Fields(c.args), io.Discard)
		if err != nil {
			t.Fatalf("gridlag lab %s: %v", c.args, err)
		}
		if l.LagComp() != c.want {
			t.Errorf("gridlag lab %s: lag compensation %v, want %v", c.args, l.LagComp(), c.want)
		}
	}
}
