package hub

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/protocol"
	"gridlag/server/world"
)

// A class is a room with a teacher (protocol version 5). A teacher's
// connection opens with Teach, which the hub takes only from an Origin its
// adapter marks Teacher (an SSH key the operator named, the server's own
// terminal): never from what a client says. The teacher watches the room
// as a spectator does, and sets the room's Conditions: the network of
// every student, which the hub applies to each student's connection both
// ways (network.go), whatever front end it came through; the netcode
// switches every client of version 5 holds as the teacher says; the
// room's update rate and lag compensation. Every client of version 5 in
// the room (players, spectators, teachers) is told the Conditions when it
// comes and whenever they change; the players then Report what only they
// know (pending inputs, corrections, the round trip they measure), and
// the teachers are sent each Report as a Class. When the room's last
// teacher leaves, everything the class set is undone and every client is
// told so (a Conditions with Teachers 0).
//
// From protocol version 6 a teacher may follow one student of the room
// (Follow): every client of version 6 in the room is told whom (and a
// spectator or a student who comes later too); the student it names
// tells what only it sees of itself (Sight), which the room's
// spectators and teachers of version 6 are sent as a Followed, the last
// one also to a spectator who comes. A student who leaves is followed no
// more, nor is anyone once the last teacher left.

// class is the teaching of one room.
type class struct {
	teachers []*conn                           // in the order they came
	set      protocol.Conditions               // as the teachers set it (its Teachers is not kept)
	reports  map[world.ConnID]protocol.Student // each student's last Report, by connection
	// fresh are the connections whose Report the teachers were not told
	// yet: in a room that ticks they are told at each tick, in one Class
	// (a crowd of a thousand reporting twice a second is two thousand
	// Classes a second one by one, more than a teacher's connection may
	// queue); in a room of one update per input at once.
	fresh []world.ConnID
	perc  perceiving // its perception test (perceive.go)
	crowd crowding   // its bots and areas of interest (crowd.go)
	// trace is the trace the students' network follows (set.Trace names
	// it), from traceStart, its time 0; nil for none. ref follows it
	// alone, for the figures and the step in force the clients are
	// told, and told is how many of its steps they were told.
	trace      *link.Trace
	traceStart time.Duration
	ref        *link.Link[struct{}, struct{}]
	told       int
	// follow is the student the teachers follow (protocol version 6), 0
	// for nobody, and sight its last Sight, for a spectator who comes.
	follow grid.PlayerID
	sight  *protocol.Followed
	// code is the class's code (classcode.go).
	code string
}

// MaxJitterMS is the most jitter a teacher may set, in milliseconds: the
// game's own slider's range.
const MaxJitterMS = int(link.MaxRTT / time.Millisecond)

// teacherOnly names m, if only a teacher of its room may send it, and
// what it would do there, for the refusal's words; "" for any other.
func teacherOnly(m protocol.Message) (what, may string) {
	switch m.(type) {
	case *protocol.Conditions:
		return "conditions", "set its network"
	case *protocol.Perceive:
		return "perceive", "run its perception test"
	case *protocol.Follow:
		return "follow", "choose whom it follows"
	case *protocol.ClassCode:
		return "class code", "change its code"
	case *protocol.Crowd:
		return "crowd", "put bots in it"
	}
	return "", ""
}

// teachRefusal refuses m, the first message of c, if it asks to teach and
// c is not a teacher's connection, or speaks a version that cannot; and
// what only a teacher of its room may send (teacherOnly) from a
// connection that is not one, whenever it comes. nil: anything else.
func (h *Hub) teachRefusal(c *conn, m protocol.Message) *protocol.Error {
	switch v := m.(type) {
	case *protocol.Teach:
		switch {
		case !c.from.Teacher:
			return &protocol.Error{Code: protocol.ErrCodeTeacher, Text: "teach refused: only a teacher the server's operator named may set a room's network"}
		case !protocol.Supported(v.Version):
			return &protocol.Error{Code: protocol.ErrCodeVersion, Text: world.VersionRefusal(v.Version)}
		case v.Version < protocol.TeachSince:
			return &protocol.Error{Code: protocol.ErrCodeVersion, Text: fmt.Sprintf("teaching needs protocol version %d; this client speaks %d: please update it", protocol.TeachSince, v.Version)}
		}
	default:
		if what, may := teacherOnly(m); what != "" && !c.teacher {
			return &protocol.Error{Code: protocol.ErrCodeTeacher, Text: what + " refused: only a teacher of the room may " + may}
		}
	}
	return nil
}

