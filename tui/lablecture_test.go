package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/lab"
)

// TestLabScreenLecture: the lecture of Parts I-IV on the lab's screen at
// 160x45, 100x30 and 80x24: the index of its parts shows, the part given
// marked (all the labels where they fit, "part 2 of 4" where not, and
// then the step without the lesson's title, its words first); >
// goes to the next part, < back to the start of the part and then to the
// one before; the help names both keys.
func TestLabScreenLecture(t *testing.T) {
	for _, size := range [][2]int{{160, 45}, {100, 30}, {80, 24}} {
		lecture, err := lab.DefaultLecture()
		if err != nil {
			t.Fatal(err)
		}
		r := newRigOf(t, size[0], size[1], func(wall func() time.Time) (*lab.Lab, error) {
			return lab.NewLecture(lecture, lab.Default(), wall)
		})
		index := func(part int, label string) []string {
			if size[0] == 160 {
				return []string{"Fast-Paced Multiplayer, Parts I-IV: ", "[" + label + "]", "< >"}
			}
			return []string{"part " + string(rune('0'+part)) + " of 4: " + label, "< >"}
		}
		// The lesson's title where it fits; where not, the index names
		// the part, and the step and its first words show.
		title := func(lesson string) string {
			if size[0] == 160 {
				return lesson
			}
			return "step 1 of "
		}
		r.mustShow(append(index(1, "I: round trip"), title("Lesson 1: the round trip"), "The server is authoritative", "[Space: run the step]")...)
		r.key(tcell.KeyRune, '>')
		r.mustShow(append(index(2, "II: prediction"), title("Lesson 2: prediction"), "step 1 of 3", "t 0.000s", "PAUSED")...)
		r.key(tcell.KeyRune, ' ') // run the step
		r.pass(2 * time.Second)
		r.key(tcell.KeyRune, '<') // the part's start
		r.mustShow(append(index(2, "II: prediction"), "t 0.000s", "[Space: run the step]")...)
		r.key(tcell.KeyRune, '<')
		r.mustShow(index(1, "I: round trip")...)
		for range 3 {
			r.key(tcell.KeyRune, '>')
		}
		r.mustShow(append(index(4, "IV: lag compensation"), title("Lesson 4: lag compensation"))...)
		r.key(tcell.KeyRune, '?')
		if !strings.Contains(r.text(), "Spc < > p") || !strings.Contains(r.text(), "a lecture's part < >") {
			t.Errorf("%dx%d: the help does not name the lecture's keys:\n%s", size[0], size[1], r.text())
		}
	}
}

// TestLabScreenOffersTheLecture: the free lab offered the lecture says
// so, and > starts it; < from its first part comes back.
func TestLabScreenOffersTheLecture(t *testing.T) {
	r := newLabRig(t, lab.Default(), 160, 45)
	lecture, err := lab.DefaultLecture()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.lab.OfferLecture(lecture); err != nil {
		t.Fatal(err)
	}
	r.key(tcell.KeyRune, '.')
	r.mustShow("> gives the lecture (Fast-Paced Multiplayer, Parts I-IV)")
	r.key(tcell.KeyRune, '>')
	r.mustShow("[I: round trip]", "Lesson 1: the round trip")
	r.key(tcell.KeyRune, '<')
	r.mustShow("> gives the lecture")
	r.mustNotShow("Lesson 1")
}

// TestLabPresetShowsItsNumbers: the poor preset shows on the lab's panel
// as the documentation says it, the link's own numbers, not rounded to the
// slider's steps: 432ms round trip ±168ms, 4% loss.
func TestLabPresetShowsItsNumbers(t *testing.T) {
	cfg := lab.Default()
	cfg.Players[0].Preset = "poor"
	r := newLabRig(t, cfg, 160, 45)
	r.mustShow("lag    [-]  432ms [+]", "jitter [-]  168ms [+]", "loss 4.0%  [preset poor]")
	r.mustNotShow("430ms")
}
