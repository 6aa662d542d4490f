// Package server is gridlag's authoritative game server over TCP.
//
// The house has three floors. Package world is the sans-I/O core of one
// world (world.Core): the players, the rules, the ticks, the areas of
// interest, zap tag, resume. Package hub is the sans-I/O driver of many
// worlds (hub.Hub): the rooms by name, the routing of each connection to
// one, what each address may take, the room list, the drain's countdown,
// and the schedule of it all (NextWake, Advance). This package is the
// TCP adapter around a Hub: the listener and its sockets, readers and
// writers, the encoding of frames, the connections' caps and timeouts,
// Dial's in-process connections, Health, Drain's entry point, the
// metrics and the log. The simulator (package sim) drives the same Hub
// on a virtual clock.
//
// One goroutine owns the Hub. It waits on one timer, set to the first of
// the Hub's NextWake (the rooms' ticks, all at once, their pings and
// timers) and the adapter's own beats (the log's summaries, the check for
// silent connections, the heartbeat), and on the messages that the
// readers post to their shard's inbox, which it hands the Hub in batches
// (a move waits there for the tick without waking it); then the shards
// encode what the Hub produced and queue the frames in bounded queues,
// each its own connections' and all at once, never blocking, and the
// loop logs and counts the Hub's notes. On Linux each shard's TCP
// connections are read by one poller (poll_linux.go: an epoll instance
// waiting in Go's poller, a read per socket that has bytes, the frames of
// a wait posted in one batch), elsewhere and for in-process connections
// by a goroutine each (read); both keep the frame limit, the flood limit,
// holding back a client that does not read and draining one told why it
// is closed. A few writer goroutines, one per shard of the connections,
// write each connection's frames of a tick in one write that never
// waits; a socket that takes nothing for WriteTimeout is dropped, and a
// periodic check, not a deadline per message, finds the silent clients. The flood limit charges a message at the time its bytes were
// read from the kernel. A client that does not read fast enough, sends
// garbage or floods the server is disconnected alone; nobody else
// notices. Each connection's life in the loop is one state (connState):
// open, closing after its last frame, stalled, gone.
//
// Connections are capped in all and per remote address here, at accept;
// players, rooms, spectators and the rates of joins, new rooms and room
// lists per address in the Hub (hub/admit.go). Refusals, and every line
// that repeats per connection or per room (joins, leaves, rooms opened
// and closed, spectators), are logged once, then summarised per address
// (package ratelog). A front end in the server's process connects through
// Server.Dial (inprocess.go), an in-process socket that counts as the
// address it names: the SSH front end dials as each SSH connection's
// address, and the server's own bots dial as Own, which no per-address
// cap, share or rate applies to. Only from Own, and from
// Options.BotAddrs, is a Hello that says it is a bot believed.
//
// Each tick's cost, from when it was due until its writers handed its
// frames to the sockets, is reported to the Hub (Hub.Load), which refuses
// newcomers "server full: at capacity" while the last second's ticks cost
// Options.Hub.TickBudget (hub/capacity.go); Health's /readyz and the
// metrics say so too.
//
// The adapter encodes each connection's States on a stream of its own
// (protocol.StateStream, on conn), so that an idle State travels as a step
// of a few bytes, and the map's pieces once for every room (kept.go),
// whatever the number of joins and rooms.
package server
