package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// Teacher is what the teacher's screen needs from its connection: a
// Watcher (tcp.Watch of client.Options.Teach) that sets its room's
// network and switches. All its methods are safe for concurrent use.
type Teacher interface {
	Watcher
	// Teach sets the room's Conditions; the server says them back.
	Teach(t client.Teaching)
	// Perceive starts a run of the room's perception test of settings s,
	// or stops the one in progress (nil); the server says where the run
	// is (View().Perception). Settings that fail their Check are not
	// sent.
	Perceive(s *perception.Settings) error
	// Follow follows student id on the room's projectors (0: nobody);
	// the server says it back (View().Following).
	Follow(id grid.PlayerID)
	// NewCode asks for a new class code: the old one admits nobody
	// more; the server says the new one (View().ClassCode).
	NewCode()
	// Crowd asks for bots of the server's own in the room (0: none) and
	// its areas of interest on or off; the server says what it gave
	// (View().Crowd).
	Crowd(bots int, areasOff bool)
}

// The steps of the teacher's controls: the keys go round them, the
// buttons up and down them.
var (
	teachJitterSteps = []time.Duration{0, 10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}
	teachLossSteps   = []float64{0, 0.002, 0.01, 0.02, 0.04, 0.1, 0.25}
	teachRateSteps   = []int{0, 1, 3, 5, 10, 20, 30, 60}
	// teachHolds is the round a hold key goes: a teacher turns a switch
	// off for everyone first, the article's demonstration.
	teachHolds = []protocol.Hold{protocol.HoldNone, protocol.HoldOff, protocol.HoldOn}
)

