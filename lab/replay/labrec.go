package replay

import (
	"errors"
	"time"

	"gridlag/grid"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/tui"
)

// LabRecorder is a lab that records every live action as it passes it
// on: the lab's model (a tui.LabModel) for the lab's screen. Each action
// is written at the lab's time, after a Sync event bringing the lab's
// world to the time the clock had brought it to since the last one, so
// that a replay makes the same calls of the lab in the same order. A
// recording that reaches its bound ends there (Full), the lab goes on.
type LabRecorder struct {
	tui.LabModel
	lab     *lab.Lab
	w       *record.Writer
	synced  time.Duration // the lab's time of the last Sync written
	players [2]recordedPlayer
	err     error
	// restarted is the lab's time when a restart ended the recording
	// (a recording holds one run of the lab: the restart's is not in it).
	restarted time.Duration
	ended     bool
}

// ErrRestarted is Err once a restart ended the recording.
var ErrRestarted = errors.New("replay: the lab restarted: a recording holds one run of the lab")

// RecordLab returns l's model, recording into w. The lab gives no
// perception test then: a replay could not give its answers.
func RecordLab(l *lab.Lab, w *record.Writer) *LabRecorder {
	l.NoPerception("a recording holds the lab alone (quit, then gridlag lab -perception)")
	r := &LabRecorder{LabModel: l.Model(), lab: l, w: w}
	for i := range r.players {
		r.players[i] = recordedPlayer{LabPlayer: r.LabModel.Player(i), r: r, who: uint8(i)}
	}
	return r
}

// write records an action of who at the lab's time, after the Sync it
// needs.
func (r *LabRecorder) write(kind record.Kind, who uint8, arg int64) {
	now := r.lab.Now()
	if now > r.synced {
		r.put(record.Event{At: now, Kind: record.Sync, Who: record.Nobody})
		r.synced = now
	}
	r.put(record.Event{At: now, Kind: kind, Who: who, Arg: arg})
}

func (r *LabRecorder) put(e record.Event) {
	if r.err != nil {
		return
	}
	r.err = r.w.Write(e)
}

// Err returns why the recording stopped early (record.ErrFull at its
// bound, ErrRestarted at a restart, or the file's error); nil while it
// records.
func (r *LabRecorder) Err() error { return r.err }

// Close ends the recording at the lab's time.
func (r *LabRecorder) Close() error {
	if r.ended {
		return nil
	}
	r.ended = true
	err := r.w.Close(r.lab.Now())
	if r.err != nil && r.err != record.ErrFull && r.err != ErrRestarted {
		return r.err
	}
	return err
}

// Restart ends the recording at the time the lab had reached (what came
// before replays), then restarts the lab, which plays on unrecorded.
func (r *LabRecorder) Restart() {
	if !r.ended {
		r.restarted = r.lab.Now()
		cerr := r.Close()
		if r.err == nil {
			r.err = ErrRestarted
		}
		if cerr != nil {
			r.err = cerr
		}
	}
	r.LabModel.Restart()
}

// Restarted returns the lab's time at which a restart ended the
// recording; ok false if none did.
func (r *LabRecorder) Restarted() (at time.Duration, ok bool) {
	return r.restarted, r.err == ErrRestarted
}

// Step records the step (at the time it starts from), then steps.
func (r *LabRecorder) Step() {
	r.write(record.Step, record.Nobody, 0)
	r.LabModel.Step()
	r.synced = r.lab.Now() // where the step took the world: no Sync brings it there
}

// Pause, Resume and SlowDown are recorded, for the record: they change
// nothing a replay plays.
func (r *LabRecorder) Pause() {
	r.write(record.Pause, record.Nobody, 0)
	r.LabModel.Pause()
}

func (r *LabRecorder) Resume() {
	r.write(record.Resume, record.Nobody, 0)
	r.LabModel.Resume()
}

func (r *LabRecorder) SlowDown() {
	r.LabModel.SlowDown()
	r.write(record.Speed, record.Nobody, int64(r.lab.Speed()))
}

// SetRate and SetLagComp record the server's switches.
func (r *LabRecorder) SetRate(hz int) {
	r.write(record.Rate, record.Nobody, int64(min(max(hz, 0), 1_000_000)))
	r.LabModel.SetRate(hz)
}

func (r *LabRecorder) SetLagComp(on bool) {
	r.write(record.LagComp, record.Nobody, onOff(on))
	r.LabModel.SetLagComp(on)
}

// Player returns player i, recording its actions.
func (r *LabRecorder) Player(i int) tui.LabPlayer { return &r.players[i] }

// recordedPlayer is a lab's player whose every action is recorded.
type recordedPlayer struct {
	tui.LabPlayer
	r   *LabRecorder
	who uint8
}

func (p *recordedPlayer) Press(d grid.Dir) {
	p.r.write(record.Press, p.who, int64(d))
	p.LabPlayer.Press(d)
}

func (p *recordedPlayer) Zap() {
	p.r.write(record.Zap, p.who, 0)
	p.LabPlayer.Zap()
}

func (p *recordedPlayer) SetPredict(on bool) {
	p.r.write(record.Predict, p.who, onOff(on))
	p.LabPlayer.SetPredict(on)
}

func (p *recordedPlayer) SetReconcile(on bool) {
	p.r.write(record.Reconcile, p.who, onOff(on))
	p.LabPlayer.SetReconcile(on)
}

func (p *recordedPlayer) SetInterpolate(on bool) {
	p.r.write(record.Interpolate, p.who, onOff(on))
	p.LabPlayer.SetInterpolate(on)
}

func (p *recordedPlayer) SetLatency(rtt time.Duration) {
	p.r.write(record.Latency, p.who, int64(max(rtt, 0)))
	p.LabPlayer.SetLatency(rtt)
}

func (p *recordedPlayer) SetJitter(j time.Duration) {
	p.r.write(record.Jitter, p.who, int64(max(j, 0)))
	p.LabPlayer.SetJitter(j)
}

func (p *recordedPlayer) NextPreset() {
	p.r.write(record.Preset, p.who, 0)
	p.LabPlayer.NextPreset()
}

func (p *recordedPlayer) Spike() {
	p.r.write(record.Spike, p.who, 0)
	p.LabPlayer.Spike()
}

func onOff(on bool) int64 {
	if on {
		return 1
	}
	return 0
}
