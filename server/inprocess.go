package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// Own is the origin of the server's own players: the bots that the
// program running the server starts in its process. A connection Dialed
// from Own counts against no per-address cap (it still counts in MaxConns
// and, once joined, in the world's MaxPlayers).
var Own net.Addr = ownAddr{}

type ownAddr struct{}

func (ownAddr) Network() string { return "gridlag" }
func (ownAddr) String() string  { return "in-process" }

// ErrNotServing is returned by Dial after Close.
var ErrNotServing = errors.New("server: not serving")

// Dial opens a connection into the server from inside its own process,
// for a front end that shares the process (the SSH front end) and for
// the server's own bots, in place of a TCP connection over loopback. The
// server accepts the other end as if it had come from remote: its player
// counts against remote's per-address caps (MaxConnsPerAddr,
// MaxPlayersPerAddr) and the log names remote; Own counts against none.
// So an SSH player counts as the address of their SSH connection, not as
// the loopback address every such connection would share.
//
// Nothing a client sends can claim an origin: only code in the server's
// process can call Dial, and the game port's connections always count as
// the address the kernel gives. The two ends are a socket pair with the
// kernel's buffers, so the server writes to it as it writes to a TCP
// socket, never waiting. Called before Serve, Dial waits for it (or for
// ctx to end), as a TCP client's connection waits in the listener's
// backlog.
func (s *Server) Dial(ctx context.Context, remote net.Addr) (net.Conn, error) {
	if remote == nil {
		return nil, errors.New("server: Dial needs the connection's origin (Own for the server's own players)")
	}
	select {
	case <-s.up:
	case <-s.done:
		return nil, ErrNotServing
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	ln, ok := s.ln, s.serving && !s.closed
	s.mu.Unlock()
	if !ok {
		return nil, ErrNotServing
	}
	theirs, ours, err := socketPair()
	if err != nil {
		return nil, fmt.Errorf("server: in-process connection: %w", err)
	}
	s.accept(&originConn{UnixConn: ours, remote: remote})
	return &originConn{UnixConn: theirs, remote: ln.Addr()}, nil
}

// DialTeacher is Dial for a teacher's connection, from remote: its Teach
// is taken (hub.Origin.Teacher), where the same message from any other
// connection is refused. Only code in the server's process can call it:
// the SSH front end for a key the operator named a teacher's, the
// server's own terminal. A connection of the game port is never a
// teacher's, whatever it says.
func (s *Server) DialTeacher(ctx context.Context, remote net.Addr) (net.Conn, error) {
	if remote == nil {
		return nil, errors.New("server: DialTeacher needs the connection's origin")
	}
	return s.Dial(ctx, teacherAddr{remote})
}

// teacherAddr marks the origin of a teacher's in-process connection.
type teacherAddr struct{ net.Addr }

// originConn is one end of an in-process connection: a Unix socket that
// names as its peer the address it stands for. It keeps the socket's
// methods (SyscallConn, CloseWrite, SetWriteBuffer), which the server's
// writers use.
type originConn struct {
	*net.UnixConn
	remote net.Addr
}

// RemoteAddr is the address the connection stands for.
func (c *originConn) RemoteAddr() net.Addr { return c.remote }

// socketPair returns the two ends of a new connected pair of stream
// sockets, both non-blocking under the runtime's poller.
func socketPair() (a, b *net.UnixConn, err error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	a, err = unixConn(fds[0], "gridlag-in-process-client")
	if err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	if b, err = unixConn(fds[1], "gridlag-in-process-server"); err != nil {
		a.Close()
		return nil, nil, err
	}
	return a, b, nil
}

// unixConn makes a net.UnixConn of the socket fd, which it takes over.
func unixConn(fd int, name string) (*net.UnixConn, error) {
	syscall.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), name)
	defer f.Close() // FileConn works on a duplicate
	c, err := net.FileConn(f)
	if err != nil {
		return nil, err
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("socket pair gave a %T", c)
	}
	return uc, nil
}
