package sim

import (
	"cmp"
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/protocol"
)

// Transport is how a simulated client's messages travel.
type Transport uint8

// The transports a simulated client can have.
const (
	// TCP: one ordered stream each way; a lost message is retransmitted
	// and everything after it waits (the game's, over TCP).
	TCP Transport = iota
	// Datagram: an unreliable, unordered datagram link, as a game over
	// UDP has it. Inputs go in packets that repeat every input not yet
	// acknowledged (redundant inputs), at each press and then every
	// ResendEvery until acknowledged; States go as snapshots (a full
	// picture of the player's area each time) and the newest wins: one
	// older than a State already taken is dropped. Everything else (the
	// handshake, names, zap results, pings) goes on a reliable, ordered
	// channel beside them, as a game's reliable messages over UDP do. It
	// exists only in the simulator: the real game stays on TCP.
	Datagram
)

// String names the transport as the -link flags do.
func (t Transport) String() string {
	if t == Datagram {
		return "datagram"
	}
	return "tcp"
}

// ResendEvery is how often a datagram client sends its unacknowledged
// inputs again while it waits for their acknowledgement: a game's 20 Hz
// input rate.
const ResendEvery = 50 * time.Millisecond

// DatagramStats are what a datagram client's link carried: what the
// redundancy and the snapshots cost, and what was lost.
type DatagramStats struct {
	Inputs           int   // inputs sent, each counted once
	InputPackets     int   // packets of inputs sent
	InputPacketsLost int   // of which lost
	InputCopies      int   // inputs carried, every copy in every packet
	States           int   // State snapshots sent
	StatesLost       int   // of which lost
	StatesStale      int   // of which dropped on arrival, older than one taken
	BytesUp          int64 // bytes sent by the client, both channels
	BytesDown        int64 // bytes sent to the client, both channels
}

// Repeats is how many input copies were sent again: every copy beyond
// each input's first.
func (s DatagramStats) Repeats() int { return s.InputCopies - s.Inputs }

// dgram is a datagram client's side of its link: the lines, the inputs
// still unacknowledged, the newest State taken, and the server's picture
// of the client's area that the snapshots are made of.
type dgram struct {
	up      *link.Datagram[[][]byte]   // packets of inputs
	down    *link.Datagram[[]byte]     // State snapshots
	rel     *link.Link[[]byte, []byte] // the reliable channel, both ways
	rtt     time.Duration
	jitter  time.Duration
	unacked []unacked
	sentAt  time.Duration // when the last packet of inputs went
	newest  [2]uint64     // the newest State taken: server time, tick
	taken   bool          // a State was taken
	shadow  map[grid.PlayerID]grid.Pos
	players []grid.PlayerPos // scratch
	last    []byte           // the last snapshot sent
	stats   DatagramStats
}

// unacked is an input the client sent and has not seen acknowledged.
type unacked struct {
	seq   uint32
	frame []byte
}

func newDgram(rtt, jitter time.Duration, loss float64, seed int64) *dgram {
	g := &dgram{
		up:     link.NewDatagram[[][]byte](0, 0, seed),
		down:   link.NewDatagram[[]byte](0, 0, seed^0x5DEECE66D),
		rel:    link.New[[]byte, []byte](0, 0, seed+0x9E3779B9),
		shadow: make(map[grid.PlayerID]grid.Pos),
	}
	g.set(rtt, jitter)
	g.setLoss(loss)
	return g
}

// set changes the round trip and jitter of what is sent from now on.
func (g *dgram) set(rtt, jitter time.Duration) {
	g.rtt, g.jitter = max(rtt, 0), max(jitter, 0)
	g.up.SetDelay(g.rtt-g.rtt/2, g.jitter)
	g.down.SetDelay(g.rtt/2, g.jitter)
	g.rel.Set(g.rtt, g.jitter)
}

func (g *dgram) setLoss(p float64) {
	g.up.SetLoss(p)
	g.down.SetLoss(p)
	g.rel.SetLoss(p)
}

func (g *dgram) stall(now, d time.Duration) {
	g.up.Stall(now, d)
	g.down.Stall(now, d)
	g.rel.Stall(now, d)
}

// send puts what the client's driver wrote at now on the link: inputs
// join the unacknowledged and go at once in a packet of all of them, the
// rest on the reliable channel; with inputs still unacknowledged and none
// new, the packet goes again every ResendEvery.
func (g *dgram) send(now time.Duration, frames [][]byte) {
	fresh := false
	for _, f := range frames {
		m, _, err := protocol.Unmarshal(f)
		var seq uint32
		switch m := m.(type) {
		case *protocol.Input:
			seq = m.Seq
		case *protocol.Zap:
			seq = m.Seq
		}
		if err != nil || seq == 0 {
			g.stats.BytesUp += int64(len(f))
			g.rel.Up.Send(now, f)
			continue
		}
		g.unacked = append(g.unacked, unacked{seq: seq, frame: f})
		g.stats.Inputs++
		fresh = true
	}
	if len(g.unacked) == 0 || !fresh && now < g.sentAt+ResendEvery {
		return
	}
	packet := make([][]byte, len(g.unacked))
	for i, u := range g.unacked {
		packet[i] = u.frame
		g.stats.BytesUp += int64(len(u.frame))
	}
	g.stats.InputPackets++
	g.stats.InputCopies += len(packet)
	if _, lost := g.up.Send(now, packet); lost {
		g.stats.InputPacketsLost++
	}
	g.sentAt = now
}

