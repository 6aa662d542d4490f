package main

import (
	"fmt"
	"testing"
)

// TestLobbyInTmux runs a real server and two real terminal clients: ada
// plays in room kitchen (-room); bob names no room, so, the server having
// rooms besides its default one, he gets the lobby, which lists kitchen
// with ada; Down and Enter put him in kitchen with her.
func TestLobbyInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	addr := freeAddr(t)
	startServerBinary(t, bin, addr)
	client := func(args string) *tmux {
		return newTmux(t, 120, 40, fmt.Sprintf("XDG_STATE_HOME=%s %s -connect %s %s; echo EXIT=$?; sleep 60", t.TempDir(), bin, addr, args))
	}
	ada := client("-name ada -room kitchen")
	ada.waitFor("room kitchen", "you (10,10)")
	bob := client("-name bob")
	bob.waitFor("— lobby", "(default)", "kitchen             1/32")
	bob.keys("Down", "Enter")
	bob.waitFor("room kitchen", "playing as bob", "a ada")
	for _, tm := range []*tmux{ada, bob} {
		tm.keys("q")
		tm.waitFor("EXIT=0")
	}
}
