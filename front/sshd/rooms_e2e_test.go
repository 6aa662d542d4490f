package sshd

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"gridlag/client/tcp"
)

// The real OpenSSH client in tmux: `ssh host room kitchen` plays in room
// kitchen; then `ssh host` (no command) finds a server with rooms and
// shows the lobby, which lists the default room and kitchen with its one
// player; Down and Enter join kitchen, where bob finds ada. `ssh host lobby`
// shows the lobby too, and n names a new room. A direct client of the
// default room sees none of them.
func TestEndToEndLobbyOverOpenSSH(t *testing.T) {
	requireTools(t, "tmux", "ssh")
	s := startGameSSH(t, Options{})
	o := observer(t, s.opts.GameAddr)
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	socket := fmt.Sprintf("gridlag-rooms-%d", os.Getpid())
	t.Cleanup(func() {
		exec.Command("tmux", "-L", socket, "kill-server").Run()
	})
	ssh := "ssh -F /dev/null -t -p " + port +
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PubkeyAuthentication=no -o PasswordAuthentication=no"
	tail := "; echo EXIT=$?; sleep 60"

	ada := startPane(t, socket, "ada", 100, 30, ssh+" ada@127.0.0.1 room kitchen"+tail)
	ada.waitFor("you (10,10)", "room kitchen")

	bob := startPane(t, socket, "bob", 100, 30, ssh+" bob@127.0.0.1"+tail)
	screen := bob.waitFor("— lobby", "(default)", "kitchen             1/32")
	t.Logf("the lobby over OpenSSH:\n%s", screen)
	bob.keys("Down", "Enter")
	bob.waitFor("room kitchen", "playing as bob", "a ada") // on bob's scoreboard: the same room

	cy := startPane(t, socket, "cy", 100, 30, ssh+" cy@127.0.0.1 lobby"+tail)
	cy.waitFor("— lobby", "kitchen             2/32")
	cy.keys("n")
	cy.waitFor("+ new room: _")
	cy.keys("attic", "Enter")
	cy.waitFor("room attic", "you (10,10)")

	list, err := tcp.ListRooms(context.Background(), s.opts.GameAddr)
	if err != nil {
		t.Fatal(err)
	}
	var rooms []string
	for _, r := range list.Rooms {
		rooms = append(rooms, fmt.Sprintf("%q:%d", r.Name, r.Players))
	}
	if got := strings.Join(rooms, " "); got != `"":1 "attic":1 "kitchen":2` {
		t.Errorf("rooms %s, want the observer alone in the default room, cy in attic, ada and bob in kitchen", got)
	}
	if others := o.View().Others; len(others) != 0 {
		t.Errorf("the default room's observer sees %+v", others)
	}
	for _, p := range []*tmuxPane{ada, bob, cy} {
		p.keys("q")
		p.waitFor("EXIT=0")
	}
}