// teachKeyTable is every key of the teacher's screen.
var teachKeyTable = []binding[*TeachScreen]{
	{label: "- + [ ]", help: "every student's round trip -/+ 10, 50 ms (also _ =), half each way", brief: "- + [ ]", group: "rtt", keys: concat(
		runeKeys("-_", func(s *TeachScreen) { s.lat.step(-FineStep) }), runeKeys("+=", func(s *TeachScreen) { s.lat.step(FineStep) }),
		runeKeys("[", func(s *TeachScreen) { s.lat.step(-CoarseStep) }), runeKeys("]", func(s *TeachScreen) { s.lat.step(CoarseStep) }),
	)},
	{label: "j", help: "jitter: 0, 10, 20, 50, 100, 200 ms per message, round again", brief: "j", group: "jitter", keys: runeKeys("j", func(s *TeachScreen) {
		s.changeNet(func(t *client.Teaching) { t.Jitter = stepTo(teachJitterSteps, t.Jitter, true, true) })
	})},
	{label: "l", help: "loss: 0, 0.2, 1, 2, 4, 10, 25 %, either way, resent as TCP does", brief: "l", group: "loss", keys: runeKeys("l", func(s *TeachScreen) {
		s.changeNet(func(t *client.Teaching) { t.Loss = stepTo(teachLossSteps, t.Loss, true, true) })
	})},
	{label: "g", help: "named link: good, average, poor, none (latency, jitter, loss)", keys: runeKeys("g", (*TeachScreen).nextPreset)},
	{label: "n", help: "the server's traces (networks that change over time), then none", keys: runeKeys("n", (*TeachScreen).nextTrace)},
	// The holds share a row, as the round trip's keys do: the help has
	// to fit 80x24.
	{label: "p r i", help: "prediction, reconciliation, interpolation: class chooses, off, on", brief: "p r i", group: "hold", keys: concat(
		runeKeys("p", func(s *TeachScreen) { s.cycleHold(predictToggle) }),
		runeKeys("r", func(s *TeachScreen) { s.cycleHold(reconcileToggle) }),
		runeKeys("i", func(s *TeachScreen) { s.cycleHold(interpolateToggle) }),
	)},
	{label: "u", help: "update rate: per input, 1, 3, 5, 10, 20, 30, 60 /s, round again", brief: "u", group: "rate", keys: runeKeys("u", func(s *TeachScreen) {
		s.change(func(t *client.Teaching) { t.Rate = stepTo(teachRateSteps, t.Rate, true, true) })
	})},
	{label: "c", help: "the room's lag compensation on/off", brief: "c", group: "lagcomp", keys: runeKeys("c", func(s *TeachScreen) {
		s.change(func(t *client.Teaching) { t.LagComp = !t.LagComp })
	})},
	{label: "0", help: "release all: no network, the students' switches, the room's rate", keys: runeKeys("0", (*TeachScreen).releaseAll)},
	// The perception test's keys share a row: the help has to fit 80x24.
	{label: "e v o", help: "perception test: e start/stop, v on/off/both, o results or board", keys: concat(
		runeKeys("e", (*TeachScreen).startStop), runeKeys("v", (*TeachScreen).nextMode), resultsBinding[*TeachScreen]().keys,
	)},
	// The scale panel's keys share a row too (teachcrowd.go).
	{label: "b d a w", help: "crowd: b more bots (10, 100, 1,000), d fewer, a areas on/off, w board", keys: concat(
		runeKeys("b", func(s *TeachScreen) { s.crowdStep(true) }), runeKeys("d", func(s *TeachScreen) { s.crowdStep(false) }),
		runeKeys("a", (*TeachScreen).crowdAreas), runeKeys("w", func(s *TeachScreen) { s.crowd.board = !s.crowd.board }),
	)},
	{label: "f x k", help: "projectors follow the next student, x: none; k: a new class code", keys: concat(
		runeKeys("f", (*TeachScreen).followNext), runeKeys("x", func(s *TeachScreen) { s.follow(0) }),
		runeKeys("k", (*TeachScreen).newCode),
	)},
	{label: "PgUp PgDn", help: "page through the students", keys: []keyDo[*TeachScreen]{
		{key: tcell.KeyPgUp, do: func(s *TeachScreen) { s.page(-1) }},
		{key: tcell.KeyPgDn, do: func(s *TeachScreen) { s.page(1) }},
	}},
	{label: "arrows", help: "look around a map larger than the screen", keys: []keyDo[*TeachScreen]{
		{key: tcell.KeyLeft, do: func(s *TeachScreen) { s.pan(-1, 0) }},
		{key: tcell.KeyRight, do: func(s *TeachScreen) { s.pan(1, 0) }},
		{key: tcell.KeyUp, do: func(s *TeachScreen) { s.pan(0, -1) }},
		{key: tcell.KeyDown, do: func(s *TeachScreen) { s.pan(0, 1) }},
	}},
	{label: "mouse", help: "click [-] [+], holds, preset, trace, buttons; a student to follow"},
	helpBinding[*TeachScreen](),
	quitBinding[*TeachScreen](),
}

// TeachKeyHelp returns one line per row of the teacher's key table, for
// gridlag -help.
func TeachKeyHelp() []string { return tableHelp(teachKeyTable) }

// teachPanelWidth is the width of the teacher's panel, beside the board.
const teachPanelWidth = 38

// Rows of the teacher's panel, from its top.
const (
	teachNetHead = iota
	teachLatRow
	teachJitterRow
	teachLossRow
	teachTraceRow // the trace the network follows, and its step
	teachHoldHead
	teachPredictRow // the first of the holds, a row each
	teachRateRow    = teachPredictRow + 3
	teachCompRow    = teachRateRow + 1
	teachTestRow    = teachCompRow + 1 // the perception test
	teachCodeRow    = teachTestRow + 1 // the class's code
	teachClassHead  = teachCodeRow + 1
	teachClassRow   = teachClassHead + 1 // the first student
)

