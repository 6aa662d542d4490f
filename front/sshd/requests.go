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
	// The caller, a tracked channel handler, holds the count above zero.
	f.srv.life.WG.Go(func() {
		defer close(out)
		if passRequests(f.srv.clock, reqs, out, sessionLimits) {
			return
		}
		f.srv.refused.add(KindRequestFlood)
		r := sessionLimits.requests
		f.srv.warn.Warn("request flood "+f.key, "closing connection", "remote", f.remote,
			"reason", fmt.Sprintf("flooding requests: more than %d at once, then %d a second", r.Burst, time.Second/r.Every))
		f.cut()
		for range reqs { // until the connection's end closes them
		}
	})
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
// than lim.requests allows on clock (it returns false at once: a flood).
// Window changes are clamped (remote.WindowOf) and paced at lim.window
// by a remote.Resizer, as the web's sizes are, before anything is
// allocated for them: one that leaves the clamped size as it is goes
// nowhere; of the others, a burst goes on at once, then the latest at
// the rate, and the ones it replaces are dropped (a window-change never
// wants a reply). A held window change goes on before a later request
// if the limit allows it, else after it, when the limit allows.
func passRequests(clock remote.Clock, in <-chan *gossh.Request, out chan<- *gossh.Request, lim requestLimits) (ended bool) {
	var reading grid.Limiter // the requests read, at lim.requests
	resize := remote.NewResizer(clock, lim.window, remote.Window{}, func(req *gossh.Request) { out <- req })
	defer resize.Stop()
	for req := range in {
		if !lim.requests.Allow(&reading, clock.Now()) {
			refuse(req)
			return false
		}
		switch {
		case req.Type == "window-change":
			if s, ok := windowChangeSize(req.Payload); ok {
				resize.Change(s, req)
			} else {
				refuse(req)
			}
		case allowedRequests[req.Type]:
			if req.Type == "pty-req" {
				if s, ok := ptyRequestSize(req.Payload); ok {
					resize.Shown(s)
				}
			}
			resize.Flush()
			out <- req
		default:
			refuse(req)
		}
	}
	return true
}

// refuse answers no to req if it wants an answer.
func refuse(req *gossh.Request) {
	if req.WantReply {
		req.Reply(false, nil)
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
