// Package answers keeps the perception test's answers in files: a CSV
// file (internal/perception's format) per class of the server, or per
// lab, made at a run's end and added to at each run after it. It is the
// I/O internal/perception, a package the cores share, does not do.
package answers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"gridlag/internal/perception"
)

// Append adds trials to the answers' file at path, or, with path "",
// makes a new file for them in dir (made if missing), named after the
// room (or the lab) and now: perception-3b-20250314-101500.csv (-2,
// -3... if taken). It returns the file's path. A file made here has the
// header; one added to gets the rows alone.
func Append(dir, room, path string, trials []perception.Trial, now time.Time) (string, error) {
	var f *os.File
	var err error
	if path != "" {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	} else {
		if err = os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		path, f, err = createAnswers(dir, room, now)
	}
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := perception.WriteCSV(&b, trials); err != nil {
		f.Close()
		return "", err
	}
	return path, finish(f, path, b.String())
}

// finish writes text into f, the file at path, and closes it.
func finish(f *os.File, path, text string) error {
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		_, text, _ = strings.Cut(text, "\n") // the header is the file's first line already
	}
	_, err := f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// createAnswers makes a new file for the answers of room in dir, named
// after the room and the time.
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
