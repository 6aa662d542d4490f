package wire

import (
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

func TestTermTellsCellsFromEscapes(t *testing.T) {
	var term Term
	// Cursor to 3,5, red, "ab", a wide character, an OSC title cut
	// between two writes, reset.
	term.Output([]byte("\x1b[3;5H\x1b[31mab世\x1b]0;ti"))
	term.Output([]byte("tle\x07\x1b(B\x1b[m\r\n"))
	cells, glyph := term.Cells()
	if cells != 3 || glyph != 5 {
		t.Fatalf("cells %d, glyph bytes %d; want 3 cells in 5 bytes", cells, glyph)
	}
	if f := term.Flow(); f.Down != 34 || f.DownOps != 2 {
		t.Fatalf("output %+v; want 34 bytes in 2 writes", f)
	}
	term.Keys(3)
	if f := term.Flow(); f.Up != 3 || f.UpOps != 1 {
		t.Fatalf("keys %+v; want 3 bytes in 1 read", f)
	}
}

// TestConnAndKernelAgree sends bytes both ways over loopback and reads
// them on a counted connection and in the kernel's counters of its
// socket: the payload agrees, and each data segment is one of the
// socket's segments.
func TestConnAndKernelAgree(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	player, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer player.Close()
	raw := <-accepted
	if raw == nil {
		t.Fatal("no connection accepted")
	}
	defer raw.Close()
	m := NewMeter(FrontTCP)
	srv := NewConn(raw, &m.Conn, ServerSide)
	m.SetSocket(srv, ServerSide)
	before := m.Snapshot()
	const n = 5
	buf := make([]byte, 64)
	for range n {
		if _, err := player.Write([]byte("0123456789")); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(srv, buf[:10]); err != nil {
			t.Fatal(err)
		}
		if _, err := srv.Write([]byte("abcdefghijklmnopqrst")); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(player, buf[:20]); err != nil {
			t.Fatal(err)
		}
	}
	var d Snapshot
	for deadline := time.Now().Add(10 * time.Second); ; { // a hang guard: the last acks
		d = m.Snapshot().Sub(before)
		if !d.TCP.OK() || d.TCP.Down == d.Conn.Down || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if d.Conn != (Flow{Up: 10 * n, Down: 20 * n, UpOps: n, DownOps: n}) {
		t.Fatalf("counted %+v; want %d bytes up and %d down in %d reads and writes", d.Conn, 10*n, 20*n, n)
	}
	if runtime.GOOS != "linux" {
		if d.TCP.OK() {
			t.Fatal("kernel counters outside Linux")
		}
		return
	}
	if !d.TCP.OK() {
		t.Fatalf("no kernel counters: %s", d.TCP.Why)
	}
	if d.TCP.Up != d.Conn.Up || d.TCP.Down != d.Conn.Down {
		t.Fatalf("kernel payload %d up, %d down; counted %d, %d", d.TCP.Up, d.TCP.Down, d.Conn.Up, d.Conn.Down)
	}
	if d.TCP.UpData != n || d.TCP.DownData != n || d.TCP.UpOps < n || d.TCP.DownOps < n {
		t.Fatalf("segments %+v: want %d data segments each way", d.TCP, n)
	}
	if d.TCP.Header != 52 { // IPv4 20, TCP 20, timestamps 12: Linux's default
		t.Errorf("header %d bytes a segment; want 52 on IPv4 loopback with timestamps", d.TCP.Header)
	}
	rows := d.Rows()
	if len(rows) != 2 || rows[1].Flow.Up != d.TCP.Up+d.TCP.UpOps*52 {
		t.Fatalf("rows %+v", rows)
	}
	if lines := Table(d, n, time.Second); len(lines) != 3 {
		t.Fatalf("table %q", lines)
	}
}

func TestReadTCPSaysWhyNot(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if tcp := ReadTCP(NewConn(a, nil, ServerSide), ServerSide); tcp.OK() {
		t.Fatal("kernel counters of a pipe")
	}
}
