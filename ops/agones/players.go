package agones

import "context"

// PlayersList is the GameServer List that holds the players: its Fleet
// declares it (ops/deploy/agones/fleet.yaml), with the capacity of a server.
//
// Player tracking uses a List, the beta Counters and Lists feature that
// Agones enables by default, rather than the alpha player tracking calls,
// which need a feature gate that is off by default. An allocation can then
// pick a game server by its players' count.
const PlayersList = "players"

// PlayerConnect adds player to the players List. A player already in it
// is an error.
func (c *Client) PlayerConnect(ctx context.Context, player string) error {
	return c.call(ctx, "POST", "/v1beta1/lists/"+PlayersList+":addValue", map[string]string{"value": player}, nil)
}

// PlayerDisconnect removes player from the players List. A player not in
// it is an error.
func (c *Client) PlayerDisconnect(ctx context.Context, player string) error {
	return c.call(ctx, "POST", "/v1beta1/lists/"+PlayersList+":removeValue", map[string]string{"value": player}, nil)
}