// next returns when the link next has something to do: a datagram or a
// reliable frame arriving, or a packet of inputs to send again.
func (g *dgram) next() (time.Duration, bool) {
	var best time.Duration
	found := false
	consider := func(t time.Duration, ok bool) {
		if ok && (!found || t < best) {
			best, found = t, true
		}
	}
	consider(g.up.Next())
	consider(g.down.Next())
	consider(g.rel.Next())
	if len(g.unacked) > 0 {
		consider(g.sentAt+ResendEvery, true)
	}
	return best, found
}

// atServer returns the frames reaching the server at now: the reliable
// channel's, then every input of every packet arriving (the server skips
// those it has).
func (g *dgram) atServer(now time.Duration) [][]byte {
	out := g.rel.Up.Receive(now, nil)
	for _, p := range g.up.Receive(now, nil) {
		out = append(out, p...)
	}
	return out
}

// fromServer puts a message of the server on the link: a State as a
// snapshot of the client's area on the datagram line, anything else on
// the reliable channel.
func (g *dgram) fromServer(now time.Duration, m protocol.Message) error {
	st, ok := m.(*protocol.State)
	if !ok {
		f, err := protocol.Append(nil, m)
		if err != nil {
			return err
		}
		g.stats.BytesDown += int64(len(f))
		g.rel.Down.Send(now, f)
		return nil
	}
	if st.Full {
		clear(g.shadow)
	}
	g.players = st.AllPlayers(g.players[:0])
	for _, p := range g.players {
		g.shadow[p.ID] = p.Pos
	}
	for _, id := range st.Gone {
		delete(g.shadow, id)
	}
	for _, id := range st.Left {
		delete(g.shadow, id)
	}
	snap := &protocol.State{Tick: st.Tick, TimeNS: st.TimeNS, Ack: st.Ack, Full: true, Left: st.Left,
		Players: make([]grid.PlayerPos, 0, len(g.shadow))}
	for id, pos := range g.shadow {
		snap.Players = append(snap.Players, grid.PlayerPos{ID: id, Pos: pos})
	}
	slices.SortFunc(snap.Players, func(a, b grid.PlayerPos) int { return cmp.Compare(a.ID, b.ID) })
	f, err := protocol.Append(nil, snap)
	if err != nil {
		return err
	}
	g.stats.BytesDown += int64(len(f))
	g.last = f
	if !g.taken {
		// The join's first picture goes reliably, as a game's handshake
		// brings it: at rate 0 nothing else would follow a lost one.
		g.rel.Down.Send(now, f)
		return nil
	}
	g.stats.States++
	if _, lost := g.down.Send(now, f); lost {
		g.stats.StatesLost++
	}
	return nil
}

// atClient hands the client c's driver what reaches it at now: the
// reliable channel's frames, then the snapshots, the newest winning (see
// take).
func (g *dgram) atClient(now time.Duration, c *Client) {
	for _, f := range g.rel.Down.Receive(now, nil) {
		if f == nil {
			c.d.Hangup(now, nil)
			continue
		}
		g.take(now, c, f)
	}
	for _, f := range g.down.Receive(now, nil) {
		g.take(now, c, f)
	}
}

// take hands frame f to client c's driver at now, unless it is a State
// older than one already taken; a State taken acknowledges the inputs up
// to its Ack.
func (g *dgram) take(now time.Duration, c *Client, f []byte) {
	m, _, err := protocol.Unmarshal(f)
	if st, ok := m.(*protocol.State); ok && err == nil {
		key := [2]uint64{st.TimeNS, uint64(st.Tick)}
		if g.taken && (key[0] < g.newest[0] || key[0] == g.newest[0] && key[1] < g.newest[1]) {
			g.stats.StatesStale++
			return
		}
		g.newest, g.taken = key, true
		g.unacked = slices.DeleteFunc(g.unacked, func(u unacked) bool { return u.seq <= st.Ack })
	}
	c.d.Deliver(now, f)
}

// again sends the last snapshot once more: at rate 0 the server answers
// a copy of an input it has (the client did not see it acknowledged: the
// snapshot that did was lost) with its latest picture, as a server over
// UDP acknowledges every packet, else nothing would follow a lost last
// snapshot.
func (g *dgram) again(now time.Duration) {
	if g.last == nil || !g.taken {
		return
	}
	g.stats.BytesDown += int64(len(g.last))
	g.stats.States++
	if _, lost := g.down.Send(now, g.last); lost {
		g.stats.StatesLost++
	}
}

// DatagramStats returns what client c's datagram link carried so far; ok
// is false for a client on TCP.
func (c *Client) DatagramStats() (s DatagramStats, ok bool) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.dg == nil {
		return s, false
	}
	return c.dg.stats, true
}

// Transport returns how the client's messages travel.
func (c *Client) Transport() Transport {
	if c.dg != nil {
		return Datagram
	}
	return TCP
}
