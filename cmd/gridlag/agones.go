package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/agones"
	"gridlag/server"
	"gridlag/server/world"
)

// agonesFlags are the flags of -server -agones.
type agonesFlags struct {
	on      bool
	timeout time.Duration
	health  time.Duration
}

// define defines the flags in fs.
func (a *agonesFlags) define(fs *flagSet) {
	fs.BoolVar(&a.on, "agones", false, "with -server: be an Agones game server, talking to the SDK sidecar on 127.0.0.1:$"+agones.PortEnv+" (default "+strconv.Itoa(agones.DefaultPort)+")")
	fs.duration(&a.timeout, "agones-timeout", agones.DefaultTimeout, timeoutKind, "with -agones: how long a call waits for the SDK sidecar before it fails")
	fs.duration(&a.health, "agones-health", server.DefaultHeartbeat, timeoutKind, "with -agones: the health ping period, from the world's goroutine (the Fleet's health.periodSeconds)")
}

// agonesGame makes a game server an Agones game server: Ready once its
// ports listen, Health from the world's heartbeat, its players in the
// GameServer's players List with their count in the label players, and on
// SIGTERM or Agones's Shutdown the drain (-drain), then Shutdown.
type agonesGame struct {
	sdk    *agones.Client
	flags  agonesFlags
	log    *log.Logger
	beats  chan struct{} // unbuffered: a beat while a Health call is in flight is dropped
	events *eventQueue   // joins and leaves, from the world to trackPlayers
}

// start returns the Agones side of a game server, or nil without -agones.
// It does not call the sidecar yet.
func (a agonesFlags) start(logger *log.Logger) (*agonesGame, error) {
	if !a.on {
		return nil, nil
	}
	logger = logger.WithPrefix("agones")
	sdk, err := agones.New(agones.Options{Timeout: a.timeout, Logger: logger})
	if err != nil {
		return nil, err
	}
	return &agonesGame{sdk: sdk, flags: a, log: logger, beats: make(chan struct{}), events: newEventQueue()}, nil
}

// hook sets the server's heartbeat and event hooks; a nil agonesGame sets
// none.
func (ag *agonesGame) hook(o *server.Options) {
	if ag == nil {
		return
	}
	o.Heartbeat = ag.beat
	o.HeartbeatInterval = ag.flags.health
	o.OnEvent = ag.event
}

// beat is the world's heartbeat: it wakes ping, unless ping is still busy
// with the previous beat's Health call. It never blocks the world.
func (ag *agonesGame) beat() {
	select {
	case ag.beats <- struct{}{}:
	default:
	}
}

// event queues the world's joins and leaves for trackPlayers. It never
// blocks the world.
func (ag *agonesGame) event(ev world.Event) {
	if ev.Kind == world.EventJoin || ev.Kind == world.EventLeave {
		ag.events.push(ev)
	}
}

// serve runs the game g as an Agones game server until a signal on sigs or
// Agones's Shutdown: Ready now that g's ports listen, then health pings and
// player tracking; at the end the drain (sd: the players are warned and
// play on, and a second signal cuts it short), the game's close, and
// Shutdown.
func (ag *agonesGame) serve(sigs <-chan os.Signal, g *game, sd shutdown) error {
	running, stop := context.WithCancel(context.Background())
	defer stop()
	ready := make(chan error, 1)
	go func() { ready <- ag.sdk.Ready(running) }()
	select {
	case err := <-ready:
		if err != nil {
			return err
		}
	case <-sigs:
		return nil // a signal while waiting for the sidecar
	}
	ag.log.Info("ready", "sidecar", ag.sdk.Addr())
	go ag.ping(running)
	go ag.trackPlayers(running)
	why := "signal"
	select {
	case <-sigs:
	case <-ag.sdk.WatchShutdown(running):
		why = "agones shutdown"
	case err := <-g.errCh:
		return errors.Join(cleanStop(err), ag.sdk.Shutdown(context.Background()))
	}
	ag.log.Info("draining", "why", why, "for", sd.drain)
	sd.run(sigs)
	g.close()
	ag.log.Info("shutdown")
	return ag.sdk.Shutdown(context.Background())
}

// ping calls Health at each heartbeat of the world, until ctx ends.
func (ag *agonesGame) ping(ctx context.Context) {
	for {
		select {
		case <-ag.beats:
			if err := ag.sdk.Health(ctx); err != nil && ctx.Err() == nil {
				ag.log.Warn("health", "err", err)
			}
		case <-ctx.Done():
			return
		}
	}
}

// trackPlayers keeps the players List and the label players in step
// with the world's joins and leaves, until ctx ends. The label is set once
// per batch of events.
func (ag *agonesGame) trackPlayers(ctx context.Context) {
	players := 0
	for {
		select {
		case <-ag.events.ready:
		case <-ctx.Done():
			return
		}
		events := ag.events.take()
		if len(events) == 0 {
			continue // taken with the previous token
		}
		for _, ev := range events {
			var err error
			if ev.Kind == world.EventJoin {
				players++
				err = ag.sdk.PlayerConnect(ctx, listValue(ev))
			} else {
				players--
				err = ag.sdk.PlayerDisconnect(ctx, listValue(ev))
			}
			if err != nil && ctx.Err() == nil {
				ag.log.Warn("player tracking", "err", err)
			}
		}
		if err := ag.sdk.SetLabel(ctx, "players", strconv.Itoa(players)); err != nil && ctx.Err() == nil {
			ag.log.Warn("label", "err", err)
		}
	}
}

// listValue is a player's value in the players List: its id, unique
// while it plays, and its name, e.g. "3:ann".
func listValue(ev world.Event) string {
	return fmt.Sprintf("%d:%s", ev.Player, ev.Name)
}

// eventQueue hands events from the world to another goroutine without ever
// blocking the world or losing one: the players List must see every join
// and leave.
type eventQueue struct {
	mu     sync.Mutex
	events []world.Event
	ready  chan struct{} // holds a token while events wait
}

func newEventQueue() *eventQueue {
	return &eventQueue{ready: make(chan struct{}, 1)}
}

// push queues ev.
func (q *eventQueue) push(ev world.Event) {
	q.mu.Lock()
	q.events = append(q.events, ev)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns the events queued so far, oldest first.
func (q *eventQueue) take() []world.Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	evs := q.events
	q.events = nil
	return evs
}
