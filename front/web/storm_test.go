package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"gridlag/server/admit/admittest"
)

// A reconnect storm from one address (a page reloaded in a loop, a
// script, a class's tabs all retrying at once): 8 tabs from 127.0.0.2
// each reload 25 times as fast as they can, each reload a new WebSocket
// and hello, the old socket dropped without a close. The address's cap
// (4 here) holds: each attempt either plays (is told who it is) or is
// refused with close code 1013, the reason and a wait, or is turned
// away before its request once the address holds its open connections'
// share; nothing else. A player from another address plays through the
// storm, and once it is over the server runs only that player's session
// and the storm's address may play again: nothing leaked. The rate of
// new WebSockets an address may open (-web-attempts, whose default, 60
// at once then 2 a second, refuses most of these 200, 196 when tried,
// and the calm player after them) is out of the way: this is the caps' test;
// TestAttemptsPastTheRateCostNoSession is the rate's.
func TestReconnectStormFromOneAddress(t *testing.T) {
	const tabs, reloads, perAddr = 8, 25, 4
	s, _ := startGameWeb(t, Options{MaxPerAddr: perAddr, Attempts: tabs * reloads * 60, AttemptBurst: tabs * reloads})
	ada := openTab(t, s, dialer{from: "127.0.0.3"}, "ada", testID(1), "/")
	ada.waitText("you (10,10)")

	var joined, refused, turnedAway atomic.Int64
	var wg sync.WaitGroup
	for i := range tabs {
		wg.Go(func() {
			for r := range reloads {
				switch err := stormAttempt(s, fmt.Sprintf("st%d", i), testID(200+i)); {
				case err == errJoined:
					joined.Add(1)
				case err == errRefused:
					refused.Add(1)
				case errors.Is(err, errTurnedAway):
					turnedAway.Add(1)
				default:
					t.Errorf("tab %d, reload %d: %v", i, r, err)
				}
			}
		})
	}
	// ada plays while the storm blows.
	ada.send("\x1b[C")
	ada.waitText("you (11,10)", "server (11,10)")
	wg.Wait()
	t.Logf("%d attempts: %d played, %d refused with 1013 and a wait, %d turned away before their request",
		tabs*reloads, joined.Load(), refused.Load(), turnedAway.Load())
	if joined.Load() == 0 || refused.Load() == 0 {
		t.Errorf("the storm: %d played, %d refused; want both (the cap lets %d play at once)", joined.Load(), refused.Load(), perAddr)
	}
	// Right again: the storm's avatars, kept for their players to come
	// back, stand where a new player starts, at (10,10).
	ada.send("\x1b[C")
	ada.waitText("you (12,10)", "server (12,10)")
	admittest.Eventually(t, func() bool { return s.Stats().Sessions == 1 },
		func() string {
			return fmt.Sprintf("after the storm the server runs %d sessions, want ada's alone", s.Stats().Sessions)
		})
	// The storm spent its address's joins too (the hub's -join-rate): a
	// calm player told to try again does so, as the page does, and plays.
	for {
		calm := openTab(t, s, dialer{from: "127.0.0.2"}, "calm", testID(299), "/")
		var played bool
		var end *ending
		calm.wait("the calm player's joined or end notice", func() bool {
			for _, n := range calm.notices {
				if n.Joined != nil {
					played = true
					return true
				}
				if n.End != nil {
					end = n.End
					return true
				}
			}
			return false
		})
		if played {
			break
		}
		if !end.Again {
			t.Fatalf("after the storm the calm player was refused for good: %q", end.Reason)
		}
		time.Sleep(100 * time.Millisecond) // pacing its tries, as the page waits
	}
}

var (
	errJoined     = errors.New("joined")
	errRefused    = errors.New("refused for the address's cap")
	errTurnedAway = errors.New("turned away before the request")
)

// stormAttempt is one reload of a storm's tab from 127.0.0.2: a new
// WebSocket and hello, read until the server says who the player is
// (errJoined, and the socket dropped at once, as a reload does) or why
// it refused (errRefused if it is the cap's 1013 with a wait); any other
// outcome is an error that says what happened.
func stormAttempt(s *Server, name, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, _, err := dialer{from: "127.0.0.2"}.dial(ctx, s)
	if err != nil {
		return fmt.Errorf("%w: %v", errTurnedAway, err)
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	b, _ := json.Marshal(hello{Name: name, ID: id, Path: "/", Cols: 100, Rows: 40})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("hello: %v", err)
	}
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return fmt.Errorf("the socket ended with neither a joined nor an end notice: %v", err)
		}
		if typ != websocket.MessageText {
			continue
		}
		var n notice
		if err := json.Unmarshal(data, &n); err != nil {
			return fmt.Errorf("a text message that is no notice: %q", data)
		}
		switch {
		case n.Joined != nil:
			return errJoined
		case n.End != nil:
			_, _, err := c.Read(ctx)
			if code := websocket.CloseStatus(err); code != websocket.StatusTryAgainLater || !n.End.Again || n.End.Retry < 1 || n.End.Reason == "" {
				return fmt.Errorf("ended %+v, close %v; want the cap's refusal: 1013, a reason and a wait", *n.End, code)
			}
			return errRefused
		}
	}
}
