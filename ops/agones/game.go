package agones

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/internal/notify"
)

// Game makes a game server an Agones game server: Ready once its ports
// listen, Health at each of its heartbeats (Beat), its players in the
// GameServer's players List (Joined, Left) with their count in the label
// players, and on a stop signal or Agones's Shutdown the game server's
// drain and close, then Shutdown (Serve). Beat, Joined and Left are
// called from the game's loop and never block it.
type Game struct {
	sdk    *Client
	log    *log.Logger
	beats  chan struct{} // unbuffered: a beat while a Health call is in flight is dropped
	events *playerQueue  // joins and leaves, from the game to trackPlayers
}

// NewGame returns the Agones side of a game server, a client of the
// sidecar with opts. It does not call the sidecar yet.
func NewGame(opts Options) (*Game, error) {
	sdk, err := New(opts)
	if err != nil {
		return nil, err
	}
	return &Game{sdk: sdk, log: sdk.log, beats: make(chan struct{}), events: newPlayerQueue()}, nil
}

// Beat is the game's heartbeat: it wakes the Health call, unless that is
// still busy with the previous beat's. It never blocks.
func (g *Game) Beat() {
	notify.Poke(g.beats)
}

// Joined queues a player's join for the players List: player is its value
// there, unique while it plays (gridlag's "id:name", e.g. "3:ann"). It
// never blocks.
func (g *Game) Joined(player string) { g.events.push(playerEvent{player: player, joined: true}) }

// Left queues a player's leave, as Joined its join.
func (g *Game) Left(player string) { g.events.push(playerEvent{player: player}) }

// Ending is how a game server ends, for Serve.
type Ending struct {
	// Drain warns the players and lets them play on, for at most For (a
	// second signal may cut it short).
	Drain func()
	For   time.Duration
	// Close closes the game server.
	Close func()
}

// Serve runs the game server as an Agones game server until a signal on
// stop or Agones's Shutdown: Ready now that its ports listen, then health
// pings and player tracking; at the end the drain, the close (end), and
// Shutdown. A signal while waiting for the sidecar's Ready ends Serve at
// once. If the game server fails first (an error on failed), Serve calls
// Shutdown and returns the failure, with Shutdown's error if it fails
// too.
func (g *Game) Serve(stop <-chan os.Signal, failed <-chan error, end Ending) error {
	running, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan error, 1)
	go func() { ready <- g.sdk.Ready(running) }()
	select {
	case err := <-ready:
		if err != nil {
			return err
		}
	case <-stop:
		return nil // a signal while waiting for the sidecar
	}
	g.log.Info("ready", "sidecar", g.sdk.Addr())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.ping(running)
	}()
	go func() {
		defer wg.Done()
		g.trackPlayers(running)
	}()
	defer wg.Wait()
	defer cancel()
	why := "signal"
	select {
	case <-stop:
	case <-g.sdk.WatchShutdown(running):
		why = "agones shutdown"
	case err := <-failed:
		return errors.Join(err, g.sdk.Shutdown(context.Background()))
	}
	g.log.Info("draining", "why", why, "for", end.For)
	end.Drain()
	end.Close()
	g.log.Info("shutdown")
	return g.sdk.Shutdown(context.Background())
}

// ping calls Health at each beat, until ctx ends.
func (g *Game) ping(ctx context.Context) {
	for {
		select {
		case <-g.beats:
			if err := g.sdk.Health(ctx); err != nil && ctx.Err() == nil {
				g.log.Warn("health", "err", err)
			}
		case <-ctx.Done():
			return
		}
	}
}

// trackPlayers keeps the players List and the label players in step
// with the game's joins and leaves, until ctx ends. The label is set once
// per batch of events.
func (g *Game) trackPlayers(ctx context.Context) {
	players := 0
	for {
		select {
		case <-g.events.ready:
		case <-ctx.Done():
			return
		}
		events := g.events.take()
		if len(events) == 0 {
			continue // taken with the previous token
		}
		for _, ev := range events {
			var err error
			if ev.joined {
				players++
				err = g.sdk.PlayerConnect(ctx, ev.player)
			} else {
				players--
				err = g.sdk.PlayerDisconnect(ctx, ev.player)
			}
			if err != nil && ctx.Err() == nil {
				g.log.Warn("player tracking", "err", err)
			}
		}
		if err := g.sdk.SetLabel(ctx, "players", strconv.Itoa(players)); err != nil && ctx.Err() == nil {
			g.log.Warn("label", "err", err)
		}
	}
}

// playerEvent is a join or a leave of a player.
type playerEvent struct {
	player string
	joined bool
}

// playerQueue hands events from the game to another goroutine without
// ever blocking the game or losing one: the players List must see every
// join and leave.
type playerQueue struct {
	mu     sync.Mutex
	events []playerEvent
	ready  chan struct{} // holds a token while events wait
}

func newPlayerQueue() *playerQueue {
	return &playerQueue{ready: make(chan struct{}, 1)}
}

// push queues ev.
func (q *playerQueue) push(ev playerEvent) {
	q.mu.Lock()
	q.events = append(q.events, ev)
	q.mu.Unlock()
	notify.Poke(q.ready)
}

// take returns the events queued so far, oldest first.
func (q *playerQueue) take() []playerEvent {
	q.mu.Lock()
	defer q.mu.Unlock()
	evs := q.events
	q.events = nil
	return evs
}
