package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/internal/link"
	"gridlag/lab/sim"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/tui"
)

// classRig is a teacher's screen at 80x24 and one student's at 80x24, in
// room "lecture" of a simulated world with two more students.
type classRig struct {
	teacherTerm, studentTerm simTerm
	world                    *sim.World
	teacher                  *tui.TeachScreen
	student                  *tui.UI
	ada                      *sim.Client
}

func newClassRig(t *testing.T) *classRig {
	t.Helper()
	var traces []*link.Trace // the bundled ones, as a server offers them
	for _, name := range link.BundledTraces() {
		tr, err := link.BundledTrace(name)
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
	}
	w := sim.NewHub(hub.Options{Config: world.Config{Rate: 20}, Traces: traces})
	w.PingEvery(time.Second)
	ada := w.Join("ada", client.Options{Room: "lecture"})
	w.Join("bob", client.Options{Room: "lecture"})
	w.Join("carol", client.Options{Room: "lecture"})
	watch := w.Watch("hopper", client.Options{Room: "lecture", Teach: true}, true)
	ts, ss := newScreen(t, 80, 24), newScreen(t, 80, 24)
	r := &classRig{
		teacherTerm: simTerm{t, ts}, studentTerm: simTerm{t, ss}, world: w, ada: ada,
		teacher: tui.NewTeachScreen(ts, watch, tui.Options{Title: "gridlag — teaching lecture"}),
		student: tui.New(ss, ada, tui.Options{Title: "gridlag — room lecture"}),
	}
	r.advance(2 * time.Second)
	return r
}

// advance moves the clock and draws both screens.
func (r *classRig) advance(d time.Duration) {
	r.world.Advance(d)
	r.teacher.Frame()
	r.student.Frame()
}

// keys presses the teacher's keys, a frame after each.
func (r *classRig) keys(keys string) {
	for _, k := range keys {
		r.teacher.HandleKey(tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone))
		r.teacher.Frame()
	}
}

// TestTeachScreen: at 80x24 the teacher sees the room's board beside the
// panel; 300 ms set with six presses of ] reaches every student within a
// second: the class's rows say 300ms, and the student's top line says
// the teacher set it. Prediction held off is said on the student's
// screen, and its press of p there says who holds it.
func TestTeachScreen(t *testing.T) {
	r := newClassRig(t)
	r.teacherTerm.mustShow("teaching lecture", "3 students", "Network", "latency [-]", "Netcode", "prediction", "[students choose]", "Class", "ada", "bob", "carol", "q quit")
	r.keys("]]]]]]")
	r.teacherTerm.mustShow("300ms [+] 150ms each way")
	r.advance(time.Second)
	t.Logf("teacher at 80x24:\n%s", r.teacherTerm.text())
	for _, name := range []string{"ada", "bob", "carol"} {
		row := ""
		for _, l := range rows(r.teacherTerm.screen) {
			if i := strings.Index(l, name+" "); i > 40 {
				row = l[i:]
			}
		}
		if !strings.Contains(row, " 300ms ") {
			t.Errorf("the teacher's row of %s is %q, want its round trip of 300ms", name, row)
		}
	}
	r.studentTerm.mustShow("+ teacher's 300ms round trip", "rtt 300ms")

	r.keys("p")
	r.advance(time.Second)
	r.teacherTerm.mustShow("[off for all]")
	r.studentTerm.mustShow("teacher: 300ms round trip, pred", "[ ] prediction     (p) teacher")
	r.student.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'p', tcell.ModNone))
	r.student.Frame()
	r.studentTerm.mustShow("the teacher turned prediction off")
	if r.ada.View().Predict {
		t.Error("the student turned held prediction back on")
	}
	t.Logf("student at 80x24:\n%s", r.studentTerm.text())

	r.keys("0")
	r.advance(3 * time.Second) // the student's word on its press is gone too
	r.teacherTerm.mustShow("0ms [+] 0ms each way", "[students choose]")
	r.studentTerm.mustNotShow("prediction off")
}