// TeachScreen is the teacher's screen: the room as the server sees it (its
// board, as a spectator's), and a panel of the room's Conditions (the
// students' round trip, jitter and loss, the switches held for everyone,
// the update rate and lag compensation), each a control, and of every
// student with the round trip, pending inputs and corrections it last
// reported, so that the teacher sees the class feel it. The teacher
// picks the student the room's projectors follow (f, F, a click on its
// row), marked ▸ in the list and drawn on the board as it sees itself. It belongs to one
// goroutine: the loop of RunTeach, or a test calling HandleKey and Frame
// in turn.
type TeachScreen struct {
	screenBase
	teacher Teacher
	view    client.WorldView // the view the last frame drew
	board   *ServerBoard

	// want is what the panel shows and the controls change: the server's
	// last word, and what was sent since (sent, not yet said back, in
	// order); heard is the server's word it was last taken from.
	want  client.Teaching
	sent  []protocol.Conditions
	heard *client.Teaching
	// own is the room's rate and lag compensation as the class began,
	// which releasing everything gives back.
	own  *client.Teaching
	from int // the first student listed (PgUp, PgDn)

	look     grid.Pos
	lookedAt *grid.Map

	lat, jitter                        *Slider
	lossDown, lossUp, rateDown, rateUp *button
	preset, release, trace             *button
	holds                              []*button // in the order of toggles
	lagComp                            *checkbox
	rows                               []*button // the class list's rows, a click follows the student
	// chose is the student this screen last chose to follow, while the
	// server has not said so (choosing), and chosenFrom whom the server
	// said the room followed then: f pressed again goes on from the
	// choice, not from the server's word of before.
	chose, chosenFrom grid.PlayerID
	choosing          bool

	// The perception test (perceive.go): the next run's settings, the
	// button that starts or stops a run and the one of its prediction,
	// and the choice of board or results.
	test                 perception.Settings
	testButton, testMode *button
	results              perceptionResults

	crowd teachCrowd // the scale panel (teachcrowd.go)
}

// NewTeachScreen returns the teacher's screen of teacher drawn on screen,
// which must already be initialised. It draws nothing; call Frame (or
// RunTeach).
func NewTeachScreen(screen tcell.Screen, teacher Teacher, opts Options) *TeachScreen {
	s := &TeachScreen{teacher: teacher}
	s.screenBase = newBase(s, screen, opts, teachKeyTable, "gridlag teacher: keys", false)
	s.legend = teachLegendHelp // the room's board and the class, not a player's view
	s.board = NewServerBoard(func() *client.WorldView { return &s.view })
	s.lat = newStepSlider(func() time.Duration { return s.want.Latency }, func(d time.Duration) {
		s.changeNet(func(t *client.Teaching) { t.Latency = d })
	})
	s.jitter = newStepSlider(func() time.Duration { return s.want.Jitter }, func(d time.Duration) {
		s.changeNet(func(t *client.Teaching) { t.Jitter = d })
	})
	s.lossDown = newButton("[-]", func() {
		s.changeNet(func(t *client.Teaching) { t.Loss = stepTo(teachLossSteps, t.Loss, false, false) })
	})
	s.lossUp = newButton("[+]", func() { s.changeNet(func(t *client.Teaching) { t.Loss = stepTo(teachLossSteps, t.Loss, true, false) }) })
	s.rateDown = newButton("[-]", func() { s.change(func(t *client.Teaching) { t.Rate = stepTo(teachRateSteps, t.Rate, false, false) }) })
	s.rateUp = newButton("[+]", func() { s.change(func(t *client.Teaching) { t.Rate = stepTo(teachRateSteps, t.Rate, true, false) }) })
	s.preset = newButton("[preset]", s.nextPreset)
	s.trace = newButton("[no trace]", s.nextTrace)
	s.release = newButton("[release all]", s.releaseAll)
	for _, t := range toggles {
		s.holds = append(s.holds, newButton("", func() { s.cycleHold(t) }))
	}
	s.lagComp = newCheckbox(" lag compensation", " (c)", func() bool { return s.want.LagComp }, func() {
		s.change(func(t *client.Teaching) { t.LagComp = !t.LagComp })
	})
	s.test = opts.Perception
	if s.test.Check() != nil {
		s.test = perception.DefaultSettings()
	}
	s.testButton = newButton("[start]", s.startStop)
	s.testMode = newButton("", s.nextMode)
	return s
}

// startStop starts a run of the perception test with the screen's
// settings, or stops the one in progress.
func (s *TeachScreen) startStop() {
	if s.ended || !s.view.Connected {
		return
	}
	if s.view.Perception.Running() {
		s.teacher.Perceive(nil)
		return
	}
	s.teacher.Perceive(&s.test)
}

