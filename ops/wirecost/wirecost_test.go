package wirecost

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gridlag/internal/wire"
)

// netnsEnv marks the test's own process in a network namespace of its
// own (see TestWireCostAgreesWithThePacketCount).
const netnsEnv = "GRIDLAG_WIRECOST_NETNS"

// TestWireCostAgreesWithThePacketCount runs the measurement in a network
// namespace of its own, where nothing else uses loopback, and compares
// what the counters say went on the wire (payload plus a header per
// segment, the figures the wire overlay shows) with the kernel's own
// count of the IP packets sent and their bytes (/proc/net/snmp's
// OutRequests, /proc/net/netstat's OutOctets), window by window, for
// TCP, SSH and the web: within 10 %. On loopback every packet is sent
// once and received once, so the sent count is all of it; its MTU is
// 64 KiB, more than any write of the game's, so a segment is a packet
// (no segmentation offload splits one).
func TestWireCostAgreesWithThePacketCount(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel's counters (TCP_INFO, /proc/net) are Linux's")
	}
	if os.Getenv(netnsEnv) == "" {
		reexecInNetns(t)
		return
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		t.Fatalf("bringing loopback up in the namespace: %v: %s", err, out)
	}
	res, err := Run(context.Background(), Options{Moves: 10, Idle: 1500e6, Walk: 1500e6, Probe: procProbe})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 {
		t.Fatalf("%d front ends measured; want 3", len(res))
	}
	for _, r := range res {
		t.Log("\n" + strings.Join(r.Lines(), "\n"))
		for _, w := range []struct {
			name string
			w    Window
		}{{"idle", r.Idle}, {"moves", r.Moves}, {"walk", r.Walk}} {
			tcp := w.w.Wire.TCP
			if !tcp.OK() {
				t.Fatalf("%s %s: no kernel counters: %s", r.Front, w.name, tcp.Why)
			}
			wireBytes, segs := tcp.Wire().Bytes(), tcp.UpOps+tcp.DownOps
			t.Logf("%s %s: counted %d B in %d segments; the kernel sent %d B in %d packets", r.Front, w.name,
				wireBytes, segs, w.w.Probe.Octets, w.w.Probe.Packets)
			within(t, r.Front+" "+w.name+" bytes", wireBytes, w.w.Probe.Octets)
			within(t, r.Front+" "+w.name+" segments", segs, w.w.Probe.Packets)
			if w.name == "moves" && w.w.Moves != 10 {
				t.Errorf("%s: %d moves acknowledged in the window of moves; want 10", r.Front, w.w.Moves)
			}
		}
		// Per move, as the overlay shows it: what the wire carried in
		// the window of moves over the moves.
		perMove := float64(r.Moves.Wire.TCP.Wire().Bytes()) / float64(r.Moves.Moves)
		perMoveKernel := float64(r.Moves.Probe.Octets) / float64(r.Moves.Moves)
		t.Logf("%s: %.0f B a move counted, %.0f B a move in the kernel's count", r.Front, perMove, perMoveKernel)
		// Each layer adds to the one it carries. One move less the idle
		// rate says it when the idle traffic held steady; on a busy
		// machine it may vary by more than a move costs, and the report
		// says so, so the window of moves whole says it then.
		one := r.OneMove()
		noisy := one.Game.Up <= 0 || one.TCP.Wire().Up <= 0
		if r.Front != wire.FrontTCP {
			noisy = noisy || one.Conn.Down <= 0 || one.Term.Down <= 0
		}
		if noisy {
			t.Logf("%s: the idle traffic varied by more than a move costs (one move: game up %d, wire up %d); the window of moves whole instead", r.Front, one.Game.Up, one.TCP.Wire().Up)
			one = r.Moves.Wire
		}
		if one.Game.Up <= 0 || one.TCP.Wire().Up <= one.Game.Up {
			t.Errorf("%s: the moves' game bytes up %d, on the wire %d: the wire must carry more than the game", r.Front, one.Game.Up, one.TCP.Wire().Up)
		}
		if r.Front != wire.FrontTCP && one.Conn.Down <= one.Term.Down {
			t.Errorf("%s: the moves' %d B on the connection carry %d B of terminal: the framing must add", r.Front, one.Conn.Down, one.Term.Down)
		}
	}
}

// within fails the test unless got is within 10 % of the kernel's want.
func within(t *testing.T, what string, got, want int64) {
	t.Helper()
	if want <= 0 {
		t.Errorf("%s: the kernel counted nothing", what)
		return
	}
	if d := float64(got-want) / float64(want); d > 0.10 || d < -0.10 {
		t.Errorf("%s: counted %d, the kernel %d: %.1f %% apart (at most 10 %%)", what, got, want, 100*d)
	}
}

