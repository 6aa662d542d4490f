package tui

import (
	"strings"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

func TestStatusLineFitsTheWidth(t *testing.T) {
	v := &client.View{HasState: true, Predicted: grid.Pos{X: 11, Y: 10}, Server: grid.Pos{X: 10, Y: 10},
		RTT: 1001 * time.Millisecond, UpdateRate: 20, MoveTime: 100 * time.Millisecond,
		Latency: 1000 * time.Millisecond, Jitter: 250 * time.Millisecond, Interpolate: true, InterpDelay: 350 * time.Millisecond}
	wide := statusLine(v, 200)
	for _, want := range []string{"you (11,10)  server (10,10)", "rtt 1001ms", "updates 20/s", "move 100ms", "lag 1000ms ±250ms", "interp 350ms"} {
		if !strings.Contains(wide, want) {
			t.Errorf("wide status %q lacks %q", wide, want)
		}
	}
	for _, width := range []int{76, 60, 40} {
		s := statusLine(v, width)
		if textWidth(s) > width && width >= 40 {
			t.Errorf("status at width %d is %d wide: %q", width, textWidth(s), s)
		}
		if !strings.HasPrefix(s, "you (11,10)  server (10,10)  rtt 1001ms") {
			t.Errorf("status at width %d lost the positions or the round trip: %q", width, s)
		}
	}
	if s := statusLine(v, 76); !strings.Contains(s, "interp 350ms") {
		t.Errorf("at the minimum width the interpolation delay should still show: %q", s)
	}
}

// TestStatusLineSaysWhereOnABigMap: on a map too big for the board the
// status line says where the player is on it; on the classroom map it
// does not.
func TestStatusLineSaysWhereOnABigMap(t *testing.T) {
	big, err := grid.Generate(1024, 1024, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := &client.View{Map: big, HasState: true, Predicted: grid.Pos{X: 412, Y: 87}, Server: grid.Pos{X: 412, Y: 87}}
	if got := statusLine(v, 80); !strings.HasPrefix(got, "you (412,87) of 1024x1024  server (412,87)") {
		t.Errorf("status line %q, want where on the 1024x1024 map", got)
	}
	v.Map = grid.DefaultMap()
	if got := statusLine(v, 80); strings.Contains(got, " of ") {
		t.Errorf("status line %q on the classroom map, want no map size", got)
	}
}
