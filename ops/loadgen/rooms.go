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
// it.
type roomPlan struct {
	on    bool // the run plans its rooms (no Options.Rooms, not a capacity search)
	free  int  // the first free players go to the default room; -1: all of them
	each  int  // the players a named room takes, once known (0 before)
	probe int  // the first player in a named room (free+1), 0 if none

	probeOnce sync.Once
	probeAns  chan struct{} // closed once the probe's handshake ended
}

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

// answered records that player n's handshake ended, welcomed or not.
func (p *roomPlan) answered(n int) {
	if n == p.probe && n > 0 {
		p.probeOnce.Do(func() { close(p.probeAns) })
	}
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
		p.free, p.probe, p.probeAns = free, free+1, make(chan struct{})
		r.say("the default room holds %d players and has places for %d: the other %d of the %d go to rooms of their own, room-1 first\n",
			def.MaxPlayers, free, r.opts.N-free, r.opts.N)
	case n == p.probe+1 && p.probe > 0:
		select {
		case <-p.probeAns:
		case <-ctx.Done():
			return false
		}
		r.planNamed(ctx)
	}
	return ctx.Err() == nil
}

// planNamed learns from the room list what room-1, opened by the probe,
// holds, and says how the rest are spread and whether the server opens
// rooms enough for them.
func (r *run) planNamed(ctx context.Context) {
	p := &r.plan
	rest := r.opts.N - p.free
	list, err := r.listRooms(ctx)
	if err != nil {
		r.say("the room list could not be had after room-1 opened (%v): the other %d players all try room-1\n", err, rest-1)
		return
	}
	var one *protocol.RoomInfo
	for i := range list.Rooms {
		if list.Rooms[i].Name == "room-1" {
			one = &list.Rooms[i]
		}
	}
	if one == nil || one.MaxPlayers == 0 {
		r.say("room-1 did not open (see the refusals): the other %d players all try it\n", rest-1)
		return
	}
	p.each = int(one.MaxPlayers)
	rooms := (rest + p.each - 1) / p.each
	r.say("spreading %d players over %d rooms: %d in the default room, %d in room-1 to room-%d, %d a room (the most a room of the server's holds)\n",
		r.opts.N, rooms+1, p.free, rest, rooms, p.each)
	open := max(len(list.Rooms), int(list.Total))
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
	enc, dec := protocol.NewEncoder(nc), protocol.NewDecoder(nc)
	for {
		m, err := dec.Decode()
		if err != nil {
			return nil, err
		}
		switch v := m.(type) {
		case *protocol.Rooms:
			enc.Encode(&protocol.Bye{Reason: "load run: room list read"})
			return v, nil
		case *protocol.Error:
			return nil, errors.New(protocol.Printable(v.Text))
		}
	}
}
