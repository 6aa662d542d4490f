package hub

import (
	"fmt"
	"time"

	"gridlag/protocol"
)

// A class's crowd (protocol version 6): the scale lab in the teacher's
// room. A teacher asks for a number of bots in its room (Crowd); the hub
// gives as many as the caps allow (the bots a room may have, TeachBots;
// the room's players; the server's connections) and hands the order to
// its adapter (Out.Crowds), which runs them in its process as players of
// the room: they count against its caps like anyone, and a cap that
// stops a step short is named to the teachers (Crowded) and in the log.
// The teacher also turns the room's areas of interest off and on. Once a
// second the adapter hands the hub what the server's own counters say
// (TellCounters), which every teacher of version 6 is sent with the
// room's crowd. When the last teacher leaves, the bots go and the areas
// are the server's again.

// DefaultTeachBots is the most bots a teacher may put in a room: the
// scale lab's last step, which a 2-core machine serves.
const DefaultTeachBots = 1000

// CrowdOrder is an order to the hub's adapter: room is to have Bots of
// the server's own bots, as a teacher asked (0: none).
type CrowdOrder struct {
	Room string
	Bots int
}

// crowding is a class's crowd: the bots asked for and given, the
// teachers' word on why fewer, and the room's areas of interest.
type crowding struct {
	asked, given int
	note         string
	areasOff     bool
}

// setCrowd gives room r the bots teacher c asked for, as the caps allow,
// and its areas of interest on or off; the room's teachers are told.
func (h *Hub) setCrowd(r *room, c *conn, m protocol.Crowd) {
	cr := &r.class.crowd
	most, why := h.crowdMost(r)
	asked := int(m.Bots)
	given := min(asked, most)
	cr.asked, cr.note = asked, ""
	if given < asked {
		cr.note = fmt.Sprintf("%d bots asked, %d given: %s", asked, given, why)
	}
	if given != cr.given {
		cr.given = given
		h.crowds = append(h.crowds, CrowdOrder{Room: r.name, Bots: given})
	}
	if m.AreasOff != cr.areasOff {
		cr.areasOff = m.AreasOff
		r.core.SetAreas(!m.AreasOff)
		h.touch(r)
	}
	areas := "on"
	if cr.areasOff {
		areas = "off"
	}
	reason := fmt.Sprintf("asks for %d bots, %d given; areas of interest %s", asked, given, areas)
	if cr.note != "" {
		reason += " (" + why + ")"
	}
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name, Reason: reason})
	for _, t := range r.class.teachers {
		h.tellCrowd(t, r)
	}
}

// crowdMost returns the most bots room r may have now, and the cap that
// says so in words (with its flag): the bots a teacher may put in a
// room, the room's players less those who are not its bots, the cells
// of the map a bot may spawn on less those others take, the server's
// connections less those that are not.
func (h *Hub) crowdMost(r *room) (most int, why string) {
	most, why = h.opts.TeachBots, fmt.Sprintf("a teacher may put at most %d bots in a room (-teach-bots)", h.opts.TeachBots)
	if h.opts.TeachBots == 0 {
		why = "this server runs no bots for teachers (-teach-bots 0)"
	}
	ours := min(r.core.Stats().Bots, r.class.crowd.given)
	cfg := r.core.Config()
	flag := "-room-players"
	if r.name == "" {
		flag = "-max-players"
	}
	if n := cfg.MaxPlayers - (r.core.Stats().Players - ours); n < most {
		most, why = n, fmt.Sprintf("the room holds %d players (%s), %d of them not its bots", cfg.MaxPlayers, flag, cfg.MaxPlayers-n)
	}
	// One player a cell of the main floor, bots included (a bot takes a
	// human spawn cell only when no other is free): what world.Core.Holds
	// counts.
	room := h.share.Reach().MainSize()
	if n := room - (r.core.Stats().Players - ours); n < most {
		most, why = n, fmt.Sprintf("the map has room for %d players (-map, -map-gen), %d of them not its bots", room, room-n)
	}
	if mc := h.opts.MaxConns; mc > 0 {
		if n := mc - (len(h.conns) - ours); n < most {
			most, why = n, fmt.Sprintf("the server takes %d connections (-max-conns), %d of them not the room's bots", mc, mc-n)
		}
	}
	return min(max(most, 0), 1<<16-1), why
}

// tellCrowd sends c, a teacher of r, the room's crowd if it speaks
// version 6.
func (h *Hub) tellCrowd(c *conn, r *room) {
	if c.version < protocol.CrowdSince || r.class == nil {
		return
	}
	cr := r.class.crowd
	most, _ := h.crowdMost(r)
	bots := r.core.Stats().Bots
	h.sendLater(c.id, &protocol.Crowded{
		Asked: uint16(cr.asked), Given: uint16(min(cr.given, most)), Bots: uint16(min(bots, 1<<16-1)),
		Most: uint16(most), AreasOff: cr.areasOff, Note: cr.note,
	})
}

// endCrowd takes r's bots away and gives its areas of interest back to
// the server's setting, its class over.
func (h *Hub) endCrowd(r *room) {
	cr := r.class.crowd
	if cr.given > 0 {
		h.crowds = append(h.crowds, CrowdOrder{Room: r.name})
	}
	if cr.areasOff != h.opts.Config.AreasOff {
		r.core.SetAreas(!h.opts.Config.AreasOff)
	}
}

// TellCounters sends every teacher of version 6 what the server's own
// counters said of the last interval, with its room's crowd: each room's
// BudgetNS is the time between two of its ticks (NoFigure at one update
// per input).
func (h *Hub) TellCounters(now time.Duration, c protocol.Counters) {
	h.begin()
	h.now = now
	for _, r := range h.order {
		if r.class == nil {
			continue
		}
		rc := c
		rc.BudgetNS = protocol.NoFigure
		if rate := r.core.Config().Rate; rate > 0 {
			rc.BudgetNS = uint32(time.Second / time.Duration(rate))
		}
		for _, t := range r.class.teachers {
			if t.version >= protocol.CrowdSince {
				h.tellCrowd(t, r)
				h.sendLater(t.id, &rc)
			}
		}
	}
}
