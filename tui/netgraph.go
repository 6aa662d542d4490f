package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// The net graph: a sparkline a row for each of what Valve's net_graph
// shows and then some, over the last client.GraphSeconds, a column a
// second, in block characters (they read on a projector and over SSH):
// the round trip and its jitter, bytes in and out a second, States a
// second, corrections a second and their size, the interpolation delay,
// the inputs pending, and, where the link conditioner shows them,
// messages lost and held. Each row ends with its last second's figure;
// the foot gives the corrections by cause and the averages since the
// start, the figures gridlag load and the server's metrics give.

// sparkBlocks are the heights of a sparkline's columns.
var sparkBlocks = []string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// netGraphLabel is the width of a row's label, netGraphValue of its
// figure.
const (
	netGraphLabel = 12
	netGraphValue = 22
)

// graphRow is one row of the net graph.
type graphRow struct {
	label string
	value func(client.GraphSample) float64
	text  func(g *client.NetGraph) string
	color tcell.Color
	// marks draws a mark in each column whose value is not 0, instead
	// of a sparkline.
	marks bool
}

// graphRows returns the net graph's rows for ins: loss and holds only
// where the link conditioner loses or holds messages.
func graphRows(ins *client.Instruments) []graphRow {
	ms := func(d time.Duration) float64 { return float64(d.Milliseconds()) }
	rows := []graphRow{
		{"round trip", func(s client.GraphSample) float64 { return ms(s.RTT) },
			func(g *client.NetGraph) string { return millis(g.Last().RTT) }, colorUp, false},
		{"jitter", func(s client.GraphSample) float64 { return ms(s.Jitter) },
			func(g *client.NetGraph) string { return millis(g.Last().Jitter) }, colorUp, false},
		{"bytes in/s", func(s client.GraphSample) float64 { return float64(s.BytesIn) },
			func(g *client.NetGraph) string { return bytesText(g.Last().BytesIn) }, colorDown, false},
		{"bytes out/s", func(s client.GraphSample) float64 { return float64(s.BytesOut) },
			func(g *client.NetGraph) string { return bytesText(g.Last().BytesOut) }, colorUp, false},
		{"States/s", func(s client.GraphSample) float64 { return float64(s.States) },
			func(g *client.NetGraph) string { return fmt.Sprint(g.Last().States) }, colorDown, false},
		{"corrections", func(s client.GraphSample) float64 { return float64(s.Corrections) },
			func(g *client.NetGraph) string {
				l := g.Last()
				return fmt.Sprintf("%d/s, %d cell%s", l.Corrections, l.CorrCells, pluralS(l.CorrCells))
			}, colorHeld, false},
		{"interp delay", func(s client.GraphSample) float64 { return ms(s.Interp) },
			func(g *client.NetGraph) string { return millis(g.Last().Interp) }, colorInterp, false},
		{"pending", func(s client.GraphSample) float64 { return float64(s.Pending) },
			func(g *client.NetGraph) string { return fmt.Sprint(g.Last().Pending) }, colorLimit, false},
	}
	if tr := ins.Trace; tr.Name != "" {
		// The trace's steps: a mark in each second one came, and the
		// step in force named.
		rows = slices.Insert(rows, 2, graphRow{"trace steps", func(s client.GraphSample) float64 { return float64(s.Changes) },
			func(*client.NetGraph) string { return traceStepText(tr) }, colorLimit, true})
	}
	lossy := ins.Side.Loss > 0
	for _, s := range ins.Graph.Samples {
		lossy = lossy || s.Lost > 0 || s.Held > 0
	}
	if lossy {
		rows = append(rows, graphRow{"lost+held", func(s client.GraphSample) float64 { return float64(s.Lost + s.Held) },
			func(g *client.NetGraph) string {
				l := g.Last()
				return fmt.Sprintf("%d lost, %d held", l.Lost, l.Held)
			}, colorHeld, false})
	}
	return rows
}

// traceMark is the mark of a second in which the trace took a step.
const traceMark = "▲"

// traceStepText names the trace's step in force: "now: background
// scan".
func traceStepText(tr client.NetTrace) string {
	if tr.Step == "" {
		return "not started"
	}
	return "now: " + tr.Step
}

