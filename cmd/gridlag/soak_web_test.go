//go:build soak

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"gridlag/front/web"
)

// badInputs are what the byte attacks type: issue 30's bytes (each spun
// a core for ever and kept its session), the fragments and floods
// FuzzSSHInput's seeds hold.
var badInputs = [][]byte{
	[]byte("\xff"), []byte("\xff\xfe\xfd"), []byte("\xc3"), []byte("\xc3j"), []byte("jj\xffll"),
	[]byte("\x1b"), []byte("\x1b[1;5"), []byte("\x1b[" + strings.Repeat("1;", 1000)),
	[]byte("\x1b]52;c;" + strings.Repeat("QUFB", 500)), []byte("\x1b[65;0;65;1;0;2000000000_"),
	[]byte("\x1b[0;0;27;1;0;1_\x1b[0;0;91;1;0;1_"), []byte("\x1b[<0;99999;99999M"),
	append([]byte("q"), bytes.Repeat([]byte("j"), 3000)...),
}

// webDial opens the page's WebSocket at webAddr from the loopback address
// local, with the page's own Origin.
func webDial(ctx context.Context, webAddr, local string) (*websocket.Conn, error) {
	nd := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	c, _, err := websocket.Dial(ctx, "ws://"+webAddr+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": {"http://" + webAddr}},
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: nd.DialContext}},
	})
	if err == nil {
		c.SetReadLimit(1 << 24)
	}
	return c, err
}

// webSession opens a WebSocket from local and says hello as name on a
// cols x rows terminal; it returns once the screen's first bytes came
// (within 10 s).
func webSession(ctx context.Context, webAddr, local, name string, cols, rows int) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := webDial(ctx, webAddr, local)
	if err != nil {
		return nil, err
	}
	hello, _ := json.Marshal(map[string]any{"name": name, "id": fmt.Sprintf("%032x", rand.Uint64()), "path": "/", "cols": cols, "rows": rows})
	if err := c.Write(ctx, websocket.MessageText, hello); err != nil {
		c.CloseNow()
		return nil, err
	}
	for {
		typ, _, err := c.Read(ctx)
		if err != nil {
			c.CloseNow()
			return nil, err
		}
		if typ == websocket.MessageBinary {
			return c, nil
		}
	}
}

// discard reads and drops what the server sends c until it closes.
func discard(c *websocket.Conn) {
	for {
		if _, _, err := c.Read(context.Background()); err != nil {
			return
		}
	}
}

// webBadBytes is a page that types one of badInputs as a key message,
// then goes.
func webBadBytes(ctx context.Context, webAddr, local string) {
	c, err := webSession(ctx, webAddr, local, "bytes", 100, 40)
	if err != nil {
		return
	}
	go discard(c)
	c.Write(ctx, websocket.MessageBinary, badInputs[rand.IntN(len(badInputs))])
	c.CloseNow()
}

// sshBadBytes is an SSH player who types one of badInputs, then either
// ends their input (as ssh -tt's when its own ends) and waits for the
// session's end, or goes at once.
func sshBadBytes(sshAddr, local string) {
	c, err := sshClient(sshAddr, local, "bytes")
	if err != nil {
		return
	}
	defer c.Close()
	shown := &watchFor{want: []byte("\x1b[?1049h"), tail: []byte{}, found: make(chan struct{})}
	sess, in, err := sshTerminal(c, 80, 24, shown)
	if err != nil {
		return
	}
	select {
	case <-shown.found:
	case <-time.After(10 * time.Second):
		return
	}
	in.Write(badInputs[rand.IntN(len(badInputs))])
	if rand.IntN(2) == 0 {
		in.Close()
		ended := make(chan struct{})
		go func() {
			sess.Wait()
			close(ended)
		}()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
		}
	}
}

// webBigTerminals keeps n sessions open from local on terminals of
// 10000x10000, each pressing ? (the help, the biggest screen) and
// flooding sizes that alternate with 80x24 at 90 a second (under the
// page's rate), reading what the server draws. A session that ends is
// opened again.
func webBigTerminals(ctx context.Context, webAddr, local string, n int, count func()) {
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				count()
				c, err := webSession(ctx, webAddr, local, "big", 10000, 10000)
				if err != nil {
					time.Sleep(100 * time.Millisecond)
					continue
				}
				go discard(c)
				err = c.Write(ctx, websocket.MessageBinary, []byte("?"))
				for j := 0; err == nil && ctx.Err() == nil; j++ {
					w, h := 10000, 10000
					if j%2 == 1 {
						w, h = 80, 24
					}
					size, _ := json.Marshal(map[string]int{"cols": w, "rows": h})
					err = c.Write(ctx, websocket.MessageText, size)
					time.Sleep(time.Second / 90)
				}
				c.CloseNow()
			}
		})
	}
	wg.Wait()
}

