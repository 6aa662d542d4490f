package tui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/link"
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

// LatencySlider is a one-row horizontal slider for the injected round-trip
// latency, from 0 to MaxLatency in steps of FineStep. It is changed with
// the mouse wheel, a click on the track (jump), a drag along it (slide),
// and by the latency keys of the key table. Every change of value calls
// the changed function.
//
// It draws as a track with a knob and the value on the right:
//
//	├──────●───────────┤ 400ms
type LatencySlider struct {
	*tview.Box

	value    time.Duration
	dragging bool
	changed  func(time.Duration)
}

// NewLatencySlider returns a slider at 0 ms.
func NewLatencySlider() *LatencySlider {
	box := tview.NewBox()
	box.SetBackgroundColor(tcell.ColorDefault)
	return &LatencySlider{Box: box}
}

// SetChangedFunc sets the function called with the new value whenever the
// user changes it (not when SetValue is called).
func (s *LatencySlider) SetChangedFunc(f func(time.Duration)) *LatencySlider {
	s.changed = f
	return s
}

// SetValue moves the slider to d, clamped to 0..MaxLatency and rounded to
// FineStep, without calling the changed function.
func (s *LatencySlider) SetValue(d time.Duration) *LatencySlider {
	s.value = clampLatency(d)
	return s
}

// Value returns the slider's value.
func (s *LatencySlider) Value() time.Duration { return s.value }

// Dragging reports whether the mouse is sliding the knob.
func (s *LatencySlider) Dragging() bool { return s.dragging }

// Track returns where the track is drawn: its leftmost column, its row and
// its width in columns. Column x+i stands for the value
// i*MaxLatency/(width-1). Width is 0 when the slider has no room.
func (s *LatencySlider) Track() (x, y, width int) {
	x, y, w, h := s.GetInnerRect()
	if h < 1 || w-sliderLabelWidth < 2 {
		return x, y, 0
	}
	return x, y, w - sliderLabelWidth
}

// Draw draws the slider.
func (s *LatencySlider) Draw(screen tcell.Screen) {
	s.Box.DrawForSubclass(screen, s)
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
	label := strconv.FormatInt(s.value.Milliseconds(), 10) + "ms"
	putText(screen, x+width+1, y, sliderLabelWidth-1, label, styleText)
}

// column returns the track column of the knob.
func (s *LatencySlider) column(width int) int {
	return int((int64(s.value)*int64(width-1) + int64(MaxLatency)/2) / int64(MaxLatency))
}

// valueAt returns the value that track column col stands for, rounded to
// FineStep and clamped.
func (s *LatencySlider) valueAt(col, width int) time.Duration {
	if width < 2 {
		return s.value
	}
	return clampLatency(time.Duration(int64(col) * int64(MaxLatency) / int64(width-1)))
}

// change sets the value and calls the changed function if it moved.
func (s *LatencySlider) change(d time.Duration) {
	d = clampLatency(d)
	if d == s.value {
		return
	}
	s.value = d
	if s.changed != nil {
		s.changed(d)
	}
}

// step moves the slider by d, as its keys in the key table do.
func (s *LatencySlider) step(d time.Duration) { s.change(s.value + d) }

// MouseHandler handles clicks (jump to the clicked value), drags (slide,
// even when the pointer leaves the track) and the wheel.
func (s *LatencySlider) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return s.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := event.Position()
		x, y, width := s.Track()
		onTrack := width > 0 && my == y && mx >= x && mx < x+width
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
			s.change(s.value + FineStep)
			return true, nil
		case tview.MouseScrollDown, tview.MouseScrollLeft:
			if !s.InRect(mx, my) {
				return false, nil
			}
			s.change(s.value - FineStep)
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
