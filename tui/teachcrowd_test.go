package tui_test

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/lab/sim"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/tui"
)

// TestTeachScreenCrowd: at 80x24 the teacher's b asks for 10 bots, then
// 100; the room's cap (32 players, 3 students) stops the second step and
// the panel, in the board's place, says which cap and its flag; the
// server's counters show as the scale lab shows them, from the Counters
// the server sent (here handed to the hub as the host does each
// second); a says the areas are off; w brings the board back; d takes
// the step away.
func TestTeachScreenCrowd(t *testing.T) {
	w := sim.NewHub(hub.Options{Config: world.Config{Rate: 20}, TeachBots: 1000})
	for _, name := range []string{"ada", "bob", "carol"} {
		w.Join(name, client.Options{Room: "lecture"})
	}
	watch := w.Watch("hopper", client.Options{Room: "lecture", Teach: true}, true)
	term := simTerm{t, newScreen(t, 80, 24)}
	s := tui.NewTeachScreen(term.screen, watch, tui.Options{Title: "gridlag — teaching lecture"})
	advance := func(d time.Duration) {
		w.Advance(d)
		s.Frame()
	}
	keys := func(keys string) {
		for _, k := range keys {
			s.HandleKey(tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone))
			s.Frame()
		}
		advance(100 * time.Millisecond)
	}
	advance(2 * time.Second)
	term.mustNotShow("Crowd ")

	keys("b")
	term.mustShow("Crowd 0 bots in, 10 asked", "areas of interest ON", "the server's counters come every second", "Network")
	keys("b")
	term.mustShow("Crowd 0 bots in, 100 asked", "100 bots asked, 29 given", "-room-players")

	w.Hub().TellCounters(w.Now(), protocol.Counters{IntervalMS: 1000, Players: 32, Ticks: 20, TickMeanNS: 610_000, TickP99NS: 3_000_000,
		Writes: 716, BytesPerPlayer: 3382, MessagesPerStateMilli: 2617, CPUPermyriad: 1900, RSS: 86_507_520})
	advance(100 * time.Millisecond)
	term.mustShow("own counters, 20 ticks", "0.61 ms mean, p99 < 3.00 ms", "716 a second", "3.4 kB/s per player",
		"2.62 messages", "19% of one core", "87 MB resident", "32 in the server")
	keys("a")
	term.mustShow("areas of interest OFF")
	t.Logf("the teacher's scale panel at 80x24:\n%s", term.text())
	keys("w")
	term.mustNotShow("Crowd ")
	keys("wdd")
	term.mustShow("Crowd 0 bots in, 0 asked", "areas of interest OFF")
	keys("a")
	term.mustNotShow("Crowd ")
}
