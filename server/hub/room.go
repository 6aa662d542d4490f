package hub

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"gridlag/protocol"
	"gridlag/server/world"
)

// room is one world of the hub: a Core, with its own round and players,
// and the connections routed to it. A connection is routed by its first
// Hello or Spectate (its Room field; any other first message goes to the
// default room, whose Core refuses it as before rooms); a Resume goes to
// the room whose Core issued its token. The default room, named "",
// opens with the hub and never closes, so a server whose clients name no
// room plays exactly as one without rooms; a named room opens when its
// first connection asks for it and closes, its Core dropped, at the first
// Outbox after its last connection is gone and its last away player
// (kept for resume) has left: no other grace, as a room holds nothing
// worth keeping once nobody is in it (the next player to name it starts a
// fresh round).
type room struct {
	name     string
	core     *world.Core
	conns    int            // connections routed here and not yet ended
	touched  bool           // in Hub.touched
	closed   bool           // closed by the last Outbox
	opener   string         // the address that opened it ("" for the default room and the server's own)
	watchers map[string]int // its spectators by address
	class    *class         // its teaching, while it has a teacher (class.go)
	// The players and spectators waiting in line for it (line.go).
	waitPlayers, waitWatchers int
}

// open opens the room called name at now. A named room's Core is capped
// at RoomPlayers players; the default room keeps the Config's MaxPlayers.
// Every room plays on the hub's one MapShare, and ticks and pings on the
// hub's beats.
func (h *Hub) open(now time.Duration, name string) *room {
	cfg := h.opts.Config
	if name != "" {
		cfg.MaxPlayers = h.opts.RoomPlayers
	}
	r := &room{name: name, core: world.NewSharedCore(cfg, h.share), watchers: make(map[string]int)}
	r.core.Advance(now) // its ticks start
	r.core.SetPings(h.nextPing(now), h.pingEvery)
	h.rooms[name] = r
	h.order = append(h.order, r)
	h.list.dirty = true
	return r
}

// roomFor returns the room c's first message m asks for, opening it if
// needed, or the Error that refuses it: a name CheckName refuses, or a
// new room over MaxRooms, over the share of c's address (RoomsPerAddr) or
// over its RoomRate.
func (h *Hub) roomFor(now time.Duration, c *conn, m protocol.Message) (*room, *protocol.Error) {
	if r, e := h.codeRoom(c, m); r != nil || e != nil {
		return r, e
	}
	var name string
	switch v := m.(type) {
	case *protocol.Hello:
		name = v.Room
	case *protocol.Spectate:
		name = v.Room
	case *protocol.Resume:
		// A token belongs to the room whose Core issued it; an unknown
		// one goes to the default room, whose Core refuses it.
		for _, r := range h.order {
			if r.core.HasToken(v.Token) {
				return r, nil
			}
		}
		return h.rooms[""], nil
	}
	if r := h.rooms[name]; r != nil {
		return r, nil
	}
	if err := protocol.CheckName(name); err != nil {
		return nil, &protocol.Error{Code: protocol.ErrCodeName, Text: "room name refused: " + err.Error()}
	}
	if e := h.roomShareRefusal(c); e != nil {
		return nil, e
	}
	if e := h.roomRateRefusal(now, c); e != nil {
		return nil, e
	}
	r := h.open(now, name)
	r.opener = c.from.Host
	if !c.from.Own {
		h.roomsBy[c.from.Host]++
	}
	h.notes = append(h.notes, Note{Kind: NoteRoomOpened, Conn: c.id, Host: c.from.Host, Room: name, Rooms: len(h.rooms)})
	return r, nil
}

// enter routes c to the room its first message m asks for. It reports
// false if c was refused (and ended).
func (h *Hub) enter(now time.Duration, c *conn, m protocol.Message) bool {
	r, refusal := h.roomFor(now, c, m)
	if refusal != nil {
		h.refuse(now, c, refusal.Text, refusal)
		return false
	}
	c.room, c.state = r, inRoom
	r.conns++
	return true
}