// teach turns a Teach into the Spectate it is to the room's world; any
// other message is itself.
func teach(c *conn, m protocol.Message) protocol.Message {
	if t, ok := m.(*protocol.Teach); ok {
		c.teaching = true
		return &protocol.Spectate{Version: t.Version, Name: t.Name, Room: t.Room}
	}
	return m
}

// classMessage takes what a class is made of from c, a connection in a
// room: a teacher's Conditions, a player's Report, and what its
// perception test is made of (perceive.go). It reports whether m was one
// of them.
func (h *Hub) classMessage(now time.Duration, c *conn, m protocol.Message) bool {
	r := c.room
	if _, ok := m.(*protocol.Answer); ok && r.class == nil {
		return c.player // to a run that ended before the player heard so
	}
	if r.class != nil && h.perceptionMessage(now, c, m) {
		return true
	}
	switch v := m.(type) {
	case *protocol.Conditions:
		h.setConditions(now, r, c, *v)
	case *protocol.Follow:
		h.setFollow(r, c, v.ID)
	case *protocol.ClassCode:
		h.setCode(r, c)
	case *protocol.Crowd:
		h.setCrowd(r, c, *v)
	case *protocol.Sight:
		if !c.player {
			return false // the world refuses it, as any message out of place
		}
		h.relaySight(r, c, v)
	case *protocol.Report:
		if !c.player {
			return false // the world refuses it, as any message out of place
		}
		if r.class == nil {
			return true // it left before the player heard the class ended
		}
		id, ok := r.core.Player(c.id)
		if !ok {
			return true
		}
		s := protocol.Student{ID: id, RTTMS: v.RTTMS, Pending: v.Pending, Corrections: v.Corrections}
		r.class.reports[c.id] = s
		if r.core.Config().Rate > 0 {
			r.class.fresh = append(r.class.fresh, c.id) // told at the room's next tick
			return true
		}
		for _, t := range r.class.teachers {
			h.sendLater(t.id, &protocol.Class{Students: []protocol.Student{s}})
		}
	default:
		return false
	}
	return true
}

// tellReports tells r's teachers the Reports that came since its last
// tick, each student's last, in as few Class as hold them.
func (h *Hub) tellReports(r *room) {
	cl := r.class
	if cl == nil || len(cl.fresh) == 0 {
		return
	}
	slices.Sort(cl.fresh)
	students := make([]protocol.Student, 0, len(cl.fresh))
	for _, id := range slices.Compact(cl.fresh) {
		if s, ok := cl.reports[id]; ok { // not one that left since
			students = append(students, s)
		}
	}
	cl.fresh = cl.fresh[:0]
	slices.SortFunc(students, func(a, b protocol.Student) int { return int(a.ID) - int(b.ID) })
	for len(students) > 0 {
		n := min(len(students), protocol.MaxClassStudents)
		for _, t := range cl.teachers {
			h.sendLater(t.id, &protocol.Class{Students: students[:n:n]})
		}
		students = students[n:]
	}
}

// entered follows what c's room's world did with c's handshake: a player
// (joined or resumed) gets the room's network and is told its Conditions,
// a spectator is told them, and a teacher's Teach makes it one of the
// room's teachers.
func (h *Hub) entered(now time.Duration, c *conn) {
	r := c.room
	switch {
	case c.teaching && c.spectator && !c.teacher:
		h.startTeaching(now, r, c)
	case r.class == nil:
	case c.player:
		h.network(c, r)
		h.tellConditions(c, r)
		h.tellFollow(c, r)
		h.enteredPerception(now, c)
	case c.spectator:
		h.tellConditions(c, r)
		h.tellFollow(c, r)
		if s := r.class.sight; s != nil && c.version >= protocol.FollowSince {
			h.sendLater(c.id, s)
		}
		h.enteredPerception(now, c)
	}
}

