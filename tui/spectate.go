package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
)

// Watcher is what the spectator's screen needs from a connection to a
// server: tcp.Watch implements it. All its methods are safe for
// concurrent use.
type Watcher interface {
	// View returns the latest view of the server.
	View() client.WorldView
	// Changed receives when something came from the server.
	Changed() <-chan struct{}
	// Done is closed when the connection has ended; View().Err says why.
	Done() <-chan struct{}
}

// spectateKeyTable is every key of the spectator's screen.
var spectateKeyTable = []binding[*SpectateScreen]{
	helpBinding[*SpectateScreen](),
	{label: "arrows", help: "look around a map larger than the screen", brief: "arrows", group: "look", keys: []keyDo[*SpectateScreen]{
		{key: tcell.KeyLeft, do: func(s *SpectateScreen) { s.pan(-1, 0) }},
		{key: tcell.KeyRight, do: func(s *SpectateScreen) { s.pan(1, 0) }},
		{key: tcell.KeyUp, do: func(s *SpectateScreen) { s.pan(0, -1) }},
		{key: tcell.KeyDown, do: func(s *SpectateScreen) { s.pan(0, 1) }},
	}},
	resultsBinding[*SpectateScreen](),
	quitBinding[*SpectateScreen](),
}

// SpectateKeyHelp returns one line per row of the spectator's key table,
// for gridlag -help.
func SpectateKeyHelp() []string { return tableHelp(spectateKeyTable) }

// SpectateScreen is the spectator's screen, a projector (projector.go):
// the server's view of a real server, its board scaled to the window
// (every player where the server has them, by their room marks), the
// round and its clock, the room's scoreboard, the student the room's
// teacher follows with its view of itself and its ledger, the tick and
// the update rate; no avatar of its own. It belongs to one goroutine:
// the loop of RunSpectate, or a test calling HandleKey and Frame in turn.
type SpectateScreen struct {
	screenBase
	watch  Watcher
	view   client.WorldView // the view the last frame drew
	board  *ServerBoard
	winner banner // the last round's winner, over the board for a while

	// On a map larger than the screen, the cell the board keeps in view
	// (the map's middle at first); the arrows move it. A followed
	// student's avatar takes the camera.
	look     grid.Pos
	lookedAt *grid.Map // the map look is on

	results perceptionResults // the perception test's results, over the board (perceive.go)
}

// pan moves the look by a third of the board along dx, dy, within the
// map.
func (s *SpectateScreen) pan(dx, dy int) {
	m := s.view.Map
	if m == nil {
		return
	}
	_, _, w, h := s.board.GetRect()
	s.look.X = min(max(s.look.X+dx*max(w/3, 1), 0), m.Width()-1)
	s.look.Y = min(max(s.look.Y+dy*max(h/3, 1), 0), m.Height()-1)
}

// NewSpectateScreen returns the spectator's screen of watch drawn on
// screen, which must already be initialised. It draws nothing; call Frame
// (or RunSpectate).
func NewSpectateScreen(screen tcell.Screen, watch Watcher, opts Options) *SpectateScreen {
	s := &SpectateScreen{watch: watch}
	s.screenBase = newBase(s, screen, opts, spectateKeyTable, "gridlag spectator: keys", true)
	s.legend = projectorLegend
	s.board = NewServerBoard(func() *client.WorldView { return &s.view })
	return s
}

// RunSpectate runs the spectator's screen for watch on screen, which must
// not be initialised yet, until the user quits, Options.Stop is closed or
// the connection ends (the screen then says why for Options.EndGrace, or
// until a key is pressed, and RunSpectate returns the connection's
// error). It does not close watch.
func RunSpectate(screen tcell.Screen, watch Watcher, opts Options) error {
	return runWatching(screen, watch, opts, func() app { return NewSpectateScreen(screen, watch, opts) })
}

// runWatching runs the app build makes, a screen of watch's (the
// spectator's, the teacher's), and returns the connection's error if the
// connection ended it.
func runWatching(screen tcell.Screen, watch Watcher, opts Options, build func() app) error {
	over, err := runApp(screen, opts, build)
	if err != nil {
		return err
	}
	if over {
		return watch.View().Err
	}
	return nil
}

// refresh takes watch's latest view into view, and notes in b whether
// the server let the connection in and when it has ended.
func refresh(watch Watcher, view *client.WorldView, b *screenBase) {
	*view = watch.View()
	b.began = b.began || view.Connected
	select {
	case <-watch.Done():
		b.ended = true
	default:
	}
}

// Frame takes a fresh view and draws it; it shows the frame if it changed
// anything and reports whether it did.
func (s *SpectateScreen) Frame() bool {
	prev := s.view
	refresh(s.watch, &s.view, &s.screenBase)
	blindWorld(&s.view)
	s.winner.note(prev.Round, s.view.Round, s.view.LastWinner, s.view.Now)
	return s.show(s.render)
}

