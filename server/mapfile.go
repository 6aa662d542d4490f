package server

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"gridlag/grid"
)

// MaxMapFileSize is the largest map file LoadMap reads, in bytes: twice
// what a map of grid.MaxMapSide x grid.MaxMapSide cells with "\r\n" line
// ends takes, which leaves room for blank lines after it. Such a map loads
// and is played: its cells follow the Welcome (protocol.MapBits, or MapChunks to version 3).
const MaxMapFileSize = (grid.MaxMapSide + 2) * grid.MaxMapSide * 2

// LoadMap reads a map file for Config.Map: one line per row, '#' for a wall
// and '.' for floor (see grid.ParseMap). The empty path is the embedded
// default map, which Config takes as a nil Map, so LoadMap returns nil for
// it. A map without a floor cell is refused: nobody could play on it. A
// file that is not a map (its first line is not a row of one) is refused
// saying so, quoting none of it.
//
// Only a regular file of at most MaxMapFileSize bytes is read, so that
// loading a map never blocks (a FIFO, a terminal) nor fills the memory
// (/dev/zero): anything else is refused before it is opened for reading.
func LoadMap(path string) (*grid.Map, error) {
	if path == "" {
		return nil, nil
	}
	text, err := readMapFile(path)
	if err != nil {
		return nil, err
	}
	m, err := grid.ParseMap(string(text))
	var not *grid.NotMapError
	if errors.As(err, &not) {
		return nil, fmt.Errorf("%s is not a map file: its first line holds a character other than '#' (a wall) and '.' (floor), at column %d", path, not.Column)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Reach().Floor() == 0 {
		return nil, fmt.Errorf("%s: the map has no floor", path)
	}
	return m, nil
}

// readMapFile reads the regular file at path, at most MaxMapFileSize bytes.
// It is opened without blocking, and checked again once open, in case
// something else took its place after the first check.
func readMapFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkMapFile(path, info); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkMapFile(path, info); err != nil {
		return nil, err
	}
	text, err := io.ReadAll(io.LimitReader(f, MaxMapFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(text) > MaxMapFileSize {
		return nil, mapTooLarge(path)
	}
	return text, nil
}

// checkMapFile refuses what is not a regular file of a map's size.
func checkMapFile(path string, info os.FileInfo) error {
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s): a map is a text file", path, fileKind(info.Mode()))
	case info.Size() > MaxMapFileSize:
		return mapTooLarge(path)
	}
	return nil
}

func mapTooLarge(path string) error {
	return fmt.Errorf("%s: larger than %d bytes, more than a %dx%d map needs", path, MaxMapFileSize, grid.MaxMapSide, grid.MaxMapSide)
}

// fileKind names the kind of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}
