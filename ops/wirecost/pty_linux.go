package wirecost

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminal is a program run in a pseudo-terminal of its own: what is
// written is typed, what it draws is read and dropped (its last bytes
// kept for an error's sake).
type terminal struct {
	cmd  *exec.Cmd
	tty  *os.File // the terminal's side the program does not hold
	done chan struct{}
	mu   sync.Mutex
	tail []byte
}

// startInTerminal starts path with args in a pseudo-terminal of cols x
// rows, TERM term.
func startInTerminal(path string, args []string, term string, cols, rows uint16) (*terminal, error) {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	fd := int(ptm.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		ptm.Close()
		return nil, err
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		ptm.Close()
		return nil, err
	}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		ptm.Close()
		return nil, err
	}
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ptm.Close()
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.Env = append(os.Environ(), "TERM="+term)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		pts.Close()
		ptm.Close()
		return nil, err
	}
	pts.Close()
	t := &terminal{cmd: cmd, tty: ptm, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		buf := make([]byte, 32<<10)
		for {
			k, err := ptm.Read(buf)
			t.keep(buf[:k])
			if err != nil { // EIO once the program is gone
				break
			}
		}
		cmd.Wait()
	}()
	return t, nil
}

// keep keeps the last bytes the program drew.
func (t *terminal) keep(b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tail = append(t.tail, b...)
	if len(t.tail) > 512 {
		t.tail = t.tail[len(t.tail)-512:]
	}
}

// said is the end of what the program drew, printable.
func (t *terminal) said() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(bytes.Map(func(r rune) rune {
		if r < ' ' && r != '\n' {
			return -1
		}
		return r
	}, t.tail)))
}

// write types b.
func (t *terminal) write(b []byte) error {
	_, err := t.tty.Write(b)
	return err
}

// close ends the program (it was started by us, and plays until told)
// and lets its reader finish.
func (t *terminal) close() {
	t.cmd.Process.Kill()
	t.tty.Close()
}
