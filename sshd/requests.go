package sshd

import (
	"encoding/binary"
	"time"

	"github.com/gdamore/tcell/v2"
	gossh "golang.org/x/crypto/ssh"
)

// allowedRequests are the session channel requests passed on to the
// session: a terminal, its size changes, and starting the session. "exec"
// passes so that the session can tell the player to connect without a
// command; the command is never run. Everything else (env, subsystem such
// as sftp, agent and X11 forwarding, signals) is refused.
var allowedRequests = map[string]bool{
	"pty-req":       true,
	"window-change": true,
	"shell":         true,
	"exec":          true,
}

// filteredChannel wraps a new session channel so that its requests pass
// through allowedRequests, window changes coalesced (see passRequests).
type filteredChannel struct {
	gossh.NewChannel
	srv *Server
}

// Accept accepts the channel and filters its requests.
func (f filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return nil, nil, err
	}
	out := make(chan *gossh.Request)
	f.srv.wg.Add(1) // the caller, a tracked channel handler, holds the count above zero
	go func() {
		defer f.srv.wg.Done()
		defer close(out)
		passRequests(reqs, out, windowChanges)
	}()
	return ch, out, nil
}

// windowLimit is how many window changes go on: burst at once, then one
// every every.
type windowLimit struct {
	burst int
	every time.Duration
}

// windowChanges is the limit of every session: a terminal being resized
// by hand sends a few dozen changes a second, of which the screen needs
// the last; each one that changes the size costs a new screen (up to
// about 3 MB at the largest, tui.MaxWidth x tui.MaxHeight) and a repaint
// of every cell.
var windowChanges = windowLimit{burst: 4, every: 250 * time.Millisecond}

// passRequests passes the allowed requests from in to out, refusing the
// others. Window changes are clamped (clampWindow) and coalesced before
// anything is allocated for them: one that leaves the clamped size as it
// is goes nowhere; of the others, lim.burst go on at once, then one every
// lim.every, the latest, and the ones it replaces are dropped (a
// window-change never wants a reply). So a flood of them, alternating
// sizes or not, costs no more than four screens a second. A held window
// change goes on before a later request if the limit allows it, else
// after it, when the limit allows.
func passRequests(in <-chan *gossh.Request, out chan<- *gossh.Request, lim windowLimit) {
	var (
		held     *gossh.Request // the latest window change not passed on yet
		heldSize tcell.WindowSize
		size     tcell.WindowSize // the clamped size last passed on
		next     time.Time        // when a change would be due without a burst (GCRA)
		timer    = time.NewTimer(0)
		waiting  bool // timer runs for held
	)
	<-timer.C
	defer timer.Stop()
	slack := time.Duration(lim.burst-1) * lim.every
	// allowed reports whether a window change may go on now, and counts
	// it if so.
	allowed := func() bool {
		now := time.Now()
		if now.Before(next.Add(-slack)) {
			return false
		}
		if next.Before(now) {
			next = now
		}
		next = next.Add(lim.every)
		return true
	}
	pass := func(req *gossh.Request, s tcell.WindowSize) {
		out <- req
		size = s
	}
	wait := func() {
		if !waiting {
			waiting = true
			timer.Reset(time.Until(next.Add(-slack)))
		}
	}
	for {
		var due <-chan time.Time
		if waiting {
			due = timer.C
		}
		select {
		case req, ok := <-in:
			if !ok {
				return
			}
			switch {
			case req.Type == "window-change":
				s, ok := windowChangeSize(req.Payload)
				switch {
				case !ok:
					if req.WantReply {
						req.Reply(false, nil)
					}
				case s == size && held == nil:
					// Nothing to change.
				case s == size:
					held = nil // back to the size in force
				case held == nil && allowed():
					pass(req, s)
				default:
					held, heldSize = req, s
					wait()
				}
			case allowedRequests[req.Type]:
				if req.Type == "pty-req" {
					if s, ok := ptyRequestSize(req.Payload); ok {
						size = s
					}
				}
				if held != nil && allowed() {
					pass(held, heldSize)
					held = nil
				}
				out <- req
			default:
				if req.WantReply {
					req.Reply(false, nil)
				}
			}
		case <-due:
			waiting = false
			if held == nil {
				continue
			}
			if !allowed() {
				wait()
				continue
			}
			pass(held, heldSize)
			held = nil
		}
	}
}

// windowChangeSize is the clamped size a window-change request's payload
// asks for (RFC 4254 6.7: columns, rows, then pixels).
func windowChangeSize(p []byte) (tcell.WindowSize, bool) {
	if len(p) < 8 {
		return tcell.WindowSize{}, false
	}
	return clampWindow(int(min(binary.BigEndian.Uint32(p), 1<<16)), int(min(binary.BigEndian.Uint32(p[4:]), 1<<16))), true
}

// ptyRequestSize is the clamped size a pty-req's payload gives (RFC 4254
// 6.2: the terminal's name, then columns and rows).
func ptyRequestSize(p []byte) (tcell.WindowSize, bool) {
	if len(p) < 4 {
		return tcell.WindowSize{}, false
	}
	n := binary.BigEndian.Uint32(p)
	if uint64(len(p)-4) < uint64(n) {
		return tcell.WindowSize{}, false
	}
	return windowChangeSize(p[4+n:])
}