// nextMode gives the next run the next prediction: on, off, both.
func (s *TeachScreen) nextMode() { s.test.Mode = s.test.Mode.Next() }

// perceptionResults returns the screen's choice of board or results.
func (s *TeachScreen) perceptionResults() *perceptionResults { return &s.results }

// RunTeach runs the teacher's screen for teacher on screen, which must
// not be initialised yet, until the user quits, Options.Stop is closed or
// the connection ends (the screen then says why for Options.EndGrace, or
// until a key is pressed, and RunTeach returns the connection's error).
// It does not close teacher.
func RunTeach(screen tcell.Screen, teacher Teacher, opts Options) error {
	return runWatching(screen, teacher, opts, func() app { return NewTeachScreen(screen, teacher, opts) })
}

// Frame takes a fresh view and draws it; it shows the frame if it changed
// anything and reports whether it did.
func (s *TeachScreen) Frame() bool {
	refresh(s.teacher, &s.view, &s.screenBase)
	blindWorld(&s.view)
	s.heed()
	return s.show(s.render)
}

// heed takes the server's word on the room's Conditions, when it is new:
// the answer to something this screen sent (and to all it sent before), or
// another teacher's (or the server's) word, which replaces what it
// waited for.
func (s *TeachScreen) heed() {
	t := s.view.Teaching
	if t == nil || s.heard != nil && *s.heard == *t {
		return
	}
	heard := *t
	s.heard = &heard
	if s.own == nil {
		s.own = &heard
	}
	// The server answers what this screen sent in order, but a frame may
	// see only the last of several answers: what it answers is done, and
	// what was sent after it is still on its way.
	for i, c := range s.sent {
		if c != t.Conditions() {
			continue
		}
		s.sent = s.sent[i+1:]
		if len(s.sent) > 0 {
			s.want.Teachers = t.Teachers
			return // more is on its way: the panel shows the latest sent
		}
		break
	}
	s.sent = s.sent[:0]
	s.want = heard
}

// change changes what the panel shows with f and sends it, if it changed
// anything; nothing before the room's Conditions came.
func (s *TeachScreen) change(f func(t *client.Teaching)) {
	if s.heard == nil || s.ended {
		return
	}
	t := s.want
	f(&t)
	if t == s.want {
		return
	}
	s.want = t
	s.sent = append(s.sent, t.Conditions())
	s.teacher.Teach(t)
}

// changeNet is change for the network's figures: the teacher takes the
// network over from the trace it followed, if any, from the figures the
// trace had set.
func (s *TeachScreen) changeNet(f func(t *client.Teaching)) {
	s.change(func(t *client.Teaching) {
		t.Trace, t.Step = "", ""
		f(t)
	})
}

// nextTrace gives the network the next trace the server offers after the
// one it follows (the first if none), and none after the last.
func (s *TeachScreen) nextTrace() {
	traces := s.view.Traces
	if len(traces) == 0 {
		return
	}
	s.change(func(t *client.Teaching) {
		next := 0
		for i, tr := range traces {
			if tr.Name == t.Trace {
				next = i + 1
			}
		}
		t.Step = ""
		if next == len(traces) {
			t.Trace = ""
			return
		}
		t.Trace = traces[next].Name
	})
}

// cycleHold holds switch t for everyone the next way: the students
// choose, off, on.
func (s *TeachScreen) cycleHold(t *toggle) {
	s.change(func(tt *client.Teaching) {
		h := holdOf(tt, t)
		for i, x := range teachHolds {
			if x == *h {
				*h = teachHolds[(i+1)%len(teachHolds)]
				return
			}
		}
		*h = protocol.HoldNone
	})
}

// holdOf returns the field of tt that holds switch t.
func holdOf(tt *client.Teaching, t *toggle) *protocol.Hold {
	switch t {
	case predictToggle:
		return &tt.Predict
	case reconcileToggle:
		return &tt.Reconcile
	}
	return &tt.Interpolate
}

// presetOf returns the name of the named link t's network is, "" if none.
func presetOf(t *client.Teaching) string {
	for _, p := range link.Presets() {
		if t.Latency == p.RTT() && t.Jitter == p.Jitter() && t.Loss == p.Loss {
			return p.Name
		}
	}
	return ""
}

