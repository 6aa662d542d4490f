package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/internal/link"
)

// The range and steps of the latency slider.
const (
	// MaxLatency is the largest injected round trip the slider offers.
	MaxLatency = link.MaxRTT
	// FineStep is the step of the fine latency keys and the mouse wheel,
	// and the resolution of a click on the track.
	FineStep = 10 * time.Millisecond
	// CoarseStep is the step of the coarse latency keys.
	CoarseStep = 50 * time.Millisecond
)

// sliderLabelWidth is the room kept right of the track for the value
// ("1000ms" plus a space).
const sliderLabelWidth = 7

// Slider is a widget for a duration of a link (an injected round trip, a
// jitter), from 0 to MaxLatency in steps of FineStep, in one of two
// looks. On a track (the game's panel), it is changed with the mouse
// wheel, a click on the track (jump) and a drag along it (slide):
//
//	├──────●───────────┤ 400ms
//
// As steps (the lab's narrower panels), with the wheel and its buttons:
//
//	[-]  400ms [+]
//
// Both are changed by their keys in a key table (step). Every change of
// value calls the changed function.
type Slider struct {
	*tview.Box

	value    time.Duration
	dragging bool
	changed  func(time.Duration)
	// live returns the value as it is now, for a step: the model's, which
	// more than the slider may change (the lab's presets); nil for the
	// value shown.
	live func() time.Duration
	// steps draws the slider as its value between two buttons rather than
	// a track.
	steps bool
}

// NewSlider returns a slider on a track, at 0 ms.
func NewSlider() *Slider {
	box := tview.NewBox()
	box.SetBackgroundColor(tcell.ColorDefault)
	return &Slider{Box: box}
}

// newStepSlider returns a slider drawn as steps, showing the value and
// changed by set; live returns the value as it is now.
func newStepSlider(live func() time.Duration, set func(time.Duration)) *Slider {
	s := NewSlider()
	s.steps, s.live, s.changed = true, live, set
	return s
}

// SetChangedFunc sets the function called with the new value whenever the
// user changes it (not when SetValue is called).
func (s *Slider) SetChangedFunc(f func(time.Duration)) *Slider {
	s.changed = f
	return s
}

// SetValue moves the slider to d, clamped to 0..MaxLatency, without
// calling the changed function. It shows d as it is, not rounded to
// FineStep: a preset's 432 ms is the link's, and the slider says so (its
// keys and the mouse then move it on the FineStep grid).
func (s *Slider) SetValue(d time.Duration) *Slider {
	s.value = min(max(d, 0), MaxLatency)
	return s
}

// Value returns the slider's value.
func (s *Slider) Value() time.Duration { return s.value }

// Dragging reports whether the mouse is sliding the knob.
func (s *Slider) Dragging() bool { return s.dragging }

// Track returns where the track is drawn: its leftmost column, its row and
// its width in columns. Column x+i stands for the value
// i*MaxLatency/(width-1). Width is 0 when the slider has no room, or is
// drawn as steps.
func (s *Slider) Track() (x, y, width int) {
	x, y, w, h := s.GetInnerRect()
	if s.steps || h < 1 || w-sliderLabelWidth < 2 {
		return x, y, 0
	}
	return x, y, w - sliderLabelWidth
}

// stepsText is the value between the buttons of the steps' look.
const stepsText = " %6s "

// The columns of the steps' look: "[-]", the value, "[+]".
const (
	stepsButtonWidth = 3
	stepsWidth       = 2*stepsButtonWidth + 8
)

func (s *Slider) width() int {
	if s.steps {
		return stepsWidth
	}
	return sliderLabelWidth + 2
}

// Draw draws the slider.
func (s *Slider) Draw(screen tcell.Screen) {
	s.Box.DrawForSubclass(screen, s)
	if s.steps {
		s.drawSteps(screen)
		return
	}
	x, y, width := s.Track()
	if width == 0 {
		return
	}
	knob := s.column(width)
	for i := 0; i < width; i++ {
		ch, st := "─", styleDim
		switch {
		case i == knob:
			ch, st = "●", styleKnob
		case i == 0:
			ch = "├"
		case i == width-1:
			ch = "┤"
		}
		if i < knob && i != 0 {
			st = styleSliderOn
		}
		screen.Put(x+i, y, ch, st)
	}
	label := millis(s.value)
	putText(screen, x+width+1, y, sliderLabelWidth-1, label, styleText)
}

// drawSteps draws the steps' look: "[-]  250ms [+]".
func (s *Slider) drawSteps(screen tcell.Screen) {
	x, y, w, _ := s.GetInnerRect()
	r := rowWriter{screen: screen, x: x, y: y, end: x + w}
	r.text("[-]", styleKey)
	r.text(fmt.Sprintf(stepsText, millis(s.value)), styleText)
	r.text("[+]", styleKey)
}

// column returns the track column of the knob.
func (s *Slider) column(width int) int {
	return int((int64(s.value)*int64(width-1) + int64(MaxLatency)/2) / int64(MaxLatency))
}

// valueAt returns the value that track column col stands for, rounded to
// FineStep and clamped.
func (s *Slider) valueAt(col, width int) time.Duration {
	if width < 2 {
		return s.value
	}
	return clampLatency(time.Duration(int64(col) * int64(MaxLatency) / int64(width-1)))
}

// change sets the value and calls the changed function if it moved.
func (s *Slider) change(d time.Duration) {
	d = clampLatency(d)
	if d == s.value {
		return
	}
	s.value = d
	if s.changed != nil {
		s.changed(d)
	}
}

// step moves the slider by d from the value as it is now, as its keys
// in the key table and its buttons do.
func (s *Slider) step(d time.Duration) {
	if s.live != nil {
		s.value = s.live()
	}
	s.change(s.value + d)
}

// MouseHandler handles clicks (jump to the clicked value, or a step of a
// button), drags along the track (slide, even when the pointer leaves
// it) and the wheel.
func (s *Slider) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return s.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := event.Position()
		x, y, width := s.Track()
		onTrack := width > 0 && my == y && mx >= x && mx < x+width
		if s.steps && clicked(action) && s.InRect(mx, my) {
			switch {
			case mx < x+stepsButtonWidth:
				s.step(-FineStep)
			case mx >= x+stepsWidth-stepsButtonWidth:
				s.step(FineStep)
			default:
				return false, nil
			}
			return true, nil
		}
		switch action {
		case tview.MouseLeftDown:
			if !onTrack {
				return false, nil
			}
			s.dragging = true
			s.change(s.valueAt(mx-x, width))
			return true, s
		case tview.MouseMove:
			if !s.dragging {
				return false, nil
			}
			s.change(s.valueAt(mx-x, width))
			return true, s
		case tview.MouseLeftUp:
			if !s.dragging {
				return false, nil
			}
			s.dragging = false
			s.change(s.valueAt(mx-x, width))
			return true, nil
		case tview.MouseLeftClick:
			return onTrack, nil
		case tview.MouseScrollUp, tview.MouseScrollRight:
			if !s.InRect(mx, my) {
				return false, nil
			}
			s.step(FineStep)
			return true, nil
		case tview.MouseScrollDown, tview.MouseScrollLeft:
			if !s.InRect(mx, my) {
				return false, nil
			}
			s.step(-FineStep)
			return true, nil
		}
		return false, nil
	})
}

// clampLatency rounds d to FineStep and keeps it within 0..MaxLatency.
func clampLatency(d time.Duration) time.Duration {
	d = (d + FineStep/2) / FineStep * FineStep
	if d < 0 {
		return 0
	}
	if d > MaxLatency {
		return MaxLatency
	}
	return d
}