// closeEmptyRooms closes the named rooms touched since the last Outbox
// that nobody is in any more (a room empties only by a connection's end,
// which touches it); their counters stay in the hub's totals.
func (h *Hub) closeEmptyRooms() {
	for _, r := range h.touched {
		r.closed = false
		if r.name == "" || r.conns > 0 || r.core.Stats().Away > 0 {
			continue // in use, or keeping an away player for its resume
		}
		r.closed = true
		delete(h.rooms, r.name)
		h.order = slices.DeleteFunc(h.order, func(o *room) bool { return o == r })
		if r.opener != "" {
			if h.roomsBy[r.opener]--; h.roomsBy[r.opener] <= 0 {
				delete(h.roomsBy, r.opener)
			}
		}
		h.list.dirty = true
		h.retired.Add(r.core.Stats())
		h.notes = append(h.notes, Note{Kind: NoteRoomClosed, Host: r.opener, Room: r.name, Rooms: len(h.rooms)})
	}
}

// listRooms answers a ListRooms from c with the room list, unless its
// version is not served or its address asks for too many (lobbyRefusal).
func (h *Hub) listRooms(now time.Duration, c *conn, m *protocol.ListRooms) {
	if !protocol.Supported(m.Version) {
		text := world.VersionRefusal(m.Version)
		h.refuse(now, c, "refused: "+text, &protocol.Error{Code: protocol.ErrCodeVersion, Text: text})
		return
	}
	if e := h.lobbyRefusal(now, c); e != nil {
		h.refuse(now, c, e.Text, e)
		return
	}
	c.state = listing
	h.send(c.id, h.roomList(now, m.Version))
}

// roomList is the room list as last built: every request shares it until
// the rooms change (a room opens or closes, someone joins, leaves, starts
// or stops watching), or listStale has passed (the rounds' times left):
// the next request builds it again. So it is built, and encoded by an
// adapter that encodes a message once, at most once per change and per
// request (LobbyRateTotal bounds those), and a flood of requests with
// nothing changing builds it once a listStale.
type roomList struct {
	list  *protocol.Rooms // for version 4 on: a list cut to fit a frame carries its Total
	list3 *protocol.Rooms // for version 3, which knows no Total: the same rooms without it
	at    time.Duration   // when it was built
	dirty bool            // the rooms changed since
}

// listStale is how long the room list is answered unchanged while the
// rooms do not change: the rounds' times left it carries are that late
// at most.
const listStale = time.Second

// roomList returns the room list for a client of protocol version v,
// building it if it is out of date.
func (h *Hub) roomList(now time.Duration, v uint16) *protocol.Rooms {
	l := &h.list
	if l.list == nil || l.dirty || now-l.at >= listStale {
		l.list, l.at, l.dirty = h.rooming(now), now, false
		l.list3 = l.list
		if l.list.Total != 0 {
			l3 := *l.list
			l3.Total = 0
			l.list3 = &l3
		}
	}
	if v < protocol.RoomsTotalSince {
		return l.list3
	}
	return l.list
}

// rooming describes the open rooms for a lobby, the default room first,
// the others by name. If they do not all fit a frame, those with the
// most players and spectators are listed, and Total says how many are
// open.
func (h *Hub) rooming(now time.Duration) *protocol.Rooms {
	list := &protocol.Rooms{MaxRooms: uint16(min(h.opts.MaxRooms, protocol.MaxRooms))}
	for _, r := range h.order {
		st := r.core.Stats()
		round, ends, _ := r.core.Round()
		list.Rooms = append(list.Rooms, protocol.RoomInfo{
			Name:       r.name,
			Players:    uint16(st.Players),
			MaxPlayers: uint16(min(r.core.Holds(), math.MaxUint16)),
			Spectators: uint16(st.Spectators),
			Round:      uint16(round),
			LeftMS:     uint32(max(ends-now, 0).Milliseconds()),
		})
	}
	byName := func(a, b protocol.RoomInfo) int { return strings.Compare(a.Name, b.Name) }
	if n := protocol.FitRooms(list.Rooms); n < len(list.Rooms) {
		// The busiest first (the default room before all), then by name.
		busy := func(ri protocol.RoomInfo) int {
			if ri.Name == "" {
				return math.MaxInt
			}
			return int(ri.Players) + int(ri.Spectators)
		}
		slices.SortFunc(list.Rooms, func(a, b protocol.RoomInfo) int {
			if d := cmp.Compare(busy(b), busy(a)); d != 0 {
				return d
			}
			return byName(a, b)
		})
		list.Total = uint16(len(list.Rooms))
		list.Rooms = list.Rooms[:protocol.FitRooms(list.Rooms)]
	}
	slices.SortFunc(list.Rooms, byName)
	return list
}

// unwatched takes a spectator from host out of r's count.
func (r *room) unwatched(host string) {
	if r.watchers[host]--; r.watchers[host] <= 0 {
		delete(r.watchers, host)
	}
}
