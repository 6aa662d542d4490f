package wire

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// The front ends a Meter counts for.
const (
	FrontTCP = "tcp" // gridlag play: the game's frames straight on TCP
	FrontSSH = "ssh" // a terminal over SSH
	FrontWeb = "web" // a terminal in a WebSocket
)

// Meter is one player's session's counters, layer by layer, from the
// game's frames down to TCP/IP. The front end counts what it carries
// (Term, Payload, Conn) and says which socket is the player's
// (SetSocket); the game's client counts Game. All of it is safe for
// concurrent use.
type Meter struct {
	// Front is the front end: FrontTCP, FrontSSH or FrontWeb.
	Front string
	// Game is the game's frames each way between the player's game
	// client and the game server. For a TCP player they are what the
	// socket carries; over SSH and the web they travel inside the
	// server, and the player's wire carries the terminal instead.
	Game Counter
	// Term is the terminal's traffic (SSH and the web): keys up, screen
	// output down.
	Term Term
	// Payload is the WebSocket's messages, each way (the web): the
	// terminal's bytes, the page's sizes, the server's notices; its
	// units are messages.
	Payload Counter
	// Conn is the bytes on the front end's connection (SSH, the web):
	// the payload, framed (and, over SSH, encrypted and authenticated).
	Conn Counter

	mu     sync.Mutex
	client string   // the client's version line (SSH), see SetClient
	sock   net.Conn // whose TCP counters are read
	side   bool
	gen    int // bumped by SetSocket
}

// NewMeter returns a meter of a session of front.
func NewMeter(front string) *Meter { return &Meter{Front: front} }

// SetClient records the client's software, as its version line says
// it ("SSH-2.0-OpenSSH_10.0p2 Debian-7"): the overlay says from it
// whether the client adds keystroke-timing chaff.
func (m *Meter) SetClient(version string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.client = version
	m.mu.Unlock()
}

// Client is what SetClient recorded.
func (m *Meter) Client() string {
	if m == nil {
		return ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.client
}

// SetSocket makes c (or what it wraps) the socket whose kernel counters
// the meter reads, from side (ServerSide or PlayerSide).
func (m *Meter) SetSocket(c net.Conn, side bool) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sock, m.side = c, side
	m.gen++
}

// Snapshot is a meter's reading.
type Snapshot struct {
	Front                     string
	Game, Term, Payload, Conn Flow
	Cells, Glyph              int64 // cells the terminal output drew, and the bytes of their characters
	TCP                       TCP   // the socket's kernel counters
	Socket                    int   // which socket TCP is of: readings of two sockets do not subtract
}

// Snapshot reads the meter.
func (m *Meter) Snapshot() Snapshot {
	if m == nil {
		return Snapshot{}
	}
	m.mu.Lock()
	sock, side, gen := m.sock, m.side, m.gen
	m.mu.Unlock()
	s := Snapshot{Front: m.Front, Game: m.Game.Flow(), Term: m.Term.Flow(), Payload: m.Payload.Flow(), Conn: m.Conn.Flow(), Socket: gen}
	s.Cells, s.Glyph = m.Term.Cells()
	if sock == nil {
		s.TCP = TCP{Why: "no socket yet"}
	} else {
		s.TCP = ReadTCP(sock, side)
	}
	return s
}

// Sub is what went through between reading o and reading s.
func (s Snapshot) Sub(o Snapshot) Snapshot {
	d := Snapshot{Front: s.Front, Game: s.Game.Sub(o.Game), Term: s.Term.Sub(o.Term), Payload: s.Payload.Sub(o.Payload),
		Conn: s.Conn.Sub(o.Conn), Cells: s.Cells - o.Cells, Glyph: s.Glyph - o.Glyph, Socket: s.Socket, TCP: s.TCP.Sub(o.TCP)}
	if s.Socket != o.Socket {
		d.TCP = TCP{Why: "the connection changed"}
	}
	return d
}