// nextPreset sets the next named link after the one in force (the first
// if none is), and no network after the last.
func (s *TeachScreen) nextPreset() {
	s.changeNet(func(t *client.Teaching) {
		presets := link.Presets()
		next := 0
		for i, p := range presets {
			if p.Name == presetOf(t) {
				next = i + 1
			}
		}
		if next == len(presets) {
			t.Latency, t.Jitter, t.Loss = 0, 0, 0
			return
		}
		p := presets[next]
		t.Latency, t.Jitter, t.Loss = p.RTT(), p.Jitter(), p.Loss
	})
}

// releaseAll gives the students back their own network and switches,
// and the room its own rate and lag compensation.
func (s *TeachScreen) releaseAll() {
	s.change(func(t *client.Teaching) {
		*t = client.Teaching{Teachers: t.Teachers, Rate: s.own.Rate, LagComp: s.own.LagComp}
	})
}

// follow has the room's projectors follow student id (0: nobody).
func (s *TeachScreen) follow(id grid.PlayerID) {
	if s.ended || !s.view.Connected {
		return
	}
	if !s.choosing {
		s.chosenFrom = s.view.Following
	}
	s.chose, s.choosing = id, true
	s.teacher.Follow(id)
}

// following returns the student the room follows: the one this screen
// chose, until the server says whom (it or another teacher's choice).
func (s *TeachScreen) following() grid.PlayerID {
	if s.choosing && s.view.Following == s.chosenFrom {
		return s.chose
	}
	s.choosing = false
	return s.view.Following
}

// followNext follows the student after the one followed in the class
// list (the first when none is), and nobody after the last.
func (s *TeachScreen) followNext() {
	players := s.view.Players
	next, now := 0, s.following()
	for i, p := range players {
		if p.ID == now {
			next = i + 1
		}
	}
	if next < len(players) {
		s.follow(players[next].ID)
		return
	}
	s.follow(0)
}

// page moves the list of students by a page.
func (s *TeachScreen) page(d int) {
	_, _, _, h := s.board.GetRect()
	s.from = max(s.from+d*max(h-teachClassRow-1, 1), 0)
}

// pan moves the look by a third of the board along dx, dy, within the
// map.
func (s *TeachScreen) pan(dx, dy int) {
	m := s.view.Map
	if m == nil {
		return
	}
	_, _, w, h := s.board.GetRect()
	s.look.X = min(max(s.look.X+dx*max(w/3, 1), 0), m.Width()-1)
	s.look.Y = min(max(s.look.Y+dy*max(h/3, 1), 0), m.Height()-1)
}

// render draws the title, the room's board beside the panel, and the
// keys' reminder.
func (s *TeachScreen) render(screen tcell.Screen) {
	w, h := screen.Size()
	v := &s.view
	mw, mh := waitingWidth, 1
	if v.Map != nil {
		mw, mh = v.Map.Width(), v.Map.Height()
		if v.Map != s.lookedAt {
			s.look, s.lookedAt = grid.Pos{X: mw / 2, Y: mh / 2}, v.Map
		}
	}
	needW, needH := min(mw, minBoardW)+1+teachPanelWidth, min(mh, minBoardH)+2
	if !s.fits(screen, w >= needW && h >= needH, needW, needH) {
		return
	}
	// The line that says how the class joins with its code takes a row
	// of the board's at 80x24: the arrows look at the row it hides.
	join := s.joinLine(w)
	bottom := h - 2 // the board's and panel's height
	if join != "" {
		bottom--
	}
	bw, bh := min(mw, w-1-teachPanelWidth), min(mh, bottom)
	s.board.Look(s.look)
	s.board.SetRect(0, 1, bw, bh)
	s.board.Draw(screen)
	s.drawPanel(screen, bw+1, 1, w-bw-1, bottom)
	if bottom < h-2 {
		putText(screen, 0, h-2, w, join, styleTitle)
	}
	if s.crowdShown() {
		s.drawCrowd(screen, 0, 1, w-1-teachPanelWidth, bottom)
	}
	if s.results.shown(v) {
		drawPerceptionResults(screen, 0, 1, w, h-2, v.Perception)
	}
	fill(screen, 0, 0, w, 1, styleTitle)
	putText(screen, 1, 0, w-2, s.title(), styleTitle)
	putText(screen, 0, h-1, w, tableBottomLine(teachKeyTable), styleDim)
	if s.ended && v.Err != nil {
		drawEndedBox(screen, 0, 1, w, h-2, "teaching ended: "+v.Err.Error())
	}
}

