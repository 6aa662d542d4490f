package sshd

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gliderlabs/ssh"

	"gridlag/front/remote"
	"gridlag/server/admit"
)

// session is one SSH session on its way through the steps of
// handleSession: each step fills in what the steps inside it need.
type session struct {
	ssh.Session
	begun time.Time
	log   *remote.SessionLog // its lines, summarised by address
	conn  *trackedConn       // nil if the connection is not tracked
	pty   ssh.Pty
	winCh <-chan ssh.Window
	isPty bool

	// Set by the steps, for the steps inside them.
	tty      *remote.Tty       // openScreen: the screen's end of the terminal
	screen   tcell.Screen      // openScreen
	termName string            // openScreen: the terminal type in use
	cmd      command           // refuseCommand: what the command asked for
	player   *Player           // introducePlayer
	ctx      context.Context   // watchdog: done when the session must end
	killed   remote.KillReason // watchdog: why it ended the session, if it did
	err      error             // runHandler: what the handler returned
}

// sessionHandler runs a session, or what is left of it after the steps
// around it.
type sessionHandler func(ss *session)

// sessionStep is one step of a session, in the manner of wish's
// middleware: it does its part and calls next, or refuses the session and
// does not.
type sessionStep func(next sessionHandler) sessionHandler

// handleSession runs one SSH session: the checks, then the handler on a
// screen bound to the session, then the exit status.
func (s *Server) handleSession(sess ssh.Session) {
	steps := []sessionStep{ // outermost first
		s.countSession,
		refuseCommand,
		s.serveRecording,
		requireTerminal,
		s.requireTeacher,
		s.limitSessions,
		openScreen,
		introducePlayer,
		s.reportEnd,
		s.driveTerminal,
		s.watchdog,
	}
	h := s.runHandler
	for i := len(steps) - 1; i >= 0; i-- {
		h = steps[i](h)
	}
	h(s.newSession(sess))
}

// newSession starts the record of a session.
func (s *Server) newSession(sess ssh.Session) *session {
	ss := &session{Session: sess, begun: time.Now()}
	user := sess.User()
	if _, as, coded := classLogin(user); coded {
		user = as // the log never names a class's code
	}
	ss.log = remote.NewSessionLog(s.warn, s.log, PlayerName(user), sess.RemoteAddr())
	ss.conn, _ = sess.Context().Value(connKey{}).(*trackedConn)
	ss.pty, ss.winCh, ss.isPty = sess.Pty()
	return ss
}

// countSession counts the session in the server's wait groups, so that
// Close waits for it, and holds off its connection's handshake watchdog
// while it runs. A session that starts as the server closes ends at once.
func (s *Server) countSession(next sessionHandler) sessionHandler {
	return func(ss *session) {
		if !s.life.Track(true) {
			ss.Exit(1)
			return
		}
		defer s.life.Untrack(true)
		if ss.conn != nil {
			ss.conn.sessionStarted()
			defer ss.conn.sessionEnded()
		}
		next(ss)
	}
}

// refuseCommand refuses a session that asks to run a command: the server
// runs only the game, in a room, the lobby, or the spectator's screen (see
// RoomCommand).
func refuseCommand(next sessionHandler) sessionHandler {
	return func(ss *session) {
		cmd, err := parseCommand(ss.RawCommand())
		if err != nil {
			ss.refuse("command refused",
				fmt.Sprintf("gridlag runs only the game, not commands (%v): connect with ssh -p %d host, or ssh -t -p %[2]d host %s|%s NAME|%s [NAME]|%s [NAME]|%s [NAME], or ssh -p %[2]d host %[8]s > game.rec", err, localPort(ss), LobbyCommand, RoomCommand, SpectateCommand, TeachCommand, RecordCommand, RecordingCommand))
			return
		}
		ss.cmd = cmd
		next(ss)
	}
}

// requireTerminal refuses a session without a terminal: the game needs
// one.
func requireTerminal(next sessionHandler) sessionHandler {
	return func(ss *session) {
		if !ss.isPty {
			ss.refuse("no terminal",
				fmt.Sprintf("gridlag needs a terminal: connect with ssh -t -p %d host", localPort(ss)))
			return
		}
		next(ss)
	}
}

