package sshd

import (
	"fmt"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
	"gridlag/grid"
	"gridlag/internal/limit"
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
// through allowedRequests, window changes coalesced and a flood cut (see
// passRequests).
type filteredChannel struct {
	gossh.NewChannel
	srv    *Server
	remote string       // the client's address, for the log
	key    string       // its key for the per-address caps
	cut    func() error // closes the connection
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
		if passRequests(reqs, out, sessionLimits) {
			return
		}
		f.srv.refused.add(KindRequestFlood)
		r := sessionLimits.requests
		f.srv.warn.Warn("request flood "+f.key, "closing connection", "remote", f.remote,
			"reason", fmt.Sprintf("flooding requests: more than %d at once, then %d a second", r.Burst, time.Second/r.Every))
		f.cut()
		for range reqs { // until the connection's end closes them
		}
	}()
	return ch, out, nil
}

// requestLimits are a session's limits on its channel's requests.
type requestLimits struct {
	// window: the window changes that go on to resize the screen
	// (remote.WindowChanges).
	window limit.Rate
	// requests: the requests of any kind a channel may send. A terminal
	// sends a handful, and a few dozen a second while it is resized; a
	// client that sends more is flooding, and its connection is closed,
	// so that a flood costs the server no more than this.
	requests limit.Rate
}

// sessionLimits are every session's.
var sessionLimits = requestLimits{
	window:   remote.WindowChanges,
	requests: limit.Rate{Burst: 600, Every: 10 * time.Millisecond},
}

// passRequests passes the allowed requests from in to out, refusing the
// others, until in is closed (it returns true) or a request comes faster
// than lim.requests allows (it returns false at once: a flood). Window
// changes are clamped
// (remote.WindowOf) and coalesced before anything is allocated for them: one
// that leaves the clamped size as it is goes nowhere; of the others,
// lim.window.Burst go on at once, then one every lim.window.Every, the
// latest, and the ones it replaces are dropped (a window-change never
// wants a reply). So a flood of them, alternating sizes or not, costs no
// more than four screens a second. A held window change goes on before a
// later request if the limit allows it, else after it, when the limit
// allows.
func passRequests(in <-chan *gossh.Request, out chan<- *gossh.Request, lim requestLimits) (ended bool) {
	var (
		held      *gossh.Request // the latest window change not passed on yet
		heldSize  remote.Window
		size      remote.Window // the window last passed on
		changes   grid.Limiter  // the window changes passed on, at lim.window
		reading   grid.Limiter  // the requests read, at lim.requests
		start     = time.Now()
		heldTimer = time.NewTimer(time.Hour)
		waiting   bool // heldTimer runs for held
	)
	now := func() time.Duration { return time.Since(start) }
	heldTimer.Stop()
	defer heldTimer.Stop()
	// allowed reports whether a window change may go on now, and counts
	// it if so.
	allowed := func() bool { return lim.window.Allow(&changes, now()) }
	pass := func(req *gossh.Request, s remote.Window) {
		out <- req
		size = s
	}
	wait := func() {
		if !waiting {
			waiting = true
			heldTimer.Reset(lim.window.Wait(&changes, now()))
		}
	}
	for {
		var due <-chan time.Time
		if waiting {
			due = heldTimer.C
		}
		select {
		case req, ok := <-in:
			if !ok {
				return true
			}
			if !lim.requests.Allow(&reading, now()) {
				if req.WantReply {
					req.Reply(false, nil)
				}
				return false
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

// windowChangeSize is the window (see remote.WindowOf) a window-change
// request's payload asks for (RFC 4254 6.7: columns, rows, then pixels).
func windowChangeSize(p []byte) (remote.Window, bool) {
	var w struct {
		Cols, Rows uint32
		Rest       []byte `ssh:"rest"` // the pixels
	}
	if gossh.Unmarshal(p, &w) != nil {
		return remote.Window{}, false
	}
	return remote.WindowOf(int(min(w.Cols, 1<<16)), int(min(w.Rows, 1<<16))), true
}

// ptyRequestSize is the window a pty-req's payload gives (RFC 4254 6.2:
// the terminal's name, then columns and rows).
func ptyRequestSize(p []byte) (remote.Window, bool) {
	var r struct {
		Term string
		Rest []byte `ssh:"rest"` // the window change's fields, then the modes
	}
	if gossh.Unmarshal(p, &r) != nil {
		return remote.Window{}, false
	}
	return windowChangeSize(r.Rest)
}
