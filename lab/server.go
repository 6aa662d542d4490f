package lab

import (
	"time"

	"gridlag/client"
	"gridlag/lab/sim"
	"gridlag/protocol"
	"gridlag/server/world"
)

// PingInterval is how often the lab's server pings the players to measure
// their round trips, as the TCP server does.
const PingInterval = time.Second

// Overview returns the world as the server has it now, for the Server
// board: every player's cell, last processed input and the round trip the
// server measured (known a round trip after the first ping, PingInterval
// after the start), the tick and the update rate. Its times count from the
// lab's start.
func (l *Lab) Overview() client.WorldView { return Overview(l.world, l.origin) }

// Overview returns the world of w's default room as its server has it
// now, for a server's board, its times since origin: what Lab.Overview
// gives for a lab, for any simulated world (a replay's).
func Overview(w *sim.World, origin time.Duration) client.WorldView {
	srv := w.Server()
	cfg := srv.Config()
	now := w.Now() - origin
	facts := srv.Overview(now, nil)
	v := client.WorldView{
		Now: now, Phase: client.Watching, Connected: true,
		Map: cfg.Map, Rate: w.Rate(), MoveTime: cfg.MoveTime,
		Tick: uint32(srv.Stats().Ticks), Time: now, Total: len(facts),
		Players: make([]client.WorldPlayer, len(facts)),
	}
	for i, f := range facts {
		v.Players[i] = worldPlayer(f)
	}
	return v
}

// worldPlayer converts the server's facts on a player for a view.
func worldPlayer(f world.PlayerOverview) client.WorldPlayer {
	return client.WorldPlayer{
		ID: f.ID, Name: protocol.SanitizeName(f.Name), Color: f.Color, Bot: f.Bot,
		Pos: f.Pos, Ack: f.Ack, RTT: f.RTT, HasRTT: f.HasRTT,
		Frozen: f.Frozen, Protected: f.Protected,
	}
}

// color is the colour the lab asks for player i (0 for Player 1).
func color(i int) uint8 { return uint8(i + 1) }
