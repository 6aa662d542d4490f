package agones

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"time"
)

// WatchShutdown returns a channel closed when the GameServer's state
// becomes Shutdown (Agones, or someone, wants the game server gone). It
// follows the sidecar's stream of GameServer updates, opening it again
// with backoff whenever it breaks, until ctx ends; then the channel stays
// open.
func (c *Client) WatchShutdown(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for try := 0; ctx.Err() == nil; try++ {
			seen, err := c.watch(ctx, done)
			if err == nil {
				return // closed done
			}
			if seen {
				try = 0 // the stream worked: start the backoff over
			}
			c.log.Debug("watching the GameServer", "err", err)
			select {
			case <-time.After(c.opts.Backoff.wait(try, rand.Float64())):
			case <-ctx.Done():
			}
		}
	}()
	return done
}

// watch reads one stream of GameServer updates until the state is Shutdown
// (it closes done and returns nil), or the stream or ctx ends (an error).
// seen reports whether an update came.
func (c *Client) watch(ctx context.Context, done chan struct{}) (seen bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := c.send(ctx, "GET", "/watch/gameserver", nil)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var update struct {
			Result wireGameServer `json:"result"`
		}
		if err := dec.Decode(&update); err != nil {
			return seen, err
		}
		seen = true
		if update.Result.Status.State == StateShutdown {
			close(done)
			return seen, nil
		}
	}
}