// startTeaching makes c a teacher of r: the first opens the class, and
// every client of the room learns it has a teacher; each teacher is told
// the room's Conditions and every student's last Report.
func (h *Hub) startTeaching(now time.Duration, r *room, c *conn) {
	c.teacher = true
	first := r.class == nil
	if first {
		cfg := r.core.Config()
		h.classes++
		r.class = &class{
			set:     protocol.Conditions{Rate: uint16(cfg.Rate), LagComp: cfg.LagComp},
			reports: make(map[world.ConnID]protocol.Student),
			perc:    perceiving{serial: h.classes},
		}
	}
	r.class.teachers = append(r.class.teachers, c)
	if first {
		h.setCode(r, c)
	} else {
		h.tellCode(c, r)
	}
	if c.version >= protocol.TraceSince && len(h.opts.Traces) > 0 {
		defer h.sendLater(c.id, h.traces()) // after the room's Conditions
	}
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name,
		Reason: fmt.Sprintf("teaches (%d teachers): %s", len(r.class.teachers), Describe(r.class.set))})
	if first {
		for _, o := range h.roomConns(r) {
			if o.player {
				h.network(o, r) // nothing set yet: no network
			}
			h.tellConditions(o, r)
		}
	} else {
		for _, t := range r.class.teachers {
			h.tellConditions(t, r) // how many teachers there are
		}
		h.tellFollow(c, r)
		if s := r.class.sight; s != nil && c.version >= protocol.FollowSince {
			h.sendLater(c.id, s)
		}
	}
	students := make([]protocol.Student, 0, len(r.class.reports))
	for _, s := range r.class.reports {
		students = append(students, s)
	}
	slices.SortFunc(students, func(a, b protocol.Student) int { return int(a.ID) - int(b.ID) })
	for len(students) > 0 {
		n := min(len(students), protocol.MaxClassStudents)
		h.sendLater(c.id, &protocol.Class{Students: students[:n:n]})
		students = students[n:]
	}
	h.tellCrowd(c, r)
	h.enteredPerception(now, c)
}

// setConditions sets r's Conditions to set, as teacher c asked at now:
// its network on every student's connection, its update rate and lag
// compensation; every client of version 5 in the room is told, and the
// room's world pings its players at once, so that the round trips shown
// follow the new network within one.
func (h *Hub) setConditions(now time.Duration, r *room, c *conn, set protocol.Conditions) {
	set.Teachers = 0
	set.LatencyMS = min(set.LatencyMS, uint16(link.MaxRTT/time.Millisecond))
	set.JitterMS = min(set.JitterMS, uint16(MaxJitterMS))
	set.Rate = min(set.Rate, uint16(world.MaxRate))
	set.Step = "" // the server's to say
	old := r.class.set
	if set.Trace != "" && set.Trace != old.Trace {
		tr := h.traceNamed(set.Trace)
		if tr == nil {
			h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name,
				Reason: "asked for a trace the server does not offer: the room's network is set without it"})
			set.Trace = ""
		} else {
			r.class.trace, r.class.traceStart = tr, now
			r.class.ref = link.New[struct{}, struct{}](0, 0, 1)
			r.class.ref.Follow(tr, now)
			r.class.ref.Sync(now)
			r.class.told = r.class.ref.TraceState().Applied
		}
	}
	if set.Trace == "" {
		r.class.trace, r.class.ref = nil, nil
	}
	r.class.set = set
	cfg := r.core.Config()
	if int(set.Rate) != cfg.Rate {
		r.core.SetRate(now, int(set.Rate))
	}
	if set.LagComp != cfg.LagComp {
		r.core.SetLagComp(set.LagComp)
	}
	for _, o := range h.roomConns(r) {
		if o.player {
			h.network(o, r)
		}
		h.tellConditions(o, r)
	}
	if old.LatencyMS != set.LatencyMS || old.JitterMS != set.JitterMS || old.LossBP != set.LossBP || old.Trace != set.Trace {
		r.core.Ping(now)
	}
	h.touch(r)
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name, Reason: "set " + Describe(set)})
}

// leaveClass takes c, whose connection ended at now, out of its room's
// class: its report, or, for a teacher, its place; the last teacher's
// going ends the class.
func (h *Hub) leaveClass(now time.Duration, c *conn) {
	r := c.room
	if r == nil || r.class == nil {
		return
	}
	delete(r.class.reports, c.id)
	if c.player && r.class.follow != 0 {
		if id, ok := r.core.Player(c.id); ok && id == r.class.follow {
			h.setFollow(r, c, 0) // the followed student left
		}
	}
	if !c.teacher {
		return
	}
	r.class.teachers = slices.DeleteFunc(r.class.teachers, func(t *conn) bool { return t == c })
	if len(r.class.teachers) > 0 {
		for _, t := range r.class.teachers {
			h.tellConditions(t, r)
		}
		return
	}
	h.dismiss(now, r, c)
}