// TestTeachScreenMouse: the teacher's buttons are widgets: a click on the
// loss's [+] sets 0.2 %, on the interpolation's hold turns it off for
// everyone.
func TestTeachScreenMouse(t *testing.T) {
	r := newClassRig(t)
	click := func(label string, nth int) {
		t.Helper()
		for y, l := range rows(r.teacherTerm.screen) {
			if i := strings.Index(l, label); i >= 0 && strings.Contains(l, []string{"loss", "interpolation"}[nth]) {
				x := len([]rune(l[:i]))
				r.teacher.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone))
				r.teacher.Frame()
				return
			}
		}
		t.Fatalf("no %q on the screen:\n%s", label, r.teacherTerm.text())
	}
	click("[+]", 0)
	click("[students choose]", 1)
	r.advance(time.Second)
	r.teacherTerm.mustShow("0.2% [+]")
	if v := r.ada.View(); v.Teaching == nil || v.Teaching.Loss != 0.002 || v.Interpolate {
		t.Errorf("ada's teaching %+v, interpolation %v: want 0.2%% loss and interpolation off", v.Teaching, v.Interpolate)
	}
}

// TestTeachScreenPressesFasterThanFrames: answers to two of the teacher's
// presses that come between two frames (the screen sees the second
// only) are both the server's word on what it sent, not another
// teacher's: the presses still on their way stand, and the next press
// goes on from them (the real terminal lost a press of ] this way: six
// presses set 250 ms).
func TestTeachScreenPressesFasterThanFrames(t *testing.T) {
	r := newClassRig(t)
	press := func() { r.teacher.HandleKey(tcell.NewEventKey(tcell.KeyRune, ']', tcell.ModNone)) }
	press()
	press()
	r.world.Advance(100 * time.Millisecond) // both answered, no frame yet
	press()
	r.teacher.Frame()
	press()
	r.teacher.Frame()
	r.advance(time.Second)
	r.teacherTerm.mustShow("200ms [+] 100ms each way")
	if v := r.ada.View(); v.Teaching == nil || v.Teaching.Latency != 200*time.Millisecond {
		t.Fatalf("ada's teaching is %+v after four presses of ]; want 200ms", v.Teaching)
	}
}

// TestTeacherChoosesWhomToFollow: f follows the first student of the
// class list, marked ▸ there and named on the teacher's top line, and
// the student's own top line says the projector shows it; f again the
// next; a click on a student's row follows it, a click on it again
// nobody; x follows nobody.
func TestTeacherChoosesWhomToFollow(t *testing.T) {
	r := newClassRig(t)
	r.keys("f")
	r.advance(time.Second)
	r.teacherTerm.mustShow("following ada", "▸ada")
	r.studentTerm.mustShow("on the projector: you")
	r.keys("f")
	r.advance(time.Second)
	r.teacherTerm.mustShow("following bob", "▸bob")
	r.studentTerm.mustNotShow("on the projector")
	click := func(name string) {
		t.Helper()
		for y, l := range rows(r.teacherTerm.screen) {
			if i := strings.Index(l, name+" "); i > 40 && y > 0 { // the list, not the top line
				r.teacher.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(len([]rune(l[:i])), y, tcell.Button1, tcell.ModNone))
				r.advance(time.Second)
				return
			}
		}
		t.Fatalf("no %s in the class list:\n%s", name, r.teacherTerm.text())
	}
	click("carol")
	r.teacherTerm.mustShow("following carol", "▸carol")
	click("carol")
	r.teacherTerm.mustNotShow("following")
	r.keys("ff")
	r.advance(time.Second)
	r.teacherTerm.mustShow("following bob")
	r.keys("x")
	r.advance(time.Second)
	r.teacherTerm.mustNotShow("following")
}

