package sshd

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"gridlag/front/remote"
	"gridlag/lab/record"
	"gridlag/lab/replay"
	"gridlag/server/world"
)

// TestRecordOverSSH: a player with a key plays with the record command,
// walks and quits: the session ends saying how to fetch the recording;
// the recording command (no terminal) writes it, and it replays with the
// player's every State as recorded. Without a key, or to a terminal, the
// recording command says why not; without a recording, too.
func TestRecordOverSSH(t *testing.T) {
	g, addr := startGameWith(t, world.Config{Rate: world.DefaultRate})
	s := startSSH(t, Options{GameAddr: addr, Recordings: &remote.Recordings{Dir: t.TempDir(), Keep: 2}})
	key := newClientKey(t)
	c := dialSSH(t, s, "ada", key)

	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	sess.Stderr = &stderr
	if _, err := sess.Output(RecordingCommand); err == nil || !strings.Contains(stderr.String(), "no recording for your key yet") {
		t.Fatalf("fetched before recording: %v, %q", err, stderr.String())
	}

	tm := openTermRunning(t, c, "xterm-256color", 100, 40, RecordCommand)
	tm.waitText("you (10,10)", "server (10,10)")
	tm.send("\x1b[C")
	tm.waitText("you (11,10)", "server (11,10)")
	tm.send("\x1b[B")
	tm.waitText("you (11,11)", "server (11,11)")
	sent := g.Stats().StatesSent
	waitGame(t, g, "a few States more", func(st world.Stats) bool { return st.StatesSent >= sent+3 })
	tm.send("q")
	if status, _ := tm.waitExit(time.Now()); status != 0 {
		t.Fatalf("exit status %d", status)
	}
	said := tm.vt.Text()
	if !regexp.MustCompile(`recorded [0-9.]+s \([0-9]+ bytes\); fetch it with: ssh -p [0-9]+ 127\.0\.0\.1 recording > game\.rec`).MatchString(strings.ReplaceAll(said, "\n", "")) {
		t.Fatalf("the session ended saying:\n%s", said)
	}

	sess = newSession(t, c)
	data, err := sess.Output(RecordingCommand)
	if err != nil {
		t.Fatalf("recording: %v", err)
	}
	rec, err := record.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := replay.Play(rec, replay.Changes{})
	if err != nil || res.Mismatch != "" || res.Checked < 3 {
		t.Fatalf("the recording replays %d States: %q, %v", res.Checked, res.Mismatch, err)
	}
	moved := false
	for _, l := range res.Lines {
		moved = moved || l.Client == [2]int{11, 11}
	}
	if !moved {
		t.Fatalf("the walk is not in the replay: %+v", res.Lines)
	}

	other := dialSSH(t, s, "bob", newClientKey(t))
	sess, err = other.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	sess.Stderr = &stderr
	if out, err := sess.Output(RecordingCommand); err == nil || len(out) > 0 {
		t.Fatalf("another key fetched %d bytes of ada's recording", len(out))
	}
}
