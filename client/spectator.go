package client

import (
	"fmt"
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// Spectator is the sans-I/O core of a spectator: it watches a server
// without playing. It opens with Spectate (Handshaking), takes the map
// from Spectating (Watching), the names from Join and Leave, and the
// world from each Overview, and gives the latest as a WorldView. It pings
// the server every ping interval (so that a spectator who sends nothing
// else is not dropped as idle) and gives up when the server is silent for
// the server timeout. It reports what it sends and what happened in its
// outbox, as a Core does. It is not safe for concurrent use.
type Spectator struct {
	base

	m        *grid.Map
	rate     int
	moveTime time.Duration
	roster   map[grid.PlayerID]protocol.PlayerInfo
	shields  protection        // spawn protection, by the server's word (version 4)
	latest   protocol.Overview // Players is the spectator's own copy
	parts    mapParts          // the chunks of a big map so far
	// A room with a teacher (class.go): what the teachers set, and, for
	// a teacher, each student's last report.
	cond    protocol.Conditions
	reports map[grid.PlayerID]Report
	perc    classPerception      // the room's perception test (perceive.go)
	traces  []protocol.TraceInfo // the traces the server offers a teacher (version 6)
	code    string               // a teacher's class code (version 6)
	// Version 6: the room's scoreboard, whom the room follows and the
	// followed student's last Sight (follow.go).
	rank   ranked
	follow grid.PlayerID
	sight  *Sight
	// crowd is, for a teacher of version 6, the room's bots and the
	// server's counters (crowd.go); nil before the server's first word.
	crowd *Crowd
}

// NewSpectator returns a spectator core that starts by sending a Spectate
// at time now, or a Teach with Options.Teach. It uses Name, Room,
// PingInterval and ServerTimeout of opts.
func NewSpectator(now time.Duration, opts Options) *Spectator {
	s := &Spectator{
		base:    newBase(now, opts),
		roster:  make(map[grid.PlayerID]protocol.PlayerInfo),
		shields: make(protection),
		reports: make(map[grid.PlayerID]Report),
	}
	if opts.Teach {
		s.send(&protocol.Teach{Version: protocol.Version, Name: opts.Name, Room: opts.Room})
		return s
	}
	s.send(&protocol.Spectate{Version: protocol.Version, Name: opts.Name, Room: opts.Room})
	return s
}

// Teach sets the room's Conditions to t, as a teacher does: the server
// applies them and tells every client, this one included, which shows
// them when they come back. The server refuses it (and closes) from a
// spectator that is not a teacher (Options.Teach).
func (s *Spectator) Teach(t Teaching) {
	if s.phase != Watching {
		return
	}
	c := t.Conditions()
	s.send(&c)
}

// Follow follows student id (0: nobody), as a teacher does: the server
// tells the room, this spectator included, whose View then says it
// (Following, and Sight as the student tells it). The server refuses it
// (and closes) from a spectator that is not a teacher (Options.Teach).
func (s *Spectator) Follow(id grid.PlayerID) {
	if s.phase != Watching {
		return
	}
	s.send(&protocol.Follow{ID: id})
}

// NewCode asks the server for a new class code, as a teacher does: the
// old one admits nobody more, and the server tells this teacher the new
// one (WorldView.ClassCode). The server refuses it (and closes) from a
// spectator that is not a teacher (Options.Teach).
func (s *Spectator) NewCode() {
	if s.phase != Watching {
		return
	}
	s.send(&protocol.ClassCode{})
}

// Close marks the connection closed by the local side and queues a Bye.
func (s *Spectator) Close() { s.close("spectator quit") }

// Dropped is Disconnected: a spectator has no avatar to come back to.
func (s *Spectator) Dropped(now time.Duration, err error) { s.Disconnected(err) }

// NextWake returns the next time Advance has something to do: a ping, or
// giving up on a silent server. ok is false once closed.
func (s *Spectator) NextWake() (at time.Duration, ok bool) {
	switch s.phase {
	case Closed:
		return 0, false
	case Watching:
		return s.nextWake(), true
	}
	return s.giveUpAt(), true
}

// Advance does what is due at time now: it gives up on a server silent
// for the server timeout, and sends a Ping every ping interval.
func (s *Spectator) Advance(now time.Duration) {
	if s.phase == Closed {
		return
	}
	if err := s.silent(now, "word"); err != nil {
		s.fail(err)
		return
	}
	if s.phase == Watching {
		s.keepAlive(now)
	}
}

// Receive handles a message from the server arriving at time now, and
// notes it (Arrived). A message a spectator should never get closes the
// connection with the error returned.
func (s *Spectator) Receive(now time.Duration, m protocol.Message) error {
	if s.phase == Closed {
		return nil
	}
	s.lastHeard = now
	s.note(Note{Kind: Arrived, Msg: m})
	return s.take(now, m)
}

// take handles message m, arriving at time now.
func (s *Spectator) take(now time.Duration, m protocol.Message) error {
	if s.ends(m) {
		return nil
	}
	if s.phase == Handshaking {
		switch m := m.(type) {
		case *protocol.Spectating:
			if !s.parts.waiting() {
				return s.welcome(now, m)
			}
		case *protocol.MapChunk:
			return s.mapPart(now, func() (*grid.Map, error) { return s.parts.add(m) })
		case *protocol.MapBits:
			return s.mapPart(now, func() (*grid.Map, error) { return s.parts.addBits(m) })
		}
		return s.refuse(fmt.Errorf("client: %v before Spectating", m.Type()))
	}
	switch m := m.(type) {
	case *protocol.Overview:
		s.latest.Tick, s.latest.TimeNS, s.latest.Total = m.Tick, m.TimeNS, m.Total
		s.latest.Players = append(s.latest.Players[:0], m.Players...)
		s.shields.prune(time.Duration(m.TimeNS))
	case *protocol.Protect:
		s.shields.set(m)
	case *protocol.Join:
		s.roster[m.Player.ID] = known(m.Player)
	case *protocol.Conditions:
		s.cond = *m
		s.rate = int(m.Rate)
		if m.Teachers == 0 {
			clear(s.reports)
		}
	case *protocol.Class:
		for _, st := range m.Students {
			s.reports[st.ID] = reportOf(st)
		}
	case *protocol.Perception:
		s.perc.take(now, m)
	case *protocol.Traces:
		s.traces = slices.Clone(m.Traces)
	case *protocol.ClassCode:
		s.code = m.Code
	case *protocol.Crowded, *protocol.Counters:
		s.takeCrowd(now, m)
	case *protocol.Ranking:
		s.rank.take(now, m)
	case *protocol.Follow:
		if m.ID != s.follow {
			s.sight = nil
		}
		s.follow = m.ID
	case *protocol.Followed:
		if m.ID == s.follow {
			s.sight = sightOf(m.ID, now, &m.Sight)
		}
	case *protocol.Leave:
		delete(s.roster, m.ID)
		delete(s.shields, m.ID)
		delete(s.reports, m.ID)
		listed := len(s.latest.Players)
		s.latest.Players = slices.DeleteFunc(s.latest.Players, func(p protocol.OverviewPlayer) bool { return p.ID == m.ID })
		s.latest.Total -= uint16(listed - len(s.latest.Players)) // gone at once, not at the next Overview
	case *protocol.Pong:
		// The keep-alive's answer: hearing it is all it is for.
	default:
		return s.refuse(fmt.Errorf("client: unexpected %v for a spectator", m.Type()))
	}
	return nil
}

// welcome takes the Spectating: the game's numbers and the map, or the
// map's size if its chunks follow.
func (s *Spectator) welcome(now time.Duration, sp *protocol.Spectating) error {
	s.admitted() // out of the server's line, if it waited there
	s.rate = int(sp.UpdateRate)
	s.moveTime = time.Duration(sp.MoveTimeMS) * time.Millisecond
	if sp.MapFollows() {
		s.parts.expecting(sp.MapWidth, sp.MapHeight)
		return nil // the watch starts with the map's last chunk
	}
	m, err := sp.Map()
	if err != nil {
		return s.refuse(err)
	}
	s.start(now, m)
	return nil
}

// mapPart takes the next part of a map that follows the Spectating (add
// takes it), and starts the watch with the map the last one completes.
func (s *Spectator) mapPart(now time.Duration, add func() (*grid.Map, error)) error {
	m, err := add()
	if err != nil {
		return s.refuse(err)
	}
	if m != nil {
		s.start(now, m)
	}
	return nil
}

// start begins the watch on map m.
func (s *Spectator) start(now time.Duration, m *grid.Map) {
	s.m = m
	s.nextPing = now
	s.enter(Watching)
}

// View returns the latest server's view, taken at time now.
func (s *Spectator) View(now time.Duration) WorldView {
	v := WorldView{
		Now:       now,
		Phase:     s.phase,
		Connected: s.phase == Watching,
		Err:       s.err,
		Map:       s.m,
		Rate:      s.rate,
		MoveTime:  s.moveTime,
		Tick:      s.latest.Tick,
		Time:      time.Duration(s.latest.TimeNS),
		Total:     int(s.latest.Total),
		Notice:    s.noticeShown(),
		Teaching:  teachingOf(&s.cond),
		Reports:   reportsOf(s.reports),
		Traces:    s.traces,
		ClassCode: s.code,
		Following: s.follow,
	}
	if s.sight != nil {
		v.Sight = s.sight.at(now)
	}
	var frozen map[grid.PlayerID]bool
	if r := s.rank.last; r != nil && s.phase == Watching {
		v.Scoreboard = s.rank.lines(0)
		v.Online = int(r.Online)
		v.Round, v.RoundLeft, v.LastWinner = s.rank.round(now)
		for _, p := range r.Players {
			if p.Frozen {
				if frozen == nil {
					frozen = make(map[grid.PlayerID]bool)
				}
				frozen[p.ID] = true
			}
		}
	}
	v.Perception = s.perc.view(now)
	v.Crowd = s.crowdView()
	if len(s.latest.Players) > 0 {
		v.Players = make([]WorldPlayer, len(s.latest.Players))
	}
	for i, p := range s.latest.Players {
		info := s.roster[p.ID]
		wp := WorldPlayer{ID: p.ID, Name: info.Name, Color: info.Color, Bot: p.Bot, Pos: p.Pos, Ack: p.Ack,
			Protected: s.shields.at(p.ID, time.Duration(s.latest.TimeNS)), Frozen: frozen[p.ID]}
		if p.RTTMS != protocol.NoRTT {
			wp.RTT, wp.HasRTT = time.Duration(p.RTTMS)*time.Millisecond, true
		}
		v.Players[i] = wp
	}
	return v
}
