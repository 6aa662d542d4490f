package server

import (
	"errors"
	"time"

	answerfiles "gridlag/internal/perception/answers"
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
	path, err := answerfiles.Append(dir, n.Room, a.files[n.Class], n.Trials, now)
	if err != nil {
		return "", err
	}
	a.files[n.Class] = path
	return path, nil
}
