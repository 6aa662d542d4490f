package server

import (
	"time"

	"gridlag/server/hub"
	"gridlag/server/world"
)

// note logs and counts one of the hub's notes. Every line that can repeat
// per connection or per room (joins, leaves, rooms opened and closed,
// spectators, refusals) is summarised per address (package ratelog): the
// first of an interval is written, the others counted, so churn from one
// address is a few lines a kind every interval, whatever its rate.
func (s *Server) note(n hub.Note) {
	c := s.conns[n.Conn]
	if c == nil {
		c = s.gone[n.Conn] // dropped since the last flush
	}
	remote := c.remoteOf()
	switch n.Kind {
	case hub.NoteEvent:
		s.logEvent(n, remote)
		if s.opts.OnEvent != nil {
			s.opts.OnEvent(n.Event)
		}
	case hub.NoteRoomOpened:
		s.warn.Info("room opened "+n.Host, "room opened", "room", n.Room, "rooms", n.Rooms, "remote", remote)
	case hub.NoteRoomClosed:
		s.warn.Info("room closed "+n.Host, "room closed", "room", n.Room, "rooms", n.Rooms, "opened_by", n.Host)
	case hub.NoteCapacity:
		if n.Full {
			s.log.Warn("at capacity: newcomers are refused", "why", n.Reason)
		} else {
			s.log.Info("below capacity: newcomers are let in again", "why", n.Reason)
		}
	case hub.NoteRefused:
		// The hub ended it: its Error is the last frame queued for it.
		if c != nil && c.state != connGone {
			closing := c.state == connClosing
			s.forget(c)
			key := "disconnect " + n.Host + " " + ReasonKind(n.Reason)
			if ReasonKind(n.Reason) == "capacity" {
				key = "disconnect at capacity" // one summary for every address: the server's state, not theirs
			}
			s.warn.Warn(key, "disconnect", "conn", n.Conn, "remote", remote, "reason", n.Reason)
			if !closing {
				s.hardClose(c) // its Error could not be queued
			}
		}
		if n.Counted {
			s.opts.Metrics.Refused(ReasonKind(n.Reason))
		}
	case hub.NoteCode:
		s.noteCode(n, remote)
	case hub.NoteTeach:
		s.log.Info("teacher", "room", n.Room, "remote", remote, "conn", n.Conn, "what", n.Reason)
	case hub.NotePerception:
		s.answers.due = append(s.answers.due, n) // saved once the batch is read: the hub is called
	case hub.NoteQueued:
		s.warn.Info("line "+n.Host, "queued", "conn", n.Conn, "remote", remote, "room", n.Room, "place", n.Reason)
	case hub.NoteAdmitted:
		// Its wait in line was no silence of its own: the idle timeout
		// counts from its admission.
		if c != nil {
			c.lastRead.Store(int64(s.now()))
		}
		s.warn.Info("line in "+n.Host, "let in from the line", "conn", n.Conn, "remote", remote, "waited", n.Waited.Round(time.Millisecond))
	case hub.NoteEnded:
		if n.Counted {
			s.opts.Metrics.Refused(ReasonKind(n.Reason))
		}
	}
}

// logEvent logs a join, leave or refusal in a room's world, and counts
// what leaves and what the world refused.
func (s *Server) logEvent(n hub.Note, remote string) {
	ev, host := n.Event, n.Host
	switch ev.Kind {
	case world.EventJoin:
		s.warn.Info("join "+host, "join", "room", ev.Room, "id", ev.Player, "name", ev.Name, "bot", ev.Bot, "remote", remote, "conn", ev.Conn, "spawn", ev.Pos, "version", ev.Version)
	case world.EventLeave:
		s.warn.Info("leave "+host, "leave", "room", ev.Room, "id", ev.Player, "name", ev.Name, "remote", host, "conn", ev.Conn, "reason", ev.Reason)
		s.opts.Metrics.Left(ReasonKind(ev.Reason))
	case world.EventRefused:
		s.warn.Warn("refused "+host+" "+ReasonKind(ev.Reason), "refused", "conn", ev.Conn, "remote", remote, "reason", ev.Reason)
		s.opts.Metrics.Refused(ReasonKind(ev.Reason))
	case world.EventAway:
		// Summarised per address: a client that drops and comes back in a
		// loop, or an outage behind one NAT address, is a few lines.
		s.warn.Info("away "+host, "away, kept for resume", "id", ev.Player, "name", ev.Name, "remote", host, "conn", ev.Conn, "for", s.opts.Hub.Config.Resume, "reason", ev.Reason)
	case world.EventResume:
		s.warn.Info("resume "+host, "resume", "id", ev.Player, "name", ev.Name, "remote", remote, "conn", ev.Conn, "from", ev.From, "version", ev.Version)
	case world.EventWatch:
		s.warn.Info("spectator joined "+host, "spectator joined", "room", ev.Room, "name", ev.Name, "remote", remote, "conn", ev.Conn, "version", ev.Version)
	case world.EventUnwatch:
		s.warn.Info("spectator left "+host, "spectator left", "room", ev.Room, "name", ev.Name, "remote", remote, "conn", ev.Conn, "reason", ev.Reason)
		s.opts.Metrics.Left(ReasonKind(ev.Reason))
	}
}

// remoteOf returns c's remote address, "" for no connection.
func (c *conn) remoteOf() string {
	if c == nil {
		return ""
	}
	return c.remote
}