// TestTeachHelpHasTheTeachersLegend: the teacher's ? explains the
// teacher's screen (the room's board, the class rows, a held switch),
// not a player's view: no "you", no ghost, no corrected prediction.
func TestTeachHelpHasTheTeachersLegend(t *testing.T) {
	r := newClassRig(t)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		r.teacherTerm.screen.SetSize(size[0], size[1])
		r.teacher.Frame()
		r.keys("?")
		r.teacherTerm.mustShow("gridlag teacher: keys", "a student, a bot (on a block): where the server has it",
			"per student: round trip (~: server's), inputs pending, corrections", "held for everyone: the class cannot change it", "q Ctrl-C  quit")
		for _, player := range []string{"you, where prediction puts you", "where the server last said you are", "a prediction the server corrected"} {
			r.teacherTerm.mustNotShow(player)
		}
		r.keys("?")
	}
}

// TestTeachScreenTrace: the teacher's n goes through the traces the
// server offers; the room's network follows the one named, and the panel
// names its step in force as it plays; a student's top line says the
// trace and its step, and the student's net graph marks the steps and
// names the one in force, the room's; the teacher's latency keys take
// the network over from the trace.
func TestTeachScreenTrace(t *testing.T) {
	r := newClassRig(t)
	r.teacherTerm.mustShow("trace   [no trace] n")
	r.keys("nn") // geo-satellite, then lte-handover
	r.teacherTerm.mustShow("[lte-handover]")
	r.advance(time.Second)
	r.teacherTerm.mustShow("[lte-handover] LTE, in a cell")
	r.studentTerm.mustShow("teacher: trace lte-handover", "+ teacher's trace lte-handover")
	r.student.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'g', tcell.ModNone))
	r.advance(5 * time.Second) // past the handover at 5 s
	r.teacherTerm.mustShow("[lte-handover] handover, same")
	r.studentTerm.mustShow("trace steps", "now: handover, same frequency", "trace lte-handover, the room's, as the teacher set it")
	row := r.studentTerm.rowWith("trace steps")
	if n := strings.Count(row, "▲"); n != 2 {
		t.Fatalf("the student's trace row %q has %d marks, want 2 (the start, the handover):\n%s", row, n, r.studentTerm.text())
	}
	if v := r.ada.View(); v.Latency != 0 || v.Teaching == nil || v.Teaching.Latency < 44*time.Millisecond || v.Teaching.Latency > 66*time.Millisecond {
		t.Fatalf("the student's own link %v and the room's network %+v: want none of its own, the trace's 44 to 66 ms", v.Latency, v.Teaching)
	}
	r.keys("]")
	r.advance(time.Second)
	r.teacherTerm.mustShow("[no trace]")
	r.studentTerm.mustNotShow("teacher: trace")
}

// TestTeachScreenClassCode: at 80x24 the teacher's screen shows the
// class's code in its panel and, above the keys, the ways to join with
// it, as many as fit (the URL carrying it first); k asks for a new code, which both then
// show; the old one is on the screen no more.
func TestTeachScreenClassCode(t *testing.T) {
	r := newClassRig(t)
	r.teacher = tui.NewTeachScreen(r.teacherTerm.screen, r.world.Watch("hopper", client.Options{Room: "lecture", Teach: true}, true), tui.Options{
		Title: "gridlag — teaching lecture",
		JoinCode: func(code string) []string {
			return []string{"http://192.0.2.7:8080/?code=" + code, "ssh -p 2222 " + code + "@192.0.2.7"}
		},
	})
	r.advance(time.Second)
	old := ""
	for _, l := range rows(r.teacherTerm.screen) {
		if _, after, ok := strings.Cut(l, "class code "); ok {
			old, _, _ = strings.Cut(after, " ")
		}
	}
	if !strings.HasPrefix(old, "lecture-") {
		t.Fatalf("the panel shows no class code of room lecture:\n%s", r.teacherTerm.text())
	}
	r.teacherTerm.mustShow("k new", "join: http://192.0.2.7:8080/?code="+old, "q quit")
	r.keys("k")
	r.advance(time.Second)
	r.teacherTerm.mustNotShow(old)
	r.teacherTerm.mustShow("class code lecture-", "?code=lecture-")
	t.Logf("teacher at 80x24:\n%s", r.teacherTerm.text())
}