// Row is one layer of a Snapshot as a view shows it: what the layer
// carried each way, and what it added to the layer above.
type Row struct {
	Layer string // "game", "terminal", "ssh", "websocket", "tcp/ip"
	Flow  Flow   // bytes each way; units as Units says
	Added Flow   // bytes it added to the row above each way (none for the first)
	Units string // what Flow's units count: "segments", "messages", ...
	Note  string // what it adds, in a few words
}

// Rows is s layer by layer, the game's frames first, TCP/IP last.
func (s Snapshot) Rows() []Row {
	rows := []Row{{Layer: "game", Flow: s.Game, Units: "reads/writes"}}
	above := s.Game
	switch s.Front {
	case FrontSSH, FrontWeb:
		rows[0].Note = "the game's frames (inside the server)"
		rows = append(rows, Row{Layer: "terminal", Flow: s.Term, Units: "reads/writes",
			Note: fmt.Sprintf("keys; screen output: %d cells drawn in %d B, %d B of escapes", s.Cells, s.Glyph, s.Term.Down-s.Glyph)})
		above = s.Term
		conn := Row{Layer: "ssh", Flow: s.Conn, Added: s.Conn.Sub(above), Units: "reads/writes",
			Note: "packet framing, padding, MAC; window adjusts, pings"}
		if s.Front == FrontWeb {
			conn.Layer = "websocket"
			conn.Note = fmt.Sprintf("%d+%d messages: framing, masks, pings, notices", s.Payload.UpOps, s.Payload.DownOps)
		}
		rows = append(rows, conn)
		above = s.Conn
	default:
		rows[0].Note = "the game's frames"
	}
	tcp := Row{Layer: "tcp/ip", Units: "segments"}
	if s.TCP.OK() {
		tcp.Flow = s.TCP.Wire()
		tcp.Added = tcp.Flow.Sub(Flow{Up: s.TCP.Up, Down: s.TCP.Down})
		ua, da := s.TCP.Acks()
		tcp.Note = fmt.Sprintf("%d B a segment; %d+%d segments, %d+%d of them pure acks", s.TCP.Header, s.TCP.UpOps, s.TCP.DownOps, ua, da)
		if miss := tcp.Flow.Sub(tcp.Added).Sub(above); s.TCP.Up != above.Up || s.TCP.Down != above.Down {
			tcp.Note += fmt.Sprintf(" (payload %+d/%+d B off the layer above: in flight)", miss.Up, miss.Down)
		}
	} else {
		tcp.Note = "no kernel counters: " + s.TCP.Why
	}
	return append(rows, tcp)
}

// Table is d, what went through in a window of span with moves moves,
// as lines of text (at most 78 columns): each layer's bytes per move
// (when there were moves) and per second, each way, and what it added.
func Table(d Snapshot, moves int64, span time.Duration) []string {
	secs := span.Seconds()
	lines := []string{fmt.Sprintf("%-9s %8s %8s %8s %8s", "layer", "up/move", "down/mv", "up/s", "down/s")}
	per := func(n int64, by float64) string {
		if by <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f", float64(n)/by)
	}
	for _, r := range d.Rows() {
		if r.Layer == "tcp/ip" && !d.TCP.OK() {
			lines = append(lines, fmt.Sprintf("%-9s %s", r.Layer, r.Note))
			continue
		}
		lines = append(lines, fmt.Sprintf("%-9s %8s %8s %8s %8s  %s", r.Layer,
			per(r.Flow.Up, float64(moves)), per(r.Flow.Down, float64(moves)), per(r.Flow.Up, secs), per(r.Flow.Down, secs), addedText(r, moves)))
	}
	return lines
}

// addedText says what row r added to the layer above, per move when
// there were moves.
func addedText(r Row, moves int64) string {
	if r.Added == (Flow{}) {
		return ""
	}
	by := float64(moves)
	unit := "/move"
	if moves <= 0 {
		by, unit = 1, ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "+%.0f/+%.0f B%s", float64(r.Added.Up)/by, float64(r.Added.Down)/by, unit)
	if r.Layer == "tcp/ip" && moves > 0 {
		fmt.Fprintf(&b, ", %.1f/%.1f segments", float64(r.Flow.UpOps)/by, float64(r.Flow.DownOps)/by)
	}
	return b.String()
}