// requireTeacher refuses a session that asks to teach unless its key is
// one the operator named a teacher's (Options.Teachers), and the game
// server can take a teacher's connection (Options.DialTeacher).
func (s *Server) requireTeacher(next sessionHandler) sessionHandler {
	return func(ss *session) {
		if !ss.cmd.teach {
			next(ss)
			return
		}
		fp, _, hasKey := authedKey(ss)
		var why string
		switch {
		case s.opts.Teachers == nil || s.opts.DialTeacher == nil:
			why = errNoTeachers.Error()
		case !hasKey:
			why = "teaching needs the SSH key the server's operator named yours (-teachers): connect with ssh -i KEY"
		case !s.opts.Teachers.Named(fp):
			why = "your key is not one of this server's teachers (-teachers): " + fp
		}
		if why != "" {
			ss.log.Warn("teach refused", "session refused", "reason", "teach refused: "+why, "key", fp)
			ss.tell("gridlag: teach refused: " + why)
			return
		}
		ss.log.Info("", "teacher", "key", fp, "room", ss.cmd.mode.Room)
		next(ss)
	}
}

// serveRecording answers the recording command: the player's last
// recording, kept under their key, written to the session's standard
// output as it is, with no terminal needed; else why not, on standard
// error, exit status 1.
func (s *Server) serveRecording(next sessionHandler) sessionHandler {
	return func(ss *session) {
		if !ss.cmd.fetch {
			next(ss)
			return
		}
		fp, _, hasKey := authedKey(ss)
		switch {
		case s.opts.Recordings == nil:
			ss.refuse("no recordings", "gridlag: this server keeps no recordings")
			return
		case !hasKey:
			ss.refuse("recording without a key", "gridlag: recordings are kept under your SSH key: connect with one")
			return
		case ss.isPty:
			ss.refuse("recording to a terminal", fmt.Sprintf("gridlag: a recording is binary: fetch it into a file, without -t: ssh -p %d %s %s > game.rec", localPort(ss), localHost(ss), RecordingCommand))
			return
		}
		path, err := s.opts.Recordings.Path(fp)
		if err != nil {
			ss.refuse("no recording", fmt.Sprintf("gridlag: %v: play with ssh -t -p %d %s %s, quit, then fetch it", err, localPort(ss), localHost(ss), RecordCommand))
			return
		}
		f, err := os.Open(path)
		if err != nil {
			ss.refuse("recording unreadable", "gridlag: your recording cannot be read: "+err.Error())
			return
		}
		defer f.Close()
		n, err := io.Copy(ss, f)
		ss.log.Info("", "recording fetched", "key", fp, "bytes", n, "err", err)
		ss.CloseWrite()
		if err != nil {
			ss.Exit(1)
			return
		}
		ss.Exit(0)
	}
}

// localHost is the address the client connected to, for the advice in a
// line.
func localHost(ss *session) string {
	if a, ok := ss.LocalAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	return "host"
}

// localPort is the port the client connected to, for the advice in a
// refusal.
func localPort(ss *session) int {
	if a, ok := ss.LocalAddr().(*net.TCPAddr); ok {
		return a.Port
	}
	return 2222
}

// limitSessions applies the caps on sessions, in all and per address.
func (s *Server) limitSessions(next sessionHandler) sessionHandler {
	return func(ss *session) {
		key, class := admit.Key(ss.RemoteAddr()), false
		if ck := s.classKey(ss.User()); ck != "" {
			key, class = ck, true
		}
		release, kind, refusal := s.acquireSession(key, class)
		if release == nil {
			ss.log.Warn(kind, "session refused", "reason", refusal)
			ss.tell("gridlag: " + refusal)
			return
		}
		defer release()
		next(ss)
	}
}

// openScreen makes a screen that draws on the session's terminal, or
// refuses a terminal the server cannot drive.
func openScreen(next sessionHandler) sessionHandler {
	return func(ss *session) {
		tty, screen, termName, err := remote.OpenScreen(ss, ss.pty.Term, ss.pty.Window.Width, ss.pty.Window.Height, ss.log)
		if err != nil {
			ss.refuse(err.Error(), "gridlag: the server cannot drive your terminal")
			return
		}
		ss.tty, ss.screen, ss.termName = tty, screen, termName
		if m := meterOf(ss); m != nil {
			tty.Count(&m.Term)
		}
		next(ss)
	}
}

