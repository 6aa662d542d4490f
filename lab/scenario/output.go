package scenario

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteJSON writes one JSON object per line, one per moment.
func WriteJSON(w io.Writer, lines []Line) error {
	enc := json.NewEncoder(w)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}

// WriteTable writes the timeline as an aligned text table: time, what the
// player sees, the server's position, pending inputs, and the event.
func WriteTable(w io.Writer, lines []Line) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%7s  %-9s %-9s %-10s %s\n", "t(ms)", "sees", "server", "pending", "event")
	for _, l := range lines {
		pend := make([]string, len(l.Pending))
		for i, p := range l.Pending {
			pend[i] = fmt.Sprintf("#%d", p)
		}
		p := strings.Join(pend, ",")
		if p == "" {
			p = "-"
		}
		fmt.Fprintf(&b, "%7d  %-9s %-9s %-10s %s\n", l.TMS,
			fmt.Sprintf("(%d,%d)", l.Client[0], l.Client[1]),
			fmt.Sprintf("(%d,%d)", l.Server[0], l.Server[1]), p, l.Event)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
