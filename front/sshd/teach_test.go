package sshd

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// writeTeachers writes an authorized_keys file of keys, with a comment
// and an options' line, and returns its path.
func writeTeachers(t *testing.T, keys ...gossh.PublicKey) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# the teachers of this server\n\n")
	for i, k := range keys {
		if i == 0 {
			b.WriteString(`no-port-forwarding,from="127.0.0.1" `)
		}
		b.WriteString(strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k))) + " teacher" + strconv.Itoa(i) + "@school\n")
	}
	path := filepath.Join(t.TempDir(), "teachers")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startClass runs a game server and an SSH server in one process, as
// gridlag -server -ssh does, with the teachers of path.
func startClass(t *testing.T, path string) (*Server, *server.Server, string) {
	t.Helper()
	g, addr := startGameOpts(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 20}, PingInterval: time.Second}})
	teachers, err := LoadTeachers(path, admittest.Logger(t))
	if err != nil {
		t.Fatal(err)
	}
	s := startSSH(t, Options{GameAddr: addr, Dial: g.Dial, DialTeacher: g.DialTeacher, Teachers: teachers})
	return s, g, addr
}

// TestTeachersFile: the teachers' keys are read from an authorized_keys
// file, options and comments and all; a line that is no key is an error
// naming the file and the line; a changed file is read again at the next
// check, and one that became bad keeps the keys read before.
func TestTeachersFile(t *testing.T) {
	ada, bob := newClientKey(t).PublicKey(), newClientKey(t).PublicKey()
	path := writeTeachers(t, ada)
	teachers, err := LoadTeachers(path, admittest.Logger(t))
	if err != nil {
		t.Fatal(err)
	}
	if !teachers.Named(gossh.FingerprintSHA256(ada)) || teachers.Named(gossh.FingerprintSHA256(bob)) || teachers.Count() != 1 {
		t.Fatalf("ada named %v, bob %v, %d keys: want ada alone", teachers.Named(gossh.FingerprintSHA256(ada)), teachers.Named(gossh.FingerprintSHA256(bob)), teachers.Count())
	}
	bad := filepath.Join(t.TempDir(), "bad")
	os.WriteFile(bad, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHNvbWV0aGluZw== x\nnot a key\n"), 0o644)
	if _, err := LoadTeachers(bad, nil); err == nil || !strings.Contains(err.Error(), bad+", line 1") {
		t.Errorf("a bad file: %v, want an error naming it and its line", err)
	}
	if _, err := LoadTeachers(filepath.Join(t.TempDir(), "none"), nil); err == nil {
		t.Error("a missing file loaded")
	}
	shadow := filepath.Join(t.TempDir(), "shadow")
	os.WriteFile(shadow, []byte("# users\nroot:$6$hunter2:19700:0:99999:7:::\nroot aGVsbG8= hunter2\n"), 0o600)
	if _, err := LoadTeachers(shadow, nil); err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "root") ||
		!strings.Contains(err.Error(), shadow+", line 2: no public key, nor any before it") {
		t.Errorf("a file that is no authorized_keys: %v, want one saying so, quoting none of it", err)
	}

	// Changed: bob in place of ada (a later time, another size).
	next := writeTeachers(t, bob, bob)
	data, _ := os.ReadFile(next)
	os.WriteFile(path, data, 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	if !teachers.Named(gossh.FingerprintSHA256(bob)) || teachers.Named(gossh.FingerprintSHA256(ada)) {
		t.Error("the changed file was not read again")
	}
	os.WriteFile(path, []byte("garbage\n"), 0o644)
	os.Chtimes(path, later.Add(time.Minute), later.Add(time.Minute))
	if !teachers.Named(gossh.FingerprintSHA256(bob)) {
		t.Error("a file that became bad dropped the keys read before")
	}
}

// TestTeachOverSSH: a session of a named key that asks to teach gets the
// teacher's screen of its room; an unnamed key, or none, is refused,
// saying why, with status 1, and the room gets no teacher.
func TestTeachOverSSH(t *testing.T) {
	teacherKey := newClientKey(t)
	s, _, _ := startClass(t, writeTeachers(t, teacherKey.PublicKey()))
	for _, c := range []struct {
		who string
		key gossh.Signer
		why string
	}{
		{"an unnamed key", newClientKey(t), "is not one of this server's teachers"},
		{"no key", nil, "teaching needs the SSH key"},
	} {
		tm := openTermRunning(t, dialSSH(t, s, "mallory", c.key), "xterm-256color", 80, 24, "teach lecture")
		tm.waitText("teach refused", c.why)
		if status, _ := tm.waitExit(time.Now()); status != 1 {
			t.Errorf("%s: exit status %d, want 1", c.who, status)
		}
	}
	tm := openTermRunning(t, dialSSH(t, s, "hopper", teacherKey), "xterm-256color", 80, 24, "teach lecture")
	screen := tm.waitText("teaching", "room lecture", "Network", "latency [-]", "Class")
	t.Logf("the teacher's screen over SSH:\n%s", screen)
	tm.quitAtOnce()
}

// TestEndToEndTeacherOverOpenSSH is the case with the real
// OpenSSH client in real terminals (tmux): a teacher sets 300 ms for a
// room of two SSH students and one TCP student, with six presses of ];
// each student's round trip goes from under 300 ms to 300 ms and more,
// as their screens (and the TCP student's view, and the teacher's panel)
// say, and back under 300 ms once the teacher leaves. The wall clock
// keeps only lower bounds (a round trip of at least the teacher's 300 ms
// once set, which no busy machine shortens), waits for a round trip under
// it (the teacher's delay gone, however slowly a busy machine measures)
// and generous guards: that it is about 300 ms, and that it takes less
// than a second, is pinned on the virtual clock (sim's
// TestTeacherSetsTheRoundTripOfTheClass).
func TestEndToEndTeacherOverOpenSSH(t *testing.T) {
	c := startOpenSSHClass(t, "teach")
	key, gameAddr, socket, ssh, tail := c.key, c.gameAddr, c.socket, c.ssh, c.tail
	var students []*tmuxPane
	for i, name := range []string{"ada", "bob"} {
		p := startPane(t, socket, name, 80, 24, fmt.Sprintf("%s -b 127.0.4.%d -o PubkeyAuthentication=no -o PasswordAuthentication=no %s@127.0.0.1 room lecture%s", ssh, i+1, name, tail))
		p.waitFor("playing as "+name, "you (")
		students = append(students, p)
	}
	tcpStudent, err := tcp.Dial(context.Background(), gameAddr, tcp.Options{Options: client.Options{Name: "carol", Room: "lecture"}})
	if err != nil {
		t.Fatal(err)
	}
	defer tcpStudent.Close()
	teacher := startPane(t, socket, "teacher", 80, 24, ssh+" -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes hopper@127.0.0.1 teach lecture"+tail)
	teacher.waitFor("teaching", "Network", "ada", "bob", "carol")
	for _, p := range students {
		p.waitFor("teacher adds no lag")
	}
	if v := tcpStudent.View(); v.Teaching.Network() {
		t.Fatalf("carol's view has the teacher's network %+v before the teacher set anything", v.Teaching)
	}
	admittest.Eventually(t, func() bool { return tcpStudent.View().RTT < 300*time.Millisecond }, func() string {
		return fmt.Sprintf("carol's round trip is %v before the teacher set anything", tcpStudent.View().RTT)
	})

	set := time.Now()
	teacher.keys("]", "]", "]", "]", "]", "]")
	teacher.waitFor("300ms [+] 150ms each way")
	for _, p := range students {
		p.waitFor("+ teacher's 300ms round trip")
		admittest.Eventually(t, func() bool { return p.rtt(func(n int) bool { return n >= 290 }) }, func() string {
			return fmt.Sprintf("%s's screen never said a round trip of 300 ms or more:\n%s", p.name, p.capture())
		})
		t.Logf("%s's screen says a round trip of 300 ms or more %v after the teacher's first press", p.name, time.Since(set).Round(time.Millisecond))
	}
	admittest.Eventually(t, func() bool { return tcpStudent.View().RTT >= 290*time.Millisecond }, func() string {
		return fmt.Sprintf("the TCP student's round trip is %v, want 300 ms or more", tcpStudent.View().RTT)
	})
	if v := tcpStudent.View(); v.Teaching == nil || v.Teaching.Latency != 300*time.Millisecond {
		t.Errorf("the TCP student's view: teaching %+v, rtt %v; want the teacher's 300 ms", v.Teaching, v.RTT)
	}
	t.Logf("the TCP student measured %v, %v after the teacher's first press", tcpStudent.View().RTT, time.Since(set).Round(time.Millisecond))
	screen := teacher.waitFor("ada ", "bob ", "carol ")
	admittest.Eventually(t, func() bool {
		screen = teacher.capture()
		return teacherShowsAll(screen, []string{"ada", "bob", "carol"})
	}, func() string {
		return "the teacher's panel never showed every student at 300 ms or more:\n" + screen
	})
	t.Logf("the teacher's panel over OpenSSH at 80x24:\n%s", screen)
	teacher.keys("q")
	if screen := teacher.waitFor("EXIT="); !strings.Contains(screen, "EXIT=0") {
		t.Errorf("the teacher's ssh did not exit 0 after q:\n%s", screen)
	}
	// The last teacher gone, the students' network is theirs again: the
	// teacher's line leaves their panels, and their round trips fall under
	// the teacher's 300 ms.
	for _, p := range students {
		admittest.Eventually(t, func() bool {
			return !strings.Contains(p.capture(), "teacher's") && p.rtt(func(n int) bool { return n < 300 })
		}, func() string {
			return fmt.Sprintf("%s's screen still shows the teacher's network:\n%s", p.name, p.capture())
		})
	}
}

// openSSHClass is a class for the real OpenSSH client in tmux: a game
// server and its SSH front end, whose teachers are the key in key, a
// private tmux server, ssh's command line to the front end, and the
// tail of a pane's command (its status, then a wait to read it).
type openSSHClass struct {
	key, gameAddr, socket, ssh, tail string
}

// startOpenSSHClass starts a class (see startClass) for the test named
// name, or skips the test without tmux, ssh or ssh-keygen.
func startOpenSSHClass(t *testing.T, name string) openSSHClass {
	t.Helper()
	requireTools(t, "tmux", "ssh")
	key := writeClientKey(t)
	pub, err := exec.Command("ssh-keygen", "-y", "-f", key).Output()
	if err != nil {
		t.Skipf("needs ssh-keygen: %v", err)
	}
	teachers := filepath.Join(t.TempDir(), "teachers")
	os.WriteFile(teachers, pub, 0o600)
	s, _, gameAddr := startClass(t, teachers)
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	socket := fmt.Sprintf("gridlag-e2e-%s-%d", name, os.Getpid())
	t.Cleanup(func() { exec.Command("tmux", "-L", socket, "kill-server").Run() })
	return openSSHClass{
		key: key, gameAddr: gameAddr, socket: socket,
		ssh:  "ssh -F /dev/null -p " + port + " -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -t",
		tail: "; echo EXIT=$?; sleep 60",
	}
}

// rtt reports whether the pane shows a round trip on its status line, in
// ms, that ok accepts.
func (p *tmuxPane) rtt(ok func(ms int) bool) bool {
	m := regexp.MustCompile(`rtt (\d+)ms`).FindStringSubmatch(p.capture())
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(m[1])
	return ok(n)
}

// teacherShowsAll reports whether the teacher's screen lists each
// student with a round trip of 290 ms or more.
func teacherShowsAll(screen string, names []string) bool {
	for _, name := range names {
		re := regexp.MustCompile(regexp.QuoteMeta(name) + ` +(\d+)ms `)
		m := re.FindStringSubmatch(screen)
		if m == nil {
			return false
		}
		if n, _ := strconv.Atoi(m[1]); n < 290 {
			return false
		}
	}
	return true
}
