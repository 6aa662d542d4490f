package loadgen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"gridlag/protocol"
)

// A room holds so many players (its cap, or its map's floor: one player
// a cell), and the server's room list says how many (protocol.Rooms:
// each open room's players and the most it holds, and the most rooms the
// server opens). Without Options.Rooms, the run asks for the list before
// its first player: when the default room has no place for all N, the
// first players fill it, and the rest go to rooms of their own, room-1,
// room-2, ..., each filled in turn. The first of them opens room-1; once
// it is in, the list says what a named room holds, and the run plans the
// rest, saying what it does, and plainly when the server opens too few
// rooms for them. A server whose list cannot be had gets every player in
// its default room, as before.

// roomPlan is how the run spreads its players over the server's rooms.
// The connecting loop writes it before it starts the players that read
// it; the probe's fields are shared with the players' goroutines, under
// mu.
type roomPlan struct {
	on   bool // the run plans its rooms (no Options.Rooms, not a capacity search)
	free int  // the first free players go to the default room; -1: all of them
	each int  // the players a named room takes, once known (0 before)

	mu       sync.Mutex
	probe    int           // the player whose answer tells whether room-1 opened, 0 if none
	probeAns chan struct{} // closed once the probe's handshake ended; nil then
	probes   int           // players tried as the probe so far
}

// maxProbes is how many players in turn try to open room-1 before the
// run gives up learning what a named room holds from the server's list.
const maxProbes = 3

// guessRoomPlayers is what the run takes a named room to hold when the
// server's list never said: a gridlag server's default -room-players.
const guessRoomPlayers = 32

// room is the room player n (from 1) joins: Options.Rooms' in turn, or
// the plan's: the default room (""), then room-1, room-2, ..., each
// taking the players a named room holds.
func (r *run) room(n int) string {
	if r.opts.Rooms > 0 {
		return r.opts.room(n)
	}
	p := &r.plan
	if !p.on || p.free < 0 || n <= p.free {
		return ""
	}
	k := 1
	if p.each > 0 {
		k = (n-p.free-1)/p.each + 1
	}
	return "room-" + strconv.Itoa(k)
}

// setProbe makes player n the probe.
func (p *roomPlan) setProbe(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.probe, p.probeAns = n, make(chan struct{})
	p.probes++
}

// answered records that player n's handshake ended, welcomed or not.
func (p *roomPlan) answered(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n == p.probe && p.probeAns != nil {
		close(p.probeAns)
		p.probeAns = nil
	}
}

// probeAnswered is closed, or nil, once the probe's handshake ended.
func (p *roomPlan) probeAnswered() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.probeAns
}

// planRooms is the plan's step before player n is started: before the
// first, the room list says how many the default room takes; after the
// probe, the first player in a named room, the list says what a named
// room holds, and the rest is planned and said. False if ctx was done.
func (r *run) planRooms(ctx context.Context, n int) bool {
	p := &r.plan
	switch {
	case !p.on:
	case n == 1:
		p.free = -1
		list, err := r.listRooms(ctx)
		if err != nil || len(list.Rooms) == 0 || list.Rooms[0].Name != "" {
			return ctx.Err() == nil // no list: every player in the default room, as before
		}
		def := list.Rooms[0]
		free := max(int(def.MaxPlayers)-int(def.Players), 0)
		if free >= r.opts.N {
			return true
		}
		p.free = free
		p.setProbe(free + 1)
		r.say("the default room holds %d players and has places for %d: the other %d of the %d go to rooms of their own, room-1 first\n",
			def.MaxPlayers, free, r.opts.N-free, r.opts.N)
	case p.each == 0 && p.probe > 0 && n == p.probe+1:
		if ch := p.probeAnswered(); ch != nil {
			select {
			case <-ch:
			case <-ctx.Done():
				return false
			}
		}
		r.planNamed(ctx, n)
	}
	return ctx.Err() == nil
}

// planNamed learns from the room list what room-1, opened by the probe,
// holds, and says how the rest are spread and whether the server opens
// rooms enough for them. If room-1 is not open (the probe was refused),
// player n tries to open it in turn, up to maxProbes players; then the
// run takes a named room to hold guessRoomPlayers, and says so.
func (r *run) planNamed(ctx context.Context, n int) {
	p := &r.plan
	rest := r.opts.N - p.free
	list, err := r.listRooms(ctx)
	var one *protocol.RoomInfo
	if err == nil {
		for i := range list.Rooms {
			if list.Rooms[i].Name == "room-1" && list.Rooms[i].MaxPlayers > 0 {
				one = &list.Rooms[i]
			}
		}
	}
	switch {
	case one != nil:
		p.each = int(one.MaxPlayers)
	case p.probes < maxProbes:
		p.setProbe(n) // the next tries to open it
		return
	default:
		p.each = guessRoomPlayers
		why := "the room list could not be had: " + fmt.Sprint(err)
		if err == nil {
			why = fmt.Sprintf("room-1 did not open for %d players in turn (see the refusals)", p.probes)
		}
		r.say("%s: taking a room to hold %d players, a gridlag server's default\n", why, p.each)
	}
	rooms := (rest + p.each - 1) / p.each
	r.say("spreading %d players over %d rooms: %d in the default room, %d in room-1 to room-%d, %d a room (the most a room of the server's holds)\n",
		r.opts.N, rooms+1, p.free, rest, rooms, p.each)
	if list == nil {
		return
	}
	open := max(len(list.Rooms), int(list.Total))
	if one == nil {
		open++ // room-1, not open yet
	}
	if left := int(list.MaxRooms) - open; rooms-1 > left {
		short := rest - (left+1)*p.each
		r.say("the server opens at most %d rooms and %d are open: %d more are needed, and the last %d players will find no room\n",
			list.MaxRooms, open, rooms-1, short)
	}
}

// say tells Options.Say, if any, what the run decided by itself.
func (r *run) say(format string, a ...any) {
	if r.opts.Say != nil {
		fmt.Fprintf(r.opts.Say, format, a...)
	}
}

// listRooms asks the server for its room list on a connection of its
// own, from the first player's address.
func (r *run) listRooms(ctx context.Context) (*protocol.Rooms, error) {
	d := net.Dialer{Timeout: r.opts.HandshakeTimeout, LocalAddr: r.source(1)}
	nc, err := d.DialContext(ctx, "tcp", r.opts.Addr)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Now()) })
	defer stop()
	nc.SetDeadline(time.Now().Add(r.opts.HandshakeTimeout))
	if err := protocol.NewEncoder(nc).Encode(&protocol.ListRooms{Version: protocol.Version}); err != nil {
		return nil, err
	}
	dec := protocol.NewDecoder(nc)
	for {
		m, err := dec.Decode()
		if err != nil {
			return nil, err
		}
		switch v := m.(type) {
		case *protocol.Rooms:
			return v, nil
		case *protocol.Error:
			return nil, errors.New(protocol.Printable(v.Text))
		}
	}
}