// BoardCell returns where the last frame drew map cell p's mark (see
// Board.Cell).
func (s *TeachScreen) BoardCell(p grid.Pos) (x, y int, ok bool) {
	if s.tooSmall {
		return 0, 0, false
	}
	return s.board.Cell(p)
}

// title returns the top line: the server's notice if any, the title, the
// students and the teachers, and why the connection ended if it did.
func (s *TeachScreen) title() string {
	students := s.view.Total
	if c := s.view.Crowd; c != nil && c.Bots > 0 {
		students = max(students-int(c.Bots), 0) // the teacher's bots are no students
	}
	adds := fmt.Sprintf("  ·  %d student%s", students, pluralS(students))
	if c := s.view.Crowd; c != nil && c.Bots > 0 {
		adds += fmt.Sprintf("  ·  %s bots", count(int(c.Bots)))
	}
	if t := s.view.Teaching; t != nil && t.Teachers > 1 {
		adds += fmt.Sprintf("  ·  %d teachers", t.Teachers)
	}
	if name := followedName(&s.view); name != "" {
		adds += "  ·  following " + name
	}
	if line := PerceptionLine(s.view.Perception); line != "" && !s.ended {
		adds += "  ·  " + line
	}
	if s.opts.Invite != "" {
		adds += "  ·  students join: " + s.opts.Invite
	}
	return watchTitle(s.opts.Title, "gridlag — teaching", adds, &s.view, s.ended)
}

// joinLine is the line that says how students join with the class's
// code, at most w wide: the code, then as many of the ways to join with
// it as fit (Options.JoinCode); "" before the server said a code.
func (s *TeachScreen) joinLine(w int) string {
	code := s.view.ClassCode
	if code == "" || s.ended {
		return ""
	}
	line := " students join with code " + code
	if s.opts.JoinCode == nil {
		return line
	}
	ways := s.opts.JoinCode(code)
	for n := len(ways); n > 0; n-- {
		for _, f := range [][2]string{{" join: ", "  or  "}, {" ", " · "}} {
			if l := f[0] + strings.Join(ways[:n], f[1]); textWidth(l) <= w {
				return l
			}
		}
	}
	return line
}

// newCode asks the server for a new class code.
func (s *TeachScreen) newCode() {
	if s.view.ClassCode != "" {
		s.teacher.NewCode()
	}
}

