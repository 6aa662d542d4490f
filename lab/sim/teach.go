package sim

import (
	"fmt"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/notify"
	"gridlag/internal/perception"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// Watcher is a spectator's driver (client.SpectatorDriver, the code a
// TCP spectator runs) on a simulated link to the world's server: with
// client.Options.Teach, a teacher, who sets the network of its room
// (Teach), follows one student (Follow) and is shown its students'
// reports.
type Watcher struct {
	w      *World
	id     world.ConnID
	d      *client.SpectatorDriver
	gone   bool
	states protocol.StateStream // the server's end of the stream to it

	changed chan struct{} // signalled (capacity 1) at each note of the driver
	done    chan struct{}
}

// Watch connects a spectator (a teacher with opts.Teach) and advances
// the clock until it watches or its connection ended. named says that its
// connection is a teacher's (hub.Origin.Teacher): only a named one's Teach
// is taken, as only a key the operator named is over SSH.
func (w *World) Watch(name string, opts client.Options, named bool) *Watcher {
	w.mu.Lock()
	defer w.mu.Unlock()
	opts.Name = name
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	v := &Watcher{w: w, d: client.NewSpectatorDriver(w.now, opts), changed: make(chan struct{}, 1), done: make(chan struct{})}
	v.d.Observe(func(n client.Note) {
		if n.Kind == client.Entered && n.Phase == client.Closed {
			v.end()
		}
		notify.Poke(v.changed)
	})
	w.nextConn++
	v.id = w.nextConn
	w.watchers = append(w.watchers, v)
	w.watchByID[v.id] = v
	w.hub.Connect(w.now, v.id, hub.Origin{Own: true, Teacher: named})
	w.route()
	for v.d.Phase() != client.Watching && !v.gone {
		next, ok := w.next()
		if !ok {
			break
		}
		w.step(next)
	}
	return v
}

// View returns the spectator's view at the world's current time.
func (v *Watcher) View() client.WorldView {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	return v.d.View(v.w.now)
}

// end marks the spectator gone and its connection done.
func (v *Watcher) end() {
	if !v.gone {
		v.gone = true
		close(v.done)
	}
}

// Changed receives at each note of the driver (a message arrived, the
// connection ended), as tcp.Watch's does.
func (v *Watcher) Changed() <-chan struct{} { return v.changed }

// Done is closed when the connection has ended; View().Err says why.
func (v *Watcher) Done() <-chan struct{} { return v.done }

// Teach sets the room's Conditions, as a teacher's panel does.
func (v *Watcher) Teach(t client.Teaching) {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	v.d.Teach(v.w.now, t)
}

// Perceive starts a run of the room's perception test with settings s,
// or stops the one in progress (nil), as a teacher's screen does.
func (v *Watcher) Perceive(s *perception.Settings) error {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	return v.d.Perceive(v.w.now, s)
}

// Crowd asks for bots in the room and its areas of interest on or off,
// as a teacher's screen does.
func (v *Watcher) Crowd(bots int, areasOff bool) {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	v.d.Crowd(v.w.now, bots, areasOff)
}

// Follow follows student id (0: nobody), as a teacher's screen does.
func (v *Watcher) Follow(id grid.PlayerID) {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	v.d.Follow(v.w.now, id)
}

// NewCode asks for a new class code, as a teacher's screen does.
func (v *Watcher) NewCode() {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	v.d.NewCode(v.w.now)
}

// Close says Bye at once and ends the connection, as a TCP spectator
// does.
func (v *Watcher) Close() {
	v.w.mu.Lock()
	defer v.w.mu.Unlock()
	if v.gone {
		return
	}
	for _, f := range v.d.Close() {
		v.w.fromWatcher(v, f)
	}
	v.end()
	v.w.hub.Disconnect(v.w.now, v.id, "client closed")
	v.w.route()
}

// fromWatcher hands the server a frame the spectator sent.
func (w *World) fromWatcher(v *Watcher, frame []byte) {
	m, _, err := protocol.Unmarshal(frame)
	if err != nil {
		panic(fmt.Sprintf("sim: a spectator sent a frame that does not decode: %v", err))
	}
	w.hub.Receive(w.now, v.id, m)
	w.route()
}

// toWatcher delivers a message of the server to spectator v; it reports
// whether v is one of the world's.
func (w *World) toWatcher(e world.Envelope) bool {
	v := w.watchByID[e.To]
	if v == nil {
		return false
	}
	if v.gone {
		return true
	}
	var err error
	w.frames, err = v.states.Append(w.frames[:0], e.Msg)
	if err != nil {
		panic(fmt.Sprintf("sim: the server sent a message that does not encode: %v", err))
	}
	v.d.Deliver(w.now, append([]byte(nil), w.frames...))
	if e.Close {
		v.d.Hangup(w.now, nil)
	}
	return true
}
