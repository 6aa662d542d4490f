package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gridlag/server/admit/admittest"
)

// TestLoadJSONWhenTheServerIsKilled runs `gridlag load -json` against a
// real server process killed (SIGKILL) in the middle of the walk: the
// load ends by itself, exits 0 and prints valid JSON with the figures its
// players measured until then; the server's figures are null, each with
// the reason (its metrics could not be read at the walk's end).
func TestLoadJSONWhenTheServerIsKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	addr, metricsAddr := freeAddr(t), freeAddr(t)
	srv := exec.Command(bin, "-server", "-addr", addr, "-metrics", metricsAddr, "-drain", "0s", "-log", filepath.Join(t.TempDir(), "server.log"))
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	url := "http://" + metricsAddr + "/metrics"
	inputs := func() float64 {
		resp, err := http.Get(url)
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		m := regexp.MustCompile(`(?m)^gridlag_inputs_processed_total (\S+)$`).FindSubmatch(body)
		if m == nil {
			return -1
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		return v
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		admittest.Eventually(t, ok, func() string { return "never: " + what })
	}
	waitFor("the server's metrics answer", func() bool { return inputs() >= 0 })

	// An hour's walk, far past the hang guard: a load that walked on
	// after the server was gone would not end within it.
	load := exec.Command(bin, "load", "-connect", addr, "-n", "4", "-duration", "1h", "-seed", "1", "-json", "-server-metrics", url)
	var out, errOut bytes.Buffer
	load.Stdout, load.Stderr = &out, &errOut
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor("the players walk", func() bool { return inputs() >= 40 })
	srv.Process.Kill()
	srv.Wait()
	// The players were dropped: gridlag load says so and exits 1, after
	// the whole summary.
	var (
		exit *exec.ExitError
		err  error
	)
	if !admittest.Ends(func() { err = load.Wait() }) {
		load.Process.Kill()
		t.Fatalf("gridlag load walked on for %v after the server was gone", admittest.Hung)
	}
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("gridlag load: %v, want exit status 1 for the dropped players\n%s%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "4 dropped") {
		t.Errorf("gridlag load's standard error %q does not say the players were dropped", errOut.String())
	}

	var sum struct {
		Players     int               `json:"players"`
		Dropped     map[string]int    `json:"dropped"`
		InputsSent  int               `json:"inputs_sent"`
		InputsAcked int               `json:"inputs_acked"`
		RTTp99      *float64          `json:"rtt_p99_ms"`
		BytesIn     *float64          `json:"bytes_in_per_player_per_sec"`
		Server      map[string]any    `json:"server"`
		Unmeasured  map[string]string `json:"unmeasured"`
		ServerError string            `json:"server_error"`
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("gridlag load -json printed %q (%v), want one JSON object\n%s", out.String(), err, errOut.String())
	}
	if strings.Contains(out.String(), "NaN") {
		t.Errorf("NaN in the summary: %s", out.String())
	}
	dropped := 0
	for _, n := range sum.Dropped {
		dropped += n
	}
	if sum.Players != 4 || dropped != 4 || sum.InputsSent < 40 || sum.InputsAcked == 0 || sum.InputsAcked > sum.InputsSent || sum.RTTp99 == nil || sum.BytesIn == nil {
		t.Errorf("want the 4 players' figures until the kill, each dropped: %s", out.String())
	}
	if !strings.Contains(sum.ServerError, "at the walk's end") {
		t.Errorf("server_error %q, want the failed reading at the walk's end", sum.ServerError)
	}
	why, _ := sum.Server["unmeasured"].(map[string]any)
	for _, f := range []string{"ticks", "tick_p50_ms_at_most", "tick_p99_ms_at_most", "cpu_ms", "cpu_share_of_a_core", "rss_bytes"} {
		v, there := sum.Server[f]
		if reason, _ := why[f].(string); !there || v != nil || !strings.Contains(reason, "reading the server's metrics at the walk's end failed") {
			t.Errorf("server figure %q: %v (present %v), reason %q; want null with the failed reading", f, v, there, why[f])
		}
	}
}
