package sshd

import (
	"fmt"
	"strings"
	"testing"
)

// TestEndToEndProjectorOverOpenSSH: the real OpenSSH client in real
// terminals (tmux): a projector of room lecture at 160x45 (ssh ...
// spectate lecture) shows the round's clock and the scoreboard of the
// students, by their marks (stud2 2, stud3 3); the teacher (a named key,
// ssh ... teach lecture) presses f and the projector follows stud2,
// whose own screen says it is on the projector; stud2 sets a round trip
// of a second and presses RIGHT, and the projector shows its avatar a
// cell on and #1 → in its ledger, then the server's word.
func TestEndToEndProjectorOverOpenSSH(t *testing.T) {
	c := startOpenSSHClass(t, "projector")
	key, socket, ssh, tail := c.key, c.socket, c.ssh, c.tail
	nokey := " -o PubkeyAuthentication=no -o PasswordAuthentication=no "
	var students []*tmuxPane
	for i, name := range []string{"stud2", "stud3"} {
		p := startPane(t, socket, name, 80, 24, fmt.Sprintf("%s -b 127.0.5.%d%s%s@127.0.0.1 room lecture%s", ssh, i+1, nokey, name, tail))
		p.waitFor("▶ "+name, "you (")
		students = append(students, p)
	}
	proj := startPane(t, socket, "projector", 160, 45, fmt.Sprintf("%s -b 127.0.5.9%sprojector@127.0.0.1 spectate lecture%s", ssh, nokey, tail))
	proj.waitFor("room lecture", "2 stud2", "3 stud3")
	teacher := startPane(t, socket, "teacher", 120, 40, ssh+" -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes hopper@127.0.0.1 teach lecture"+tail)
	teacher.waitFor("teaching", "Class", "stud2", "stud3")
	screen := proj.waitFor("Round 1 ", " left", "teacher: no added lag")
	t.Logf("the projector over OpenSSH at 160x45:\n%s", screen)

	teacher.keys("f")
	teacher.waitFor("following stud2", "▸stud2")
	proj.waitFor("Following 2 stud2", "sees itself", "server said", "Pending inputs 0")
	students[0].waitFor("on the projector: you")

	for range 20 {
		students[0].keys("]")
	}
	students[0].waitFor("1000ms")
	proj.waitFor("lag 1000ms")
	students[0].keys("Right")
	screen = proj.waitFor("Pending inputs 1", "#1     →", "sees itself ▶")
	t.Logf("the projector following stud2 over OpenSSH, RIGHT pressed:\n%s", screen)
	proj.waitFor("Pending inputs 0")

	for _, p := range append(students, proj, teacher) {
		p.keys("q")
		if screen := p.waitFor("EXIT="); !strings.Contains(screen, "EXIT=0") {
			t.Errorf("%s's ssh did not exit 0 after q:\n%s", p.name, screen)
		}
	}
}
