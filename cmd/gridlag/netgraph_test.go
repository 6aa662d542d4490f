package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/grid"
	"gridlag/ops/loadgen"
	"gridlag/ops/metrics"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestNetGraphAgreesWithMetricsAndLoad: a real client walks on a server
// with its metrics, alone, then beside gridlag load's players. Alone, its
// net graph counts the bytes the server's gridlag_bytes_out_total says it
// was sent (to within a few frames, on their way or counted apart) and as many States a
// second as the server's gridlag_states_sent_total; beside the load, its
// bytes in a second are the bytes in per player per second gridlag load
// reports for its own walkers, within a fifth (the same crowd, the same
// walk).
func TestNetGraphAgreesWithMetricsAndLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("walks for seconds on the wall clock")
	}
	exp := metrics.New()
	srv := server.New(server.Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, Metrics: exp,
		BotAddrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	exp.Watch(srv.Stats)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; !errors.Is(err, server.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	web := httptest.NewServer(metrics.Routes{Metrics: exp}.Handler())
	defer web.Close()
	scrape := func(series string) float64 {
		res, err := web.Client().Get(web.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		for _, line := range strings.Split(string(body), "\n") {
			if rest, ok := strings.CutPrefix(line, series+" "); ok {
				v, _ := strconv.ParseFloat(rest, 64)
				return v
			}
		}
		t.Fatalf("no %s in the scrape", series)
		return 0
	}

	ctx := context.Background()
	c, err := tcp.Dial(ctx, ln.Addr().String(), tcp.Options{Options: client.Options{Name: "ada"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	walking, stopWalking := context.WithCancel(ctx)
	wg.Add(1)
	go func() { // ada paces left and right at the speed limit
		defer wg.Done()
		for i := 0; walking.Err() == nil; i++ {
			c.Press([]grid.Dir{grid.Right, grid.Left}[i/4%2])
			// A player's pace, just slower than the speed limit: what
			// the graph is to count.
			time.Sleep(110 * time.Millisecond)
		}
	}()
	// Alone, once the graph has three whole seconds: the bytes the server
	// sent are the bytes the graph counts, but for what is on its way; the
	// States a second likewise, at the rate the server sent them (a busy
	// machine's late tick is skipped, for both). What is on its way, and
	// a scrape a moment behind, differ from one look to the next: the test
	// looks until the two agree, which a graph that miscounts never does.
	var (
		ins                  client.Instruments
		got, sent, states    float64
		graphStates, seconds int
	)
	admittest.Eventually(t, func() bool {
		c.Instruments(&ins)
		sent, states = scrape("gridlag_bytes_out_total"), scrape("gridlag_states_sent_total")
		got, graphStates, seconds = float64(ins.Graph.BytesIn), 0, len(ins.Graph.Samples)
		for _, s := range ins.Graph.Samples {
			graphStates += s.States
		}
		rate := states / ins.Graph.Seconds // the server's, a second
		return seconds >= 3 && math.Abs(got-sent) <= 200 &&
			float64(graphStates) <= states && math.Abs(float64(graphStates)-rate*float64(seconds)) <= 0.15*rate*float64(seconds)
	}, func() string {
		return fmt.Sprintf("the net graph counted %v bytes in, the server's metrics %v sent; %d States in %d whole seconds of %.1f, the server sent %v in all",
			got, sent, graphStates, seconds, ins.Graph.Seconds, states)
	})
	t.Logf("alone: the net graph counted %v bytes in, the server's metrics %v sent; %d States in %d whole seconds, the server %v in %.1f s",
		got, sent, graphStates, seconds, states, ins.Graph.Seconds)

	// Beside the load: the same bytes a second as its players.
	before := ins.Graph.BytesIn
	start := time.Now()
	sum, err := loadgen.Run(ctx, loadgen.Options{Addr: ln.Addr().String(), N: 8, Duration: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c.Instruments(&ins)
	took := time.Since(start).Seconds()
	stopWalking()
	wg.Wait()
	mine := float64(ins.Graph.BytesIn-before) / took
	if theirs := sum.BytesInPerPlayerPerSec; mine < theirs*0.8 || mine > theirs*1.25 {
		t.Errorf("the net graph's bytes in a second %.0f, gridlag load's per player %.0f", mine, theirs)
	}
	t.Logf("net graph: %.0f B/s in beside the load; gridlag load: %.0f per player; last second: %+v", mine, sum.BytesInPerPlayerPerSec, ins.Graph.Last())
}