// drawPanel draws the controls and the students into the rectangle.
func (s *TeachScreen) drawPanel(screen tcell.Screen, x, y, w, h int) {
	row := func(r int) *rowWriter {
		return &rowWriter{screen: screen, ctl: &s.controls, x: x, y: y + r, end: x + w}
	}
	if s.heard == nil {
		putText(screen, x, y, w, "waiting for the room…", styleDim)
		return
	}
	t := &s.want
	hint := func(r *rowWriter, keys string) {
		if r.end-r.x > textWidth(keys) {
			r.text(" "+keys, styleDim)
		}
	}
	r := row(teachNetHead)
	r.text("Network", styleHeading)
	r.text(" every student, both ways", styleDim)

	r = row(teachLatRow)
	r.text("latency ", styleText)
	s.lat.SetValue(t.Latency)
	r.put(s.lat)
	r.text(" "+millis(t.Latency/2)+" each way", styleText)
	hint(r, tableGroupLabels(teachKeyTable, "rtt"))

	r = row(teachJitterRow)
	r.text("jitter  ", styleText)
	s.jitter.SetValue(t.Jitter)
	r.put(s.jitter)
	hint(r, "j")

	r = row(teachLossRow)
	r.text("loss    ", styleText)
	r.put(s.lossDown)
	r.text(fmt.Sprintf(" %5s ", lossText(t.Loss)), styleText)
	r.put(s.lossUp)
	r.text(" ", styleText)
	s.preset.label = "[no preset]"
	if name := presetOf(t); name != "" {
		s.preset.label = "[" + name + "]"
	}
	r.put(s.preset)
	hint(r, "l g")

	r = row(teachTraceRow)
	r.text("trace   ", styleText)
	switch {
	case t.Trace != "":
		s.trace.label = "[" + t.Trace + "]"
		r.put(s.trace)
		r.text(" "+t.Step, styleWarn)
	case len(s.view.Traces) > 0:
		s.trace.label = "[no trace]"
		r.put(s.trace)
		hint(r, "n")
	default:
		r.text("none offered", styleDim)
	}

	r = row(teachHoldHead)
	r.text("Netcode", styleHeading)
	r.text(" held for everyone", styleDim)
	for i, tg := range toggles {
		r = row(teachPredictRow + i)
		r.text(fmt.Sprintf("%-15s", tg.name), styleText)
		h := *holdOf(t, tg)
		b := s.holds[i]
		b.label = "[" + h.String() + "]"
		if h == protocol.HoldNone {
			r.put(b)
		} else {
			// A held switch stands out: the class cannot change it.
			n := min(textWidth(b.label), r.end-r.x)
			s.controls.draw(screen, b, r.x, r.y, n, 1)
			putText(screen, r.x, r.y, n, b.label, styleWarn)
			r.x += n
		}
		hint(r, string("pri"[i]))
	}

	r = row(teachRateRow)
	r.text("updates        ", styleText)
	r.put(s.rateDown)
	r.text(fmt.Sprintf(" %9s ", rateText(t.Rate)), styleText)
	r.put(s.rateUp)
	hint(r, "u")

	r = row(teachCompRow)
	r.put(s.lagComp)
	r.text("  ", styleText)
	r.put(s.release)
	hint(r, "0")

	s.drawTestRow(row(teachTestRow), hint)

	r = row(teachCodeRow)
	r.text("class code ", styleText)
	if code := s.view.ClassCode; code != "" {
		r.text(code, styleHeading)
		hint(r, "k new")
	} else {
		r.text("none (an old server)", styleDim)
	}

	s.drawStudents(screen, x, y+teachClassHead, w, h-teachClassHead)
}

// drawStudents draws the heading of the class and a row per student from
// s.from, as many as fit, then how many more there are: the round trip
// the student measured (the server's, marked ~, for a client too old to
// report), its pending inputs and its corrections.
func (s *TeachScreen) drawStudents(screen tcell.Screen, x, y, w, rows int) {
	if rows <= 0 {
		return
	}
	v := &s.view
	players := v.Players
	nameW := 4
	for _, p := range players {
		nameW = max(nameW, min(textWidth(p.Name), scoreNameWidth))
	}
	n := putText(screen, x, y, w, fmt.Sprintf("%-*s", nameW+2, "Class"), styleHeading)
	n += putText(screen, x+n, y, w-n, fmt.Sprintf(" %6s %4s %5s", "rtt", "pend", "corr"), styleDim)
	if hint := "  f follow"; w-n >= textWidth(hint) {
		putText(screen, x+n, y, w-n, hint, styleKey)
	}
	rows--
	s.from = min(s.from, max(len(players)-rows, 0))
	list := players[s.from:]
	more := 0
	if len(list) > rows {
		list, more = list[:max(rows-1, 0)], len(list)-max(rows-1, 0)
	}
	names := s.board.marks(v)
	for len(s.rows) < len(list) {
		s.rows = append(s.rows, newButton("", nil))
	}
	for i, p := range list {
		id := p.ID
		s.rows[i].do = func() {
			if id == s.following() {
				id = 0 // a click on the followed student: nobody
			}
			s.follow(id)
		}
		s.controls.draw(screen, s.rows[i], x, y+1+i, w, 1)
		n := putText(screen, x, y+1+i, w, names.of(p.ID, p.Name), playerStyle(p.Color, p.Bot))
		mark := " "
		if p.ID == v.Following {
			mark = "▸"
		}
		line := mark + padText(p.Name, nameW) + " " + studentFigures(p, v)
		putText(screen, x+n, y+1+i, w-n, line, tcell.StyleDefault.Foreground(PlayerColor(p.Color)))
	}
	if more > 0 {
		putText(screen, x, y+1+len(list), w, fmt.Sprintf("… and %d more (PgDn)", more), styleDim)
	}
}

