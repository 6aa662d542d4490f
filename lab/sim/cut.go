package sim

import (
	"errors"

	"gridlag/client"
)

// Cut breaks client c's connection, as a blip does: the server sees it end
// (its player is kept for resume where the world keeps players:
// world.Config.Resume) and the client sees it lost, at once. A client
// the server gave a resume token waits for a new connection (Reconnect);
// any other ends.
func (w *World) Cut(c *Client, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c.gone {
		return
	}
	c.cut = true // what it still sends on the broken connection is lost
	c.d.Drop(w.now, errors.New(reason))
	w.disconnect(c, reason)
}

// Reconnect gives client c, waiting after Cut, a new connection to the
// server, on which it says Resume with its token: the server routes it to
// the room whose world issued the token.
func (w *World) Reconnect(c *Client) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c.gone || c.d.Phase() != client.Reconnecting {
		return
	}
	delete(w.byID, c.id)
	c.cut = false
	w.connect(c)
	c.d.Reconnect(w.now)
}