// traceFoot says where the trace is, on the client's clock now: "trace
// wifi-scan, every 120.0s: background scan (its step at 10.0s), the next
// in 109.2s".
func traceFoot(tr client.NetTrace, now time.Duration) string {
	if tr.Room {
		return fmt.Sprintf("trace %s, the room's, as the teacher set it: %s", tr.Name, tr.Step)
	}
	s := "trace " + tr.Name
	if tr.Repeat {
		s += ", every " + seconds(tr.Length)
	}
	if tr.Step != "" {
		s += fmt.Sprintf(": %s (its step at %s)", tr.Step, seconds(tr.StepAt))
	}
	if tr.NextOK {
		s += ", the next in " + seconds(tr.Next-now)
	} else {
		s += ", its last step"
	}
	return s
}

// drawNetGraph draws ins's net graph into r under title.
func drawNetGraph(screen tcell.Screen, r rect, title, closeKey string, ins *client.Instruments) {
	drawOverlayBox(screen, r, title, closeKey)
	g := &ins.Graph
	rows := graphRows(ins)
	spark := max(min(client.GraphSeconds, r.w-netGraphLabel-netGraphValue), 1)
	y := r.y + 1
	for _, row := range rows {
		if y >= r.y+r.h {
			return
		}
		putText(screen, r.x, y, netGraphLabel, row.label, styleText)
		if row.marks {
			drawMarks(screen, r.x+netGraphLabel, y, spark, g.Samples, row.value, row.color)
		} else {
			drawSparkline(screen, r.x+netGraphLabel, y, spark, g.Samples, row.value, row.color)
		}
		putText(screen, r.x+netGraphLabel+spark+1, y, r.w-netGraphLabel-spark-1, row.text(g), styleText)
		y++
	}
	foot := []string{causesText(ins.Causes), averagesText(g)}
	if ins.Trace.Name != "" {
		foot = append(foot, traceFoot(ins.Trace, ins.Now))
	}
	for _, line := range foot {
		if y >= r.y+r.h {
			return
		}
		putText(screen, r.x, y, r.w, line, styleDim)
		y++
	}
}

// drawSparkline draws one column a sample, the last n, from (x, y): its
// height the sample's share of the largest shown; nothing for 0.
func drawSparkline(screen tcell.Screen, x, y, n int, samples []client.GraphSample, value func(client.GraphSample) float64, c tcell.Color) {
	if len(samples) > n {
		samples = samples[len(samples)-n:]
	}
	top := 0.0
	for _, s := range samples {
		top = max(top, value(s))
	}
	st := tcell.StyleDefault.Foreground(c)
	x += n - len(samples) // the latest at the right
	for i, s := range samples {
		v := value(s)
		if v <= 0 || top <= 0 {
			continue
		}
		level := min(int(v/top*float64(len(sparkBlocks))), len(sparkBlocks)-1)
		screen.Put(x+i, y, sparkBlocks[level], st)
	}
}

// drawMarks draws a mark in each column, one a sample, the last n, from
// (x, y), whose value is not 0.
func drawMarks(screen tcell.Screen, x, y, n int, samples []client.GraphSample, value func(client.GraphSample) float64, c tcell.Color) {
	if len(samples) > n {
		samples = samples[len(samples)-n:]
	}
	st := tcell.StyleDefault.Foreground(c).Bold(true)
	x += n - len(samples) // the latest at the right
	for i, s := range samples {
		if value(s) != 0 {
			screen.Put(x+i, y, traceMark, st)
		}
	}
}

// causesText counts the corrections by cause: "corrections by cause:
// blocked 2 · speed limit 0 · ...".
func causesText(causes [client.NumCauses]int) string {
	parts := make([]string, 0, client.NumCauses)
	for c := client.Cause(0); c < client.NumCauses; c++ {
		parts = append(parts, fmt.Sprintf("%s %d", c.Short(), causes[c]))
	}
	return "by cause: " + strings.Join(parts, " · ")
}

// averagesText gives the bytes a second since the start, as gridlag load
// and the server's metrics count them, and how far the graph goes back.
func averagesText(g *client.NetGraph) string {
	if len(g.Samples) == 0 {
		return "a column a second: the first is not over yet"
	}
	return fmt.Sprintf("since the start (%.0f s): in %s, out %s; a column a second",
		g.Seconds, bytesText(int(float64(g.BytesIn)/g.Seconds)), bytesText(int(float64(g.BytesOut)/g.Seconds)))
}

// bytesText writes a rate of bytes a second: "840 B/s", "1.8 kB/s".
func bytesText(n int) string {
	switch {
	case n >= 10_000:
		return fmt.Sprintf("%d kB/s", (n+500)/1000)
	case n >= 1000:
		return fmt.Sprintf("%.1f kB/s", float64(n)/1000)
	}
	return fmt.Sprintf("%d B/s", n)
}
