package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/charmbracelet/log"

	"gridlag/protocol"
)

// stateDir is where gridlag keeps its log and SSH host key:
// $XDG_STATE_HOME/gridlag, else ~/.local/state/gridlag, else the temporary
// directory.
func stateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "gridlag")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "gridlag")
	}
	return filepath.Join(os.TempDir(), "gridlag")
}

func defaultLogPath() string { return filepath.Join(stateDir(), "gridlag.log") }

func defaultKeyPath() string { return filepath.Join(stateDir(), "ssh_host_ed25519_key") }

// logOptions are how every log of gridlag writes: a timestamp to the
// second, the level, the message, then keys and values.
func logOptions(level log.Level) log.Options {
	return log.Options{ReportTimestamp: true, Level: level}
}

// openLog returns a logger writing to path ("-" = standard error) and a
// function that closes the file.
func openLog(path string, level log.Level) (*log.Logger, func(), error) {
	if path == "-" {
		l := log.NewWithOptions(os.Stderr, logOptions(level))
		return l, func() {}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	l := log.NewWithOptions(f, logOptions(level))
	return l, func() { f.Close() }, nil
}

// openScreenLog opens the log of a mode that owns the terminal (play, lab,
// spectate): path, or the default log file when path is empty, never the
// screen. It returns the path opened, for the help overlay.
func openScreenLog(path string, debug bool) (*log.Logger, func(), string, error) {
	if path == "" {
		path = defaultLogPath()
	}
	logger, closeLog, err := openLog(path, level(debug))
	if err != nil {
		return nil, nil, "", fmt.Errorf("log file: %w", err)
	}
	return logger, closeLog, path, nil
}

// level is the log's level: debug with -debug.
func level(debug bool) log.Level {
	if debug {
		return log.DebugLevel
	}
	return log.InfoLevel
}

// defaultName is -name's default: the login name, as a player's name.
func defaultName() string {
	if n := protocol.SanitizeName(os.Getenv("USER")); n != "" {
		return n
	}
	return "player"
}

// openFile opens a file a flag names (a trace): the packages that
// register such flags are given it, as a core opens no file.
func openFile(path string) (io.ReadCloser, error) { return os.Open(path) }
