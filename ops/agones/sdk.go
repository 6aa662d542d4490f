package agones

import "context"

// empty is the body of the calls that take none.
var empty = struct{}{}

// Ready tells Agones the game server can take players: its state becomes
// Ready and it can be allocated.
func (c *Client) Ready(ctx context.Context) error {
	return c.call(ctx, "POST", "/ready", empty, nil)
}

// Health is one health ping. Agones marks the game server Unhealthy when
// the pings stop for longer than its Fleet's health settings allow.
func (c *Client) Health(ctx context.Context) error {
	return c.call(ctx, "POST", "/health", empty, nil)
}

// Shutdown tells Agones the game server is done: its state becomes
// Shutdown and Agones removes it.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.call(ctx, "POST", "/shutdown", empty, nil)
}

// SetLabel sets a label of the GameServer. Agones prefixes the key with
// "agones.dev/sdk-": SetLabel(ctx, "players", "3") sets the label
// agones.dev/sdk-players=3.
func (c *Client) SetLabel(ctx context.Context, key, value string) error {
	return c.call(ctx, "PUT", "/metadata/label", map[string]string{"key": key, "value": value}, nil)
}

// GameServer returns the GameServer as the sidecar knows it.
func (c *Client) GameServer(ctx context.Context) (GameServer, error) {
	var gs wireGameServer
	err := c.call(ctx, "GET", "/gameserver", nil, &gs)
	return gs.GameServer(), err
}
