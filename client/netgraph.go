package client

import "time"

// The net graph (issue 22): a client's link and prediction second by
// second over the last GraphSeconds, as Valve's net_graph shows them. A
// Core records it all the time, at the cost of a few additions a message;
// drawing it is the interface's, and sends nothing on the wire.

// GraphSeconds is how many seconds the net graph keeps, one sample each.
const GraphSeconds = 30

// GraphSample is one second of the net graph.
type GraphSample struct {
	// RTT is the round trip the client's Pings last measured (carried
	// from second to second until the next); Jitter is how much the
	// States' trip varies from one to the next (RFC 3550's interarrival
	// jitter, smoothed over 16 States).
	RTT, Jitter time.Duration
	// BytesIn and BytesOut are the bytes read from and written to the
	// transport in the second, frames whole (what the server's
	// gridlag_bytes_out_total and gridlag load count).
	BytesIn, BytesOut int
	// States is the States that arrived in the second.
	States int
	// Corrections is the corrections in the second, and CorrCells the
	// cells they moved the avatar, together.
	Corrections, CorrCells int
	// Interp is the interpolation delay at the second's end.
	Interp time.Duration
	// Pending is the most inputs pending at once in the second.
	Pending int
	// Lost is the messages either way that the injected link lost (and
	// retransmitted) in the second; Held those it held behind another or
	// in a lag spike.
	Lost, Held int
	// Changes is how many steps of the trace the link follows (see
	// NetTrace) came in the second, and Step the name of the last of
	// them ("" for none).
	Changes int
	Step    string
}

// NetGraph is the net graph as an interface draws it.
type NetGraph struct {
	// Samples are the last seconds, oldest first, at most GraphSeconds;
	// the second under way is not among them.
	Samples []GraphSample
	// Seconds is how long the graph has recorded, BytesIn and BytesOut
	// the bytes in all that time: their quotient is the average that
	// gridlag load and the server's metrics give for the same run.
	Seconds           float64
	BytesIn, BytesOut int64
}

// Last returns the last whole second (the zero sample if none).
func (g *NetGraph) Last() GraphSample {
	if len(g.Samples) == 0 {
		return GraphSample{}
	}
	return g.Samples[len(g.Samples)-1]
}

// Mean returns the mean of f over the samples (0 if none).
func (g *NetGraph) Mean(f func(GraphSample) float64) float64 {
	if len(g.Samples) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range g.Samples {
		sum += f(s)
	}
	return sum / float64(len(g.Samples))
}

// graph records a Core's net graph: the second under way, and a ring of
// the last GraphSeconds.
type graph struct {
	started bool
	start   time.Duration // when the first second began
	end     time.Duration // when the second under way ends
	cur     GraphSample
	ring    [GraphSeconds]GraphSample
	head, n int // the oldest sample's index and how many there are

	rtt               time.Duration // the last round trip measured
	jitter            float64       // RFC 3550's J, ns
	transit           time.Duration // the last State's arrival less its server time
	hasTransit        bool
	bytesIn, bytesOut int64
}

// gauges are what a second reads of the client at its end.
type gauges interface {
	interpDelay() time.Duration
	pendingNow() int
}

// roll closes every second that ended by now, each with the gauges as they
// are (a quiet stretch repeats them), and starts the one under way.
func (g *graph) roll(now time.Duration, at gauges) {
	if !g.started {
		g.started, g.start, g.end = true, now, now+time.Second
		g.cur = GraphSample{Pending: at.pendingNow()}
		return
	}
	if now < g.end {
		return
	}
	if now-g.end >= GraphSeconds*time.Second {
		// Longer than the graph: start again from the last whole second.
		skipped := (now - g.end) / time.Second
		g.end += (skipped - GraphSeconds) * time.Second
		g.close(at)
		g.cur = g.quiet(at)
	}
	for now >= g.end {
		g.close(at)
		g.cur = g.quiet(at)
	}
}

// close ends the second under way.
func (g *graph) close(at gauges) {
	g.cur.RTT, g.cur.Jitter, g.cur.Interp = g.rtt, time.Duration(g.jitter), at.interpDelay()
	g.cur.Pending = max(g.cur.Pending, at.pendingNow())
	if g.n < GraphSeconds {
		g.ring[(g.head+g.n)%GraphSeconds] = g.cur
		g.n++
	} else {
		g.ring[g.head] = g.cur
		g.head = (g.head + 1) % GraphSeconds
	}
	g.end += time.Second
}

// quiet is a second in which nothing has happened yet.
func (g *graph) quiet(at gauges) GraphSample {
	return GraphSample{Pending: at.pendingNow()}
}

// state counts a State that took transit to come (its arrival here less
// its time on the server's clock: the clocks' offset cancels out of the
// jitter, which compares one with the next).
func (g *graph) state(transit time.Duration) {
	g.cur.States++
	if g.hasTransit {
		d := float64(transit - g.transit)
		if d < 0 {
			d = -d
		}
		g.jitter += (d - g.jitter) / 16
	}
	g.transit, g.hasTransit = transit, true
}

// held counts a message the link lost or held back.
func (g *graph) held(lost int, behind bool) {
	if lost > 0 {
		g.cur.Lost++
	}
	if behind {
		g.cur.Held++
	}
}

// changed counts a step of the link's trace, called step.
func (g *graph) changed(step string) {
	g.cur.Changes++
	g.cur.Step = step
}

// correction counts a correction of cells cells.
func (g *graph) correction(cells int) {
	g.cur.Corrections++
	g.cur.CorrCells += cells
}

// pending notes how many inputs are pending.
func (g *graph) pending(n int) { g.cur.Pending = max(g.cur.Pending, n) }

// fill writes the graph as of now into dst, reusing its samples.
func (g *graph) fill(now time.Duration, at gauges, dst *NetGraph) {
	g.roll(now, at)
	dst.Samples = dst.Samples[:0]
	for i := range g.n {
		dst.Samples = append(dst.Samples, g.ring[(g.head+i)%GraphSeconds])
	}
	dst.BytesIn, dst.BytesOut = g.bytesIn, g.bytesOut
	dst.Seconds = 0
	if g.started {
		dst.Seconds = (now - g.start).Seconds()
	}
}
