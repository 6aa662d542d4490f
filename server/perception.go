package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"gridlag/internal/perception"
	"gridlag/server/hub"
)

// answers keeps the files of the rooms' perception tests: the answers of
// each run (hub.NotePerception) go as CSV into a file of the run's class,
// made at its first run's end and added to at each run after it, in
// Options.PerceptionDir. The file's name, or why there is none, goes to
// the room's teachers and spectators (hub.Hub.PerceptionNote) and the log.
type answers struct {
	files map[int]string // by class
	due   []hub.Note     // the NotePerceptions of the batch being read
}

// saveAnswers saves the answers of the NotePerceptions of the batch just
// read, and tells each room where.
func (s *Server) saveAnswers() {
	for _, n := range s.answers.due {
		path, err := s.answers.save(s.opts.PerceptionDir, n, time.Now())
		if err != nil {
			s.log.Warn("perception answers not saved", "room", n.Room, "err", err)
			s.hub.PerceptionNote(s.now(), n.Room, "answers not saved: "+err.Error())
			continue
		}
		s.log.Info("perception answers saved", "room", n.Room, "answers", len(n.Trials), "file", path)
		s.hub.PerceptionNote(s.now(), n.Room, "answers saved: "+path)
	}
	clear(s.answers.due)
	s.answers.due = s.answers.due[:0]
}

// save writes the trials of n into the file of its class in dir, made
// now if it has none yet, and returns its path.
func (a *answers) save(dir string, n hub.Note, now time.Time) (string, error) {
	if dir == "" {
		return "", errors.New("this server keeps no files of them (-perception-dir -, or no state directory)")
	}
	if a.files == nil {
		a.files = make(map[int]string)
	}
	path, ok := a.files[n.Class]
	var f *os.File
	var err error
	if ok {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	} else {
		if err = os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		path, f, err = createAnswers(dir, n.Room, now)
	}
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := perception.WriteCSV(&b, n.Trials); err != nil {
		f.Close()
		return "", err
	}
	text := b.String()
	if ok {
		_, text, _ = strings.Cut(text, "\n") // the header is the file's first line already
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	a.files[n.Class] = path
	return path, nil
}

// createAnswers makes a new file for the answers of a class of room in
// dir, named after the room and the time: perception-3b-20250314-101500.csv
// (-2, -3... if taken).
func createAnswers(dir, room string, now time.Time) (string, *os.File, error) {
	base := "perception-" + fileWord(room) + "-" + now.Format("20060102-150405")
	for i := 1; ; i++ {
		name := base + ".csv"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.csv", base, i)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) && i < 100 {
			continue
		}
		return path, f, err
	}
}

// fileWord is a room's name as a part of a file's name: its letters and
// digits, - and _, anything else _; "default" for the default room.
func fileWord(room string) string {
	if room == "" {
		return "default"
	}
	return strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, room)
}
