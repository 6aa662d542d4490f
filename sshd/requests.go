package sshd

import (
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/tui"
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
		passRequests(reqs, out, windowChangeInterval)
	}()
	return ch, out, nil
}

// windowChangeInterval is the least time between two window changes
// passed on: a screen cannot redraw faster than its frames.
const windowChangeInterval = tui.FrameInterval

// passRequests passes the allowed requests from in to out, refusing the
// others. Window changes are coalesced: at most one per interval goes on,
// the latest, and the ones it replaces are dropped (a window-change never
// wants a reply), so a flood of them costs no more than one per frame. A
// held window change goes on before any later request, keeping the order.
func passRequests(in <-chan *gossh.Request, out chan<- *gossh.Request, interval time.Duration) {
	var (
		held    *gossh.Request // the latest window change not passed on yet
		last    time.Time      // when a window change last went on
		timer   = time.NewTimer(0)
		waiting bool // timer runs for held
	)
	<-timer.C
	defer timer.Stop()
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
				if now := time.Now(); !waiting && now.Sub(last) >= interval {
					last = now
					out <- req
					continue
				}
				held = req
				if !waiting {
					waiting = true
					timer.Reset(interval - time.Since(last))
				}
			case allowedRequests[req.Type]:
				if held != nil {
					out <- held
					held, last = nil, time.Now()
				}
				out <- req
			default:
				if req.WantReply {
					req.Reply(false, nil)
				}
			}
		case <-due:
			waiting = false
			if held != nil {
				out <- held
				held, last = nil, time.Now()
			}
		}
	}
}