// dismiss ends r's class at now, its last teacher gone: the room's update
// rate and lag compensation go back to the server's, its students'
// network goes (what is on their lines arrives), and every client of
// version 5 in the room is told that nothing is held any more.
func (h *Hub) dismiss(now time.Duration, r *room, last *conn) {
	if r.class.perc.run != nil {
		h.endRun(now, r, "the last teacher left")
	}
	cfg := h.opts.Config
	if r.core.Config().Rate != cfg.Rate {
		r.core.SetRate(now, cfg.Rate)
	}
	r.core.SetLagComp(cfg.LagComp)
	h.endCrowd(r)
	followed := r.class.follow != 0
	h.endCode(r, last)
	r.class = nil
	for _, o := range h.roomConns(r) {
		if o.net != nil {
			o.net.set(protocol.Conditions{}, nil, 0)
		}
		h.tellConditions(o, r)
		if followed && o.version >= protocol.FollowSince {
			h.sendLater(o.id, &protocol.Follow{}) // nobody followed any more
		}
	}
	h.touch(r)
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: last.id, Host: last.from.Host, Room: r.name, Reason: "the last teacher left: the room's network and switches are the students' again"})
}

// tellConditions sends c, if it speaks version 5 and is in the room as a
// player, spectator or teacher, the room's Conditions: after what its
// world sends it in this batch (a Welcome comes first).
func (h *Hub) tellConditions(c *conn, r *room) {
	if c.version < protocol.TeachSince || !c.player && !c.spectator {
		return
	}
	cond := protocol.Conditions{Rate: uint16(r.core.Config().Rate), LagComp: r.core.Config().LagComp}
	if r.class != nil {
		cond = r.class.conditions()
	}
	if c.version < protocol.TraceSince {
		cond.Trace, cond.Step = "", "" // version 5's bytes: its network still follows the trace
	}
	h.sendLater(c.id, &cond)
}

// conditions returns the Conditions the clients of the class are told: as the
// teachers set them, with, while a trace plays, the figures it sets now
// (the round trip, the jitter and loss of the two ways on average) and
// the step in force.
func (cl *class) conditions() protocol.Conditions {
	cond := cl.set
	cond.Teachers = uint8(min(len(cl.teachers), 255))
	if cl.ref == nil {
		return cond
	}
	cond.LatencyMS = uint16(min(cl.ref.RTT().Milliseconds(), int64(link.MaxRTT/time.Millisecond)))
	cond.JitterMS = uint16(min(cl.ref.Jitter().Milliseconds(), int64(MaxJitterMS)))
	cond.LossBP = uint16(min(cl.ref.Loss(), 1)*protocol.MaxLossBP + 0.5)
	cond.Step = stepText(cl.ref.TraceState())
	return cond
}

// stepText names the step in force as a Conditions carries it: at most
// protocol.MaxTraceStep bytes, cut at a character.
func stepText(st link.TraceState) string {
	if st.Applied == 0 {
		return ""
	}
	s := st.Step.Name()
	for len(s) > protocol.MaxTraceStep {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// traceNamed returns the trace called name among those the hub offers,
// nil if none is.
func (h *Hub) traceNamed(name string) *link.Trace {
	for _, tr := range h.opts.Traces {
		if tr.Name == name {
			return tr
		}
	}
	return nil
}

// traces returns the traces the hub offers a teacher, as a Traces says
// them: the first protocol.MaxTraces.
func (h *Hub) traces() *protocol.Traces {
	m := &protocol.Traces{}
	for _, tr := range h.opts.Traces[:min(len(h.opts.Traces), protocol.MaxTraces)] {
		title := tr.Title
		for len(title) > protocol.MaxTraceTitle {
			_, size := utf8.DecodeLastRuneInString(title)
			title = title[:len(title)-size]
		}
		m.Traces = append(m.Traces, protocol.TraceInfo{Name: tr.Name, Title: title})
	}
	return m
}

// traceWake returns when the next step of a trace a room's network
// follows comes; ok is false if none does.
func (h *Hub) traceWake() (at time.Duration, ok bool) {
	for _, r := range h.order {
		if r.class == nil || r.class.ref == nil {
			continue
		}
		if t, due := r.class.ref.NextChange(); due && (!ok || t < at) {
			at, ok = t, true
		}
	}
	return at, ok
}

// stepTraces follows the traces the rooms' networks follow to now: at
// each step the room's clients are told the Conditions again (the step
// in force, the figures it sets) and its world pings its players, so
// that the round trips shown follow the step within one.
func (h *Hub) stepTraces(now time.Duration) {
	for _, r := range h.order {
		cl := r.class
		if cl == nil || cl.ref == nil {
			continue
		}
		cl.ref.Sync(now)
		if applied := cl.ref.TraceState().Applied; applied != cl.told {
			cl.told = applied
			for _, o := range h.roomConns(r) {
				h.tellConditions(o, r)
			}
			r.core.Ping(now)
			h.touch(r)
		}
	}
}

// setFollow makes r's class follow student id (0: nobody), as c (a
// teacher, or the followed student leaving) asked: a student not in the
// room is nobody. Every client of version 6 in the room is told.
func (h *Hub) setFollow(r *room, c *conn, id grid.PlayerID) {
	name, ok := r.core.Name(id)
	if !ok {
		id = 0
	}
	if id == r.class.follow {
		return
	}
	r.class.follow, r.class.sight = id, nil
	for _, o := range h.roomConns(r) {
		if o.version >= protocol.FollowSince && (o.player || o.spectator) {
			h.sendLater(o.id, &protocol.Follow{ID: id})
		}
	}
	why := "follows nobody"
	if id != 0 {
		why = fmt.Sprintf("follows %s (player %d)", name, id)
	}
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name, Reason: why})
}

