package sshd

import (
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
// through allowedRequests.
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
		for req := range reqs {
			if allowedRequests[req.Type] {
				out <- req
				continue
			}
			if req.WantReply {
				req.Reply(false, nil)
			}
		}
	}()
	return ch, out, nil
}
