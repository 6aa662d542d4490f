package tui

import "github.com/gdamore/tcell/v2"

// presenter shows frames drawn off-screen: a frame is drawn on a canvas
// and reaches the terminal only if it differs from the frame last shown
// (or the terminal was resized), and then only the cells that changed.
// Every screen of the package (the game, the lab, the spectator) shows
// its frames through one.
type presenter struct {
	screen  tcell.Screen
	canvas  canvas  // the frame being drawn
	shown   canvas  // the frame last shown
	styles  palette // the styles of both
	repaint bool    // the next frame goes to the screen whole
}

// present draws a frame with render on the canvas and shows it if it
// changed anything; it reports whether it did.
func (p *presenter) present(render func(screen tcell.Screen)) bool {
	if p.styles.index == nil || p.styles.full() {
		// The styles are numbered afresh: the frame shown is no
		// longer comparable with the next.
		p.styles.clear()
		p.repaint = true
	}
	p.canvas.styles, p.shown.styles = &p.styles, &p.styles
	w, h := p.screen.Size()
	p.canvas.reset(p.screen, w, h)
	render(&p.canvas)
	shown := &p.shown
	if p.repaint {
		shown = nil
	} else if p.canvas.equal(shown) {
		return false
	}
	p.repaint = false
	p.canvas.flush(shown)
	p.screen.Show()
	p.canvas, p.shown = p.shown, p.canvas
	return true
}

// resized notes that the terminal changed size: its content is no longer
// what tcell remembers, so the screen is cleared for real and the next
// frame repaints every cell.
func (p *presenter) resized() {
	p.screen.Clear()
	p.repaint = true
}