// webStalled keeps n sessions open from local that stop reading once
// their screen came: a 10000x10000 terminal pressing ?, then nothing read
// (the socket's buffers shrunk). The server drops them as stalled; each
// is opened again.
func webStalled(ctx context.Context, webAddr, local string, n int, count func()) {
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				count()
				c, err := webSession(ctx, webAddr, local, "stalled", 10000, 10000)
				if err != nil {
					time.Sleep(100 * time.Millisecond)
					continue
				}
				c.Write(ctx, websocket.MessageBinary, []byte("?"))
				// Keep typing (not idle), read nothing, until the
				// server drops the session (a write fails) or the soak
				// ends.
				for ctx.Err() == nil {
					wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
					err := c.Write(wctx, websocket.MessageBinary, []byte("?"))
					cancel()
					if err != nil {
						break
					}
					time.Sleep(time.Second)
				}
				c.CloseNow()
			}
		})
	}
	wg.Wait()
}

// webForeignHost asks for a WebSocket from local as a page on a
// rebinding domain would: Host and Origin a foreign name. It reports
// whether the server upgraded it (101).
func webForeignHost(webAddr, local string) (upgraded bool) {
	c, err := dialFrom(local, webAddr)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "GET /ws HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\nUpgrade: websocket\r\n"+
		"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	status, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.Contains(status, " 101 ")
}

// webFlood is a page that sends key messages as fast as it can, over
// the page's rate: the server ends the session.
func webFlood(ctx context.Context, webAddr, local string) {
	c, err := webSession(ctx, webAddr, local, "flood", 80, 24)
	if err != nil {
		return
	}
	go discard(c)
	for i := 0; i < 2000 && ctx.Err() == nil; i++ {
		if c.Write(ctx, websocket.MessageBinary, []byte("j")) != nil {
			break
		}
	}
	c.CloseNow()
}

// webGarbage is a page that sends what the page never sends (random
// bytes as a text message): the server ends the session.
func webGarbage(ctx context.Context, webAddr, local string) {
	c, err := webSession(ctx, webAddr, local, "garbage", 80, 24)
	if err != nil {
		return
	}
	go discard(c)
	b := make([]byte, 64)
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	c.Write(ctx, websocket.MessageText, b)
	c.CloseNow()
}

// webHonestResult is what the honest web player saw.
type webHonestResult struct {
	tries, played int
	joined        []time.Duration // from connecting to the joined notice
	lost          string
}

// playHonestlyOverWeb opens the page's WebSocket from 127.0.0.11 every
// 2 s until ctx is done, as a browser would: the hello on a 100x40
// terminal, the lobby's default room if the lobby shows, the game (the
// joined notice), a few steps, then q and the end notice. A session that
// cannot get in, or is not in the game within 10 s, is a failure.
func playHonestlyOverWeb(ctx context.Context, webAddr string) <-chan webHonestResult {
	done := make(chan webHonestResult, 1)
	go func() {
		var res webHonestResult
		defer func() { done <- res }()
		for ctx.Err() == nil {
			res.tries++
			start := time.Now()
			switch err := playOnceOverWeb(ctx, webAddr, &res, start); {
			case err == nil:
				res.played++
			case ctx.Err() != nil:
				res.tries-- // the soak's end cut it short
			default:
				res.lost = err.Error()
			}
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Second):
			}
		}
	}()
	return done
}

func playOnceOverWeb(ctx context.Context, webAddr string, res *webHonestResult, start time.Time) error {
	c, err := webSession(ctx, webAddr, "127.0.0.11", "honest-web", 100, 40)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer c.CloseNow()
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	lobby := &watchFor{want: []byte("(default)"), tail: []byte{}, found: make(chan struct{})}
	for joined := false; !joined; {
		typ, data, err := c.Read(rctx)
		if err != nil {
			return fmt.Errorf("not in the game within 10s: %w", err)
		}
		if typ == websocket.MessageBinary {
			lobby.Write(data)
			select {
			case <-lobby.found:
				lobby.found = make(chan struct{}) // once
				c.Write(rctx, websocket.MessageBinary, []byte("\r"))
			default:
			}
			continue
		}
		var n struct {
			Joined *struct{} `json:"joined"`
			End    *struct {
				Reason string `json:"reason"`
			} `json:"end"`
		}
		json.Unmarshal(data, &n)
		switch {
		case n.End != nil:
			return fmt.Errorf("ended before the game: %s", n.End.Reason)
		case n.Joined != nil:
			joined = true
		}
	}
	res.joined = append(res.joined, time.Since(start))
	go discard(c)
	for _, key := range []string{"\x1b[C", "\x1b[D", "\x1b[C", "\x1b[D", "q"} {
		time.Sleep(150 * time.Millisecond)
		if err := c.Write(rctx, websocket.MessageBinary, []byte(key)); err != nil {
			return fmt.Errorf("typing: %w", err)
		}
	}
	return nil
}

// webDefaults are the web front end's settings at their flags'
// defaults.
func webDefaults() web.Options {
	return web.Options{MaxSessions: web.DefaultMaxSessions, MaxPerAddr: web.DefaultMaxPerAddr,
		HandshakeTimeout: web.DefaultHandshakeTimeout, IdleTimeout: web.DefaultIdleTimeout, StallTimeout: web.DefaultStallTimeout,
		MaxMessage: web.DefaultMaxMessage, MessageRate: web.DefaultMessageRate}
}
