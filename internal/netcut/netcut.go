// Package netcut is a TCP relay that can cut every connection it carries
// at once, as a network blip does, for tests of players coming back after
// a drop. It is test support: nothing in the game imports it.
package netcut

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy relays TCP connections to a target and can cut every one of them
// at once; it keeps accepting new ones.
type Proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	conns []net.Conn
}

// Start listens on a free loopback port and relays to target until the
// test ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: target}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.serve(&wg)
	}()
	t.Cleanup(func() {
		ln.Close()
		p.Cut()
		wg.Wait()
	})
	return p
}

// Addr is where clients connect.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

func (p *Proxy) serve(wg *sync.WaitGroup) {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		wg.Add(2)
		go relay(wg, in, out)
		go relay(wg, out, in)
	}
}

// relay copies src to dst until either ends, then closes both.
func relay(wg *sync.WaitGroup, dst, src net.Conn) {
	defer wg.Done()
	io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// Cut closes every relayed connection, both ends.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