// render draws the title, the server's board scaled to what the panel
// leaves of the window, and the panel (see projectorLayout).
func (s *SpectateScreen) render(screen tcell.Screen) {
	w, h := screen.Size()
	v := &s.view
	mw, mh := waitingWidth, 1 // before the map: room for "waiting for the server"
	if v.Map != nil {
		mw, mh = v.Map.Width(), v.Map.Height()
		if v.Map != s.lookedAt {
			s.look, s.lookedAt = grid.Pos{X: mw / 2, Y: mh / 2}, v.Map
		}
	}
	// A map larger than the screen is seen through the board's camera,
	// on a board at least the classic map's size; the panel goes beside
	// it, or under it on a narrow screen (a phone's).
	needW, needH := min(mw, minBoardW), min(mh, minBoardH)+1
	if !s.fits(screen, w >= needW && h >= needH, needW, needH) {
		return
	}
	beside := w >= needW+1+projectorPanelMin
	bw, sx, sy := w, 1, 1
	if beside {
		bw, sx, sy = projectorLayout(mw, mh, w, h)
	}
	if sx == 1 && sy == 1 {
		sx, sy = 0, 0 // the game's cells
	}
	s.board.board.Scale(sx, sy)
	s.board.Look(s.look)
	bh := h - 1
	if v.Map != nil {
		bh = min(bh, mh*max(sy, 1)) // the map alone: its lines are the panel's
	}
	s.board.SetRect(0, 1, bw, bh)
	s.board.Draw(screen)
	if s.winner.shown(v.Now) {
		s.winner.draw(screen, 0, 2, bw)
	}
	px, py, pw, ph := bw+1, 1, w-bw-1, h-1
	if !beside {
		px, py, pw, ph = 0, 1+bh, w, h-1-bh
	}
	names := s.board.marks(v)
	for i, l := range projectorPanel(v, names, pw, ph) {
		l.draw(screen, px, py+i, pw)
	}
	if s.results.shown(v) {
		drawPerceptionResults(screen, 0, 1, w, h-2, v.Perception)
	}
	fill(screen, 0, 0, w, 1, styleTitle)
	putText(screen, 1, 0, w-2, s.title(), styleTitle)
	if s.ended && v.Err != nil {
		drawEndedBox(screen, 0, 1, w, h-1, "watch ended: "+v.Err.Error())
	}
}

// BoardCell returns where the last frame drew map cell p's mark (see
// Board.Cell).
func (s *SpectateScreen) BoardCell(p grid.Pos) (x, y int, ok bool) {
	if s.tooSmall {
		return 0, 0, false
	}
	return s.board.Cell(p)
}

// title returns the top line: the server's notice if any, the title,
// the players, and why the connection ended if it did.
func (s *SpectateScreen) title() string {
	adds := fmt.Sprintf("  ·  %d players", s.view.Total)
	switch t := s.view.Teaching; {
	case s.ended:
	case s.view.Perception.Running():
		adds += "  ·  " + PerceptionLine(s.view.Perception)
	case t != nil:
		adds += "  ·  " + TeachingLine(t)
	}
	return watchTitle(s.opts.Title, "gridlag — spectating", adds, &s.view, s.ended)
}

// watchTitle is the top line of a screen that watches a room (the
// spectator's, the teacher's): the operator's notice (a drain's countdown)
// leading it as on a player's screen, the title (or deflt), what the
// screen adds, and whether the connection ended or is still coming.
func watchTitle(title, deflt, adds string, v *client.WorldView, ended bool) string {
	if title == "" {
		title = deflt
	}
	title += adds
	if v.Notice != "" && !ended {
		title = v.Notice + "  ·  " + title
	}
	switch {
	case ended && v.Err != nil:
		title += "  ·  ended: " + v.Err.Error()
	case ended:
		title += "  ·  ended"
	case !v.Connected:
		title += "  ·  connecting…"
	}
	return title
}

// nextChange returns how soon the last frame changes with time alone:
// FrameInterval while the followed student's ledger shows ages, else
// when the round's clock or a perception test's countdown shows the
// next second or the winner's banner comes down; 0 for never (the view
// changes when the server says something, which signals says).
func (s *SpectateScreen) nextChange() time.Duration {
	v := &s.view
	if st := followedSight(v); st != nil && len(st.Pending) > 0 {
		return FrameInterval
	}
	return sooner(roundNext(v.Round, v.RoundLeft, &s.winner, v.Now), countdown(v.Perception))
}

// signals returns the connection's: something came, it ended.
func (s *SpectateScreen) signals() (changed, done <-chan struct{}) {
	return s.watch.Changed(), s.watch.Done()
}