// reexecInNetns runs this test again in a network namespace of its own
// (unshare -n, or -rn as a user), where the kernel's counts are the
// test's alone.
func reexecInNetns(t *testing.T) {
	args := []string{"-n"}
	if os.Geteuid() != 0 {
		args = []string{"-rn"}
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare: the packet count needs a network namespace of the test's own")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip command: cannot bring loopback up in a network namespace")
	}
	if err := exec.Command("unshare", append(args, "true")...).Run(); err != nil {
		t.Skipf("cannot make a network namespace (unshare %s): %v", strings.Join(args, " "), err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args = append(args, "--", self, "-test.run", "^"+t.Name()+"$", "-test.v")
	cmd := exec.Command("unshare", args...)
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("in a network namespace of its own:\n%s", out)
	if err != nil {
		t.Fatalf("the test in its network namespace failed: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatal("the test in its network namespace did not pass")
	}
}

// procProbe reads the kernel's count of the IP packets sent and their
// bytes, headers included: Ip OutRequests in /proc/net/snmp, IpExt
// OutOctets in /proc/net/netstat.
func procProbe() (Probe, error) {
	pk, err := procField("/proc/net/snmp", "Ip", "OutRequests")
	if err != nil {
		return Probe{}, err
	}
	oc, err := procField("/proc/net/netstat", "IpExt", "OutOctets")
	if err != nil {
		return Probe{}, err
	}
	return Probe{Packets: pk, Octets: oc}, nil
}

// procField reads one counter of a /proc/net table: a line of names
// after "prefix:", then a line of values.
func procField(path, prefix, name string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var names []string
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] != prefix+":" {
			continue
		}
		if names == nil {
			names = fields[1:]
			continue
		}
		for i, n := range names {
			if n == name && i+1 < len(fields) {
				return strconv.ParseInt(fields[i+1], 10, 64)
			}
		}
		return 0, fmt.Errorf("%s: no %s %s", path, prefix, name)
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New(path + ": no " + prefix)
}

// TestOpenSSHChaff plays the real OpenSSH client (ssh on PATH, or
// $GRIDLAG_TEST_SSH) in a terminal of its own against the SSH front end:
// its moves reach the game; and, for OpenSSH 9.5 and later, as it comes
// it sends keystroke-timing chaff (the server advertises
// ping@openssh.com and answers each ping), so its walk carries well more
// on the SSH connection, and more packets, than with
// -o ObscureKeystrokeTiming=no.
func TestOpenSSHChaff(t *testing.T) {
	path := os.Getenv("GRIDLAG_TEST_SSH")
	if path == "" {
		path = "ssh"
	}
	c, err := FindOpenSSH(context.Background(), path)
	if err != nil {
		t.Skipf("no OpenSSH client: %v", err)
	}
	res, err := Run(context.Background(), Options{OpenSSH: c, Fronts: fronts(c), Moves: 5, Idle: 1e9, Walk: 2e9})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		t.Log("\n" + strings.Join(r.Lines(), "\n"))
		if r.Moves.Moves != 5 {
			t.Errorf("%s: %d moves acknowledged in the window of moves; want 5", r.Title, r.Moves.Moves)
		}
	}
	if !c.Chaffs() {
		t.Skipf("%s sends no chaff (OpenSSH 9.5 and later do): its moves played; set GRIDLAG_TEST_SSH to a newer ssh to see the chaff", c.Version)
	}
	t.Log("\n" + strings.Join(ChaffLines(res), "\n"))
	ch := CompareChaff(res[0], res[1])
	if ch.On.ConnUp < 1.5*ch.Off.ConnUp {
		t.Errorf("with chaff the client sent %.0f B/s on the SSH connection, without %.0f B/s: the chaff must show", ch.On.ConnUp, ch.Off.ConnUp)
	}
	if ch.On.ConnDown <= ch.Off.ConnDown || ch.On.Packets <= ch.Off.Packets {
		t.Errorf("with chaff %.0f B/s down and %.0f packets/s, without %.0f B/s and %.0f packets/s: the server answers each ping",
			ch.On.ConnDown, ch.On.Packets, ch.Off.ConnDown, ch.Off.Packets)
	}
}

// fronts are the OpenSSH runs client c has.
func fronts(c OpenSSH) []string {
	if c.Chaffs() {
		return []string{FrontOpenSSH, FrontOpenSSHNoChaff}
	}
	return []string{FrontOpenSSH}
}
