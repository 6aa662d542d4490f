package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gridlag/server/admit/admittest"
)

// jsonList reads the first flow list after prefix on a line of text (a
// Dockerfile's exec form, a YAML flow sequence of quoted strings).
func jsonList(t *testing.T, text, prefix, file string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(prefix) + `\s*(\[.*\])\s*$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s has no %s [...] line", file, prefix)
	}
	var list []string
	if err := json.Unmarshal([]byte(m[1]), &list); err != nil {
		t.Fatalf("%s: %s %s: %v", file, prefix, m[1], err)
	}
	return list
}

// TestKubernetesDeploymentProbesTheServer: the Deployment in
// ops/deploy/kubernetes runs the image's entry point with its args, which
// gridlag takes; its probes ask /healthz and /readyz on the port -health
// serves; and a server started with those flags (its addresses on
// loopback) answers them.
func TestKubernetesDeploymentProbesTheServer(t *testing.T) {
	const dockerfile, manifest = "../../ops/deploy/agones/Dockerfile", "../../ops/deploy/kubernetes/gridlag.yaml"
	docker, err := os.ReadFile(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	entry := jsonList(t, string(docker), "ENTRYPOINT", dockerfile)
	args := append(entry[1:], jsonList(t, string(yaml), "args:", manifest)...)
	f := parseGame(t, args...)

	port := regexp.MustCompile(`- name: health\s+containerPort: (\d+)`).FindStringSubmatch(string(yaml))
	if port == nil {
		t.Fatalf("%s has no container port named health", manifest)
	}
	if _, p, _ := net.SplitHostPort(f.HealthAddr); p != port[1] {
		t.Errorf("-health %q, the port named health %s", f.HealthAddr, port[1])
	}
	for probe, path := range map[string]string{"livenessProbe": "/healthz", "readinessProbe": "/readyz"} {
		re := regexp.MustCompile(probe + `:\s+httpGet:\s+path: (\S+)\s+port: (\S+)`)
		if m := re.FindStringSubmatch(string(yaml)); m == nil || m[1] != path || m[2] != "health" {
			t.Errorf("%s's %s: %v, want GET %s on the port named health", manifest, probe, m, path)
		}
	}

	f.SSHAddr, f.HealthAddr = "127.0.0.1:0", "127.0.0.1:0"
	f.SSH.HostKeyPath = filepath.Join(t.TempDir(), filepath.Base(f.SSH.HostKeyPath))
	logs := &admittest.Log{}
	g, err := startGame(f, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	base := webURLs(t, logs.String(), "health")[0]
	var (
		code int
		body string
	)
	admittest.Eventually(t, func() bool {
		code, body, err = probe(base + "/healthz")
		if code != 200 && (err != nil || body != "not serving\n") {
			t.Fatalf("GET /healthz as the server starts: %d %q %v", code, body, err)
		}
		return code == 200
	}, func() string { return fmt.Sprintf("GET /healthz as the server starts: %d %q %v", code, body, err) })
	for path, want := range map[string]string{"/healthz": "ok\n", "/readyz": "ready: 0 of 1000 players"} {
		code, body, err := probe(base + path)
		if err != nil || code != 200 || !strings.HasPrefix(body, want) {
			t.Errorf("GET %s: %d %q %v, want 200 %q", path, code, body, err, want)
		}
	}
	g.Server().Drain(10 * time.Second)
	if code, body, _ := probe(base + "/readyz"); code != 503 {
		t.Errorf("GET /readyz while draining: %d %q, want 503", code, body)
	}
}
