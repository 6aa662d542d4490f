package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client/tcp"
	"gridlag/internal/cli"
	"gridlag/lab/record"
)

// Recordings keeps each remote player's last game recording (an SSH
// player's `record` session), under the player's identity, in a
// directory of the server's: one file per identity, which only that
// identity can fetch (sshd's `recording` command). Each recording is
// bounded by Max; at most Keep files are kept, the oldest removed first,
// saying so in the log. A recording is written to a file of its own and
// takes the identity's place only once complete, so a fetch never gets
// half of one. It is safe for concurrent use.
type Recordings struct {
	Dir    string
	Max    int64 // bytes a recording may take; 0: record.DefaultMax
	Keep   int   // files kept at most; 0: DefaultKeep
	Logger *log.Logger

	mu sync.Mutex
}

// DefaultKeep is how many players' recordings a server keeps by default.
const DefaultKeep = 100

// KeepRange is the kind of the flag of Keep (-ssh-records): 0 for none.
var KeepRange = cli.IntRange{Lo: 0, Hi: 100000}

// ErrNoRecording is a fetch by an identity that has no recording.
var ErrNoRecording = errors.New("no recording for your key yet")

// name is the file of an identity's recording: a hash of it, so that
// the directory names no key.
func (r *Recordings) name(fingerprint string) string {
	sum := sha256.Sum256([]byte("gridlag recording\x00" + fingerprint))
	return filepath.Join(r.Dir, hex.EncodeToString(sum[:12])+".rec")
}

// Path returns the file of the identity's recording, if it has one.
func (r *Recordings) Path(fingerprint string) (string, error) {
	p := r.name(fingerprint)
	if _, err := os.Stat(p); err != nil {
		return "", ErrNoRecording
	}
	return p, nil
}

// start opens a new recording of a game for the identity: opts record
// into it; finish ends it and puts it in the identity's place.
func (r *Recordings) start(fingerprint string, opts *tcp.Options, server string) (finish func() (size int64, end time.Duration, err error), err error) {
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(r.Dir, "recording-*.part")
	if err != nil {
		return nil, err
	}
	opts.Seed = time.Now().UnixNano()
	h := record.Header{Kind: record.KindGame, Created: time.Now().UTC().Format(time.RFC3339),
		Game: &record.Game{Name: opts.Name, Room: opts.Room, Server: server, Latency: record.Duration(opts.Latency),
			Jitter: record.Duration(opts.Jitter), Loss: opts.Loss, Seed: opts.Seed, Predict: true, Reconcile: true, Interpolate: true}}
	w, err := record.NewWriter(f, h, r.Max)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	j := record.NewJournal(w)
	opts.Journal = j.Call
	return func() (int64, time.Duration, error) {
		err := j.Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return 0, 0, err
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if err := os.Rename(f.Name(), r.name(fingerprint)); err != nil {
			os.Remove(f.Name())
			return 0, 0, err
		}
		r.prune()
		if j.Err() == record.ErrFull && r.Logger != nil {
			r.Logger.Info("a recording stopped at its size limit", "max", r.Max, "at", j.Last())
		}
		return w.Size(), j.Last(), nil
	}, nil
}

// prune removes the oldest recordings past Keep.
func (r *Recordings) prune() {
	keep := r.Keep
	if keep <= 0 {
		keep = DefaultKeep
	}
	entries, err := os.ReadDir(r.Dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".rec") {
			continue
		}
		if info, err := e.Info(); err == nil {
			files = append(files, file{filepath.Join(r.Dir, e.Name()), info.ModTime()})
		}
	}
	if len(files) <= keep {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:len(files)-keep] {
		os.Remove(f.path)
	}
	if r.Logger != nil {
		r.Logger.Info(fmt.Sprintf("removed the %d oldest recordings: a server keeps %d", len(files)-keep, keep), "dir", r.Dir)
	}
}
