// Package sdktest runs the real Agones SDK server in local mode for tests,
// as httptest runs an HTTP server: from ../shared/agones/run-sdk-server
// beside the module's folder, on free loopback ports, with a GameServer
// that has a players List. Where that script is absent (a clone without
// ../shared), Start skips the test, saying so.
package sdktest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/server/admit/admittest"
)

// Capacity is the capacity of the players List of the GameServer the SDK
// server starts with.
const Capacity = 64

// gameServer is the GameServer the SDK server starts with. In a cluster
// the controller copies a Fleet's spec.lists into the status; the local
// SDK server reads the status as given, hence both.
var gameServer = fmt.Sprintf(`apiVersion: agones.dev/v1
kind: GameServer
metadata:
  name: local
spec:
  lists:
    players:
      capacity: %[1]d
status:
  lists:
    players:
      capacity: %[1]d
`, Capacity)

// SDKServer is a running SDK server.
type SDKServer struct {
	// Addr is its REST address, host:port.
	Addr string
	// Port is the port of Addr, for AGONES_SDK_HTTP_PORT.
	Port int

	t   testing.TB
	cmd *exec.Cmd
	out *admittest.Log
}

// Entry is one line of the SDK server's log.
type Entry struct {
	Message string         `json:"message"`
	Values  map[string]any `json:"values"`
}

// script returns the path of run-sdk-server, or "" if it is absent.
func script() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	script := filepath.Join(dir, "..", "shared", "agones", "run-sdk-server")
	if _, err := os.Stat(script); err != nil {
		return ""
	}
	return script
}

// Require returns the path of run-sdk-server. The test skips if it is
// absent, and fails if xz, which it needs, is. Start calls it; a test
// calls it first to skip before costlier set-up.
func Require(t testing.TB) string {
	t.Helper()
	script := script()
	if script == "" {
		t.Skip("../shared/agones/run-sdk-server is absent (a clone without ../shared): no real Agones SDK server to test against")
	}
	if _, err := exec.LookPath("xz"); err != nil {
		t.Fatal("xz is not installed; run-sdk-server needs it to unpack the SDK server (.ci/run installs xz-utils)")
	}
	return script
}

// Start starts the SDK server in local mode and waits until it answers;
// the test's cleanup stops it. The test skips or fails as Require says.
func Start(t testing.TB) *SDKServer {
	t.Helper()
	script := Require(t)
	file := filepath.Join(t.TempDir(), "gameserver.yaml")
	if err := os.WriteFile(file, []byte(gameServer), 0o644); err != nil {
		t.Fatal(err)
	}
	ports := freePorts(t, 3)
	s := &SDKServer{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])), Port: ports[0], t: t, out: &admittest.Log{}}
	s.cmd = exec.Command(script, "--local", "--address", "127.0.0.1", "--file", file,
		"--http-port", strconv.Itoa(ports[0]), "--grpc-port", strconv.Itoa(ports[1]), "--health-port", strconv.Itoa(ports[2]),
		"--graceful-termination=false")
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	s.waitUp()
	return s
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// waitUp waits until the REST interface answers with the GameServer
// (which needs the gRPC server behind it up too).
func (s *SDKServer) waitUp() {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + s.Addr + "/gameserver")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the SDK server did not come up on %s: %v\n%s", s.Addr, err, s.out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop ends the SDK server, and shows its log if the test failed.
func (s *SDKServer) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan struct{})
	go func() { s.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-exited
	}
	if s.t.Failed() {
		s.t.Logf("SDK server log:\n%s", s.out.String())
	}
}

// Log returns the lines of the SDK server's log so far.
func (s *SDKServer) Log() []Entry {
	var entries []Entry
	sc := bufio.NewScanner(strings.NewReader(s.out.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Message != "" {
			entries = append(entries, e)
		}
	}
	return entries
}

// Count returns how many lines of the log so far say message.
func (s *SDKServer) Count(message string) int {
	n := 0
	for _, e := range s.Log() {
		if e.Message == message {
			n++
		}
	}
	return n
}