// introducePlayer makes the session's Player, coloured by its key (without
// one, the game server colours it by player), and logs the start of the
// session.
func introducePlayer(next sessionHandler) sessionHandler {
	return func(ss *session) {
		name := PlayerName(ss.User())
		code, as, coded := classLogin(ss.User())
		if coded {
			name = PlayerName(as)
		}
		p := &Player{Screen: ss.screen, User: name, RemoteAddr: ss.RemoteAddr(), Mode: ss.cmd.mode, Teach: ss.cmd.teach, Record: ss.cmd.record}
		if coded && ss.cmd.mode.Plays() && !ss.cmd.teach {
			p.Code = code
		}
		fp, color, hasKey := authedKey(ss)
		if hasKey {
			p.Fingerprint, p.Color = fp, color
		} else {
			fp = "none"
		}
		p.Log = ss.log
		p.Wire = meterOf(ss)
		p.Wire.SetClient(ss.Context().ClientVersion())
		ss.player = p
		ss.log.Info("", "session start", "key", fp, "color", p.Color, "term", ss.termName,
			"size", fmt.Sprintf("%dx%d", ss.pty.Window.Width, ss.pty.Window.Height))
		next(ss)
	}
}

// reportEnd logs why the session ended and tells the player: exit status
// 0 when they quit; a line saying so and exit status 0 when the server
// stopped (the game server's goodbye, or this front end closing with the
// process); else a line saying why and exit status 1. It runs after the
// screen is finalised, so the line stays on the terminal.
func (s *Server) reportEnd(next sessionHandler) sessionHandler {
	return func(ss *session) {
		next(ss)
		if p := ss.player; p != nil && p.Afterword != "" {
			line := strings.NewReplacer("PORT", fmt.Sprint(localPort(ss)), "HOST", localHost(ss)).Replace(p.Afterword)
			io.WriteString(ss, line+"\n")
		}
		reason, status := remote.EndReason(ss.killed.Get(), ss.err, s.life.Ctx.Err() != nil, ss.Context().Err() != nil || ss.tty.InputEnded())
		if reason == "" {
			ss.log.Info("quit", "session end", "reason", "quit", "duration", time.Since(ss.begun).Round(time.Millisecond))
			ss.Exit(0)
			return
		}
		ss.log.Info(reason, "session end", "reason", reason, "duration", time.Since(ss.begun).Round(time.Millisecond))
		io.WriteString(ss, "gridlag: "+reason+"\n")
		ss.Exit(status)
	}
}

// driveTerminal feeds the session's input and window changes to the
// screen's tty while the session runs, and finalises the screen after it
// if the handler left it initialised.
func (s *Server) driveTerminal(next sessionHandler) sessionHandler {
	return func(ss *session) {
		s.life.WG.Go(func() {
			ss.tty.Pump(ss)
		})
		s.life.WG.Go(func() {
			for w := range ss.winCh {
				if ss.tty.SetWindow(w.Width, w.Height) {
					s.resizes.Add(1)
				}
			}
		})
		next(ss)
		if started, closed := ss.tty.State(); started && !closed {
			ss.screen.Fini()
		}
	}
}

// runHandler runs the session handler, the game or Options.Handler, a
// panic of which is one session's failure (remote.Handler.Run).
func (s *Server) runHandler(ss *session) {
	ss.err = s.handler.Run(ss.ctx, ss.player)
}

// refuse tells the client why its session cannot run and ends it with exit
// status 1. Without a terminal the line goes to the client's stderr; with
// one, to the terminal (the session turns "\n" into "\r\n").
func (ss *session) refuse(reason, message string) {
	ss.log.Warn(reason, "session refused", "reason", reason)
	ss.tell(message)
}

// tell writes message to the client and ends the session with exit
// status 1.
func (ss *session) tell(message string) {
	if ss.isPty {
		io.WriteString(ss, message+"\n")
	} else {
		io.WriteString(ss.Stderr(), message+"\n")
	}
	ss.Exit(1)
}