// studentFigures writes a student's round trip, pending inputs and
// corrections in their columns: the student's report, or the server's
// round trip (~) where it never reported.
func studentFigures(p client.WorldPlayer, v *client.WorldView) string {
	if test := v.Perception; test.Running() {
		// Figures that follow the round trip would give it away: whether
		// the student answered the round instead.
		mark := "·"
		if test.Phase == protocol.TrialAnswer {
			mark = "✓"
			if slices.Contains(test.Waiting, p.ID) {
				mark = "…"
			}
		}
		return fmt.Sprintf("%6s %4s %5s", mark, "", "")
	}
	if r, ok := v.Report(p.ID); ok {
		rtt := "-"
		if r.HasRTT {
			rtt = millis(r.RTT)
		}
		return fmt.Sprintf("%6s %4d %5d", rtt, r.Pending, r.Corrections)
	}
	rtt := "-"
	if p.HasRTT {
		rtt = "~" + millis(p.RTT)
	}
	return fmt.Sprintf("%6s %4s %5s", rtt, "-", "-")
}

// nextChange returns 0 (the view changes only when the server says
// something, which signals says), or the next second of a perception
// test's countdown.
func (s *TeachScreen) nextChange() time.Duration { return countdown(s.view.Perception) }

// signals returns the connection's: something came, it ended.
func (s *TeachScreen) signals() (changed, done <-chan struct{}) {
	return s.teacher.Changed(), s.teacher.Done()
}

// stepTo returns the step of steps after cur (up) or before it, going
// round past the last (or first) with wrap, else staying there.
func stepTo[T cmp.Ordered](steps []T, cur T, up, wrap bool) T {
	if up {
		for _, st := range steps {
			if st > cur {
				return st
			}
		}
		if wrap {
			return steps[0]
		}
		return steps[len(steps)-1]
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i] < cur {
			return steps[i]
		}
	}
	if wrap {
		return steps[len(steps)-1]
	}
	return steps[0]
}

// lossText writes a loss (0 to 1) as a percentage: "2%", "0.2%".
func lossText(p float64) string {
	return strconv.FormatFloat(float64(int(p*10000+0.5))/100, 'f', -1, 64) + "%"
}

// teacherNetwork says what network the room's teacher adds to a
// student's own, for the student's panel under its latency slider.
func teacherNetwork(t *client.Teaching) string {
	if !t.Network() {
		return "teacher adds no lag"
	}
	return "+ teacher's " + networkText(t)
}

// networkText writes a teacher's network: "300ms round trip ±20ms 2%
// loss", and the trace it follows: "trace starlink (satellite
// handover): 70ms round trip ±7ms 2% loss".
func networkText(t *client.Teaching) string {
	var net []string
	if t.Trace != "" {
		trace := "trace " + t.Trace
		if t.Step != "" {
			trace += " (" + t.Step + ")"
		}
		net = append(net, trace+":")
	}
	if t.Latency > 0 {
		net = append(net, millis(t.Latency)+" round trip")
	}
	if t.Jitter > 0 {
		net = append(net, "±"+millis(t.Jitter))
	}
	if t.Loss > 0 {
		net = append(net, lossText(t.Loss)+" loss")
	}
	return strings.Join(net, " ")
}

// TeachingLine says in a line what the room's teacher set, for a
// student's and a spectator's top line: "teacher: 300ms round trip ±20ms
// 2% loss, prediction off".
func TeachingLine(t *client.Teaching) string {
	parts := []string{"no added lag"}
	if t.Network() {
		parts[0] = networkText(t)
	}
	for _, tg := range toggles {
		if h := tg.hold(t); h != protocol.HoldNone {
			parts = append(parts, tg.name+" "+holdWord(h))
		}
	}
	return "teacher: " + strings.Join(parts, ", ")
}