// relaySight sends the Sight of c, a player of r, to the room's
// spectators and teachers of version 6, if the class follows it; else
// it is nothing (it left before the student heard the teacher moved on).
// Nor is the Sight of a subject of the room's perception test while its
// run lasts: its round trip, its pending inputs and its ghost would show
// the projector the round trip the test hides (perceive.go).
func (h *Hub) relaySight(r *room, c *conn, s *protocol.Sight) {
	if r.class == nil || r.class.follow == 0 {
		return
	}
	if id, ok := r.core.Player(c.id); !ok || id != r.class.follow {
		return
	}
	if h.subjectConn(r, c) != nil {
		return
	}
	f := &protocol.Followed{ID: r.class.follow, Sight: *s}
	r.class.sight = f
	for _, o := range h.roomConns(r) {
		if o.spectator && o.version >= protocol.FollowSince {
			h.sendLater(o.id, f)
		}
	}
}

// tellFollow tells c, of room r, whom the class follows, if anyone and if
// it speaks version 6.
func (h *Hub) tellFollow(c *conn, r *room) {
	if r.class != nil && r.class.follow != 0 && c.version >= protocol.FollowSince {
		h.sendLater(c.id, &protocol.Follow{ID: r.class.follow})
	}
}

// roomConns returns the connections in room r, by ID.
func (h *Hub) roomConns(r *room) []*conn {
	var in []*conn
	for _, c := range h.conns {
		if c.room == r {
			in = append(in, c)
		}
	}
	slices.SortFunc(in, func(a, b *conn) int { return int(a.id - b.id) })
	return in
}

// sendLater queues the hub's message m for connection id after what the
// worlds send in this batch.
func (h *Hub) sendLater(id world.ConnID, m protocol.Message) {
	h.later = append(h.later, world.Envelope{To: id, Msg: m})
}

// Teaching is a room's class as the hub has it: the Conditions its
// teachers set (Teachers counts them), as its clients are told them (with
// the figures of the trace, and its step, while one plays), and each
// student's last report.
type Teaching struct {
	Conditions protocol.Conditions
	Students   []protocol.Student // by player ID
}

// Class returns the class of the room called name; ok is false if the
// room is not open or has no teacher. Use it only between calls of the
// hub.
func (h *Hub) Class(name string) (t Teaching, ok bool) {
	r := h.rooms[name]
	if r == nil || r.class == nil {
		return t, false
	}
	t.Conditions = r.class.conditions()
	for _, s := range r.class.reports {
		t.Students = append(t.Students, s)
	}
	slices.SortFunc(t.Students, func(a, b protocol.Student) int { return int(a.ID) - int(b.ID) })
	return t, true
}

// Describe writes conditions c in a few words, for the log: "300ms round
// trip ±20ms, 2% loss, prediction off for all, 20 updates/s, lag
// compensation on".
func Describe(c protocol.Conditions) string {
	parts := []string{fmt.Sprintf("%dms round trip ±%dms, %s loss", c.LatencyMS, c.JitterMS, LossText(c.LossBP))}
	for _, s := range []struct {
		name string
		h    protocol.Hold
	}{{"prediction", c.Predict}, {"reconciliation", c.Reconcile}, {"interpolation", c.Interpolate}} {
		if s.h != protocol.HoldNone {
			parts = append(parts, s.name+" "+s.h.String())
		}
	}
	if c.Trace != "" {
		parts[0] = "trace " + c.Trace
	}
	rate := "one update per input"
	if c.Rate > 0 {
		rate = fmt.Sprintf("%d updates/s", c.Rate)
	}
	comp := "off"
	if c.LagComp {
		comp = "on"
	}
	return strings.Join(append(parts, rate, "lag compensation "+comp), ", ")
}

// LossText writes a loss in basis points as a percentage: "2%", "0.2%".
func LossText(bp uint16) string {
	return strconv.FormatFloat(float64(bp)/100, 'f', -1, 64) + "%"
}
