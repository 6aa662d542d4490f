package sshd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"
)

// Teachers are the SSH keys the operator named teachers' (-teachers): a
// file in OpenSSH's authorized_keys format, one public key a line (with
// options and a comment if you like; blank lines and # comments are
// skipped). A session of one of these keys may teach a room (TeachCommand);
// anyone else is refused. The file is read when the server starts, where
// a line that is not a key is an error naming it, and read again when it
// changes (its size or time), at the next teach session: a file that has
// become bad keeps the keys read last, and the log says why. It is safe
// for concurrent use.
type Teachers struct {
	path string
	log  *log.Logger

	mu    sync.Mutex
	keys  map[string]bool // by SHA256 fingerprint
	size  int64
	mtime time.Time
	bad   string // why the file was last refused, so that it is logged once
}

// LoadTeachers reads the teachers' keys from path; an error names the
// file and, for a line that is no key, its number. logger (nil: none)
// is told when the file is read again or refused.
func LoadTeachers(path string, logger *log.Logger) (*Teachers, error) {
	if logger == nil {
		logger = log.New(discard{})
	}
	t := &Teachers{path: path, log: logger}
	if err := t.load(); err != nil {
		return nil, err
	}
	return t, nil
}

// Count returns how many keys are named.
func (t *Teachers) Count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.keys)
}

// Named reports whether the key of SHA256 fingerprint fp is a teacher's,
// reading the file again first if it changed.
func (t *Teachers) Named(fp string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st, err := os.Stat(t.path); err != nil || st.Size() != t.size || !st.ModTime().Equal(t.mtime) {
		t.reloadLocked()
	}
	return t.keys[fp]
}

// reloadLocked reads the file again, keeping the keys it had if the file
// is now bad (and saying why, once).
func (t *Teachers) reloadLocked() {
	keys, size, mtime, err := readTeachers(t.path)
	if err != nil {
		if why := err.Error(); why != t.bad {
			t.bad = why
			t.log.Error("teachers file refused, keeping the keys read before", "err", err, "keys", len(t.keys))
		}
		return
	}
	t.bad = ""
	t.keys, t.size, t.mtime = keys, size, mtime
	t.log.Info("teachers file read again", "path", t.path, "keys", len(keys))
}

// load reads the file the first time.
func (t *Teachers) load() error {
	keys, size, mtime, err := readTeachers(t.path)
	if err != nil {
		return err
	}
	t.keys, t.size, t.mtime = keys, size, mtime
	return nil
}

// readTeachers reads an authorized_keys file: the fingerprints of its
// keys, its size and time. Until a key is read, an error quotes nothing of
// the file.
func readTeachers(path string) (keys map[string]bool, size int64, mtime time.Time, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, time.Time{}, fmt.Errorf("teachers file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, 0, time.Time{}, fmt.Errorf("teachers file %s: not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, time.Time{}, fmt.Errorf("teachers file: %w", err)
	}
	keys = make(map[string]bool)
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil && len(keys) == 0 {
			// No key read yet: the file may be anything (a password
			// file); say where, nothing of what it holds.
			return nil, 0, time.Time{}, fmt.Errorf("teachers file %s, line %d: no public key, nor any before it (want one as in authorized_keys, e.g. ssh-ed25519 AAAA... name)", path, i+1)
		}
		if err != nil {
			return nil, 0, time.Time{}, fmt.Errorf("teachers file %s, line %d: %w (want a public key as in authorized_keys, e.g. ssh-ed25519 AAAA... name)", path, i+1, err)
		}
		keys[gossh.FingerprintSHA256(key)] = true
	}
	return keys, st.Size(), st.ModTime(), nil
}

// errNoTeachers is why a session that asks to teach is refused on a
// server that names none.
var errNoTeachers = errors.New("this server names no teachers (its operator starts it with -teachers FILE)")

// discard is an io.Writer that writes nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
