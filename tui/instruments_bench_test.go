package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
)

// fullInstruments are instruments as a client has them after a while: a
// full net graph and MaxLives lives.
func fullInstruments() *client.Instruments {
	ins := &client.Instruments{Tracing: true}
	for i := range client.GraphSeconds {
		ins.Graph.Samples = append(ins.Graph.Samples, client.GraphSample{
			RTT: time.Duration(100+i) * time.Millisecond, Jitter: time.Duration(i) * time.Millisecond,
			BytesIn: 2000 + 10*i, BytesOut: 90, States: 20, Corrections: i % 3, CorrCells: i % 5,
			Interp: 67 * time.Millisecond, Pending: i % 4, Lost: i % 2, Held: i % 3,
		})
	}
	ins.Graph.Seconds, ins.Graph.BytesIn, ins.Graph.BytesOut = 30, 60_000, 2_700
	ins.Side.Loss = 0.02
	for i := range client.MaxLives {
		at := time.Duration(i) * 200 * time.Millisecond
		ins.Lives = append(ins.Lives, client.InputLife{Seq: uint32(i + 1), Dir: grid.Right,
			Pressed: at, Released: at, Sent: at, Traced: true, Arrived: at + 50*time.Millisecond, Applied: at + 50*time.Millisecond,
			AckSent: at + 80*time.Millisecond, Acked: at + 130*time.Millisecond, Outcome: protocol.StageMoved, Tick: uint32(i), Replayed: i % 3})
	}
	ins.Budget = client.NewBudget(client.BudgetSide{Latency: 100 * time.Millisecond, Rate: 20, MoveTime: 100 * time.Millisecond, Interpolate: true, InterpDelay: 67 * time.Millisecond, Predict: true},
		client.BudgetSide{Latency: 100 * time.Millisecond, Rate: 20, Interpolate: true, InterpDelay: 67 * time.Millisecond}, "")
	return ins
}

// BenchmarkInstrumentOverlay measures drawing each overlay at 80x24 on
// the off-screen canvas every frame is drawn on: what an open instrument
// adds to a frame, and the share of a core at 60 frames a second.
func BenchmarkInstrumentOverlay(b *testing.B) {
	ins := fullInstruments()
	r := rect{2, 1, 76, 21}
	for _, o := range []struct {
		name string
		draw func(tcell.Screen)
	}{
		{"netgraph", func(s tcell.Screen) { drawNetGraph(s, r, "Net graph", "g", ins) }},
		{"waterfall", func(s tcell.Screen) { drawWaterfall(s, r, "Waterfall", "t", ins) }},
		{"budget", func(s tcell.Screen) {
			drawBudgets(s, r, "Latency budget", "b", []string{ownBudgetHeading}, []client.Budget{ins.Budget}, "p")
		}},
	} {
		b.Run(o.name, func(b *testing.B) {
			scr := tcell.NewSimulationScreen("UTF-8")
			if err := scr.Init(); err != nil {
				b.Fatal(err)
			}
			defer scr.Fini()
			scr.SetSize(80, 24)
			var p palette
			var c canvas
			c.styles = &p
			for i := 0; i < b.N; i++ {
				if i%256 == 0 {
					p.clear()
				}
				c.reset(scr, 80, 24)
				o.draw(&c)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*60/1e9*100, "%core@60fps")
		})
	}
}
