// Package agones makes a process an Agones game server: it is a client of
// the Agones SDK sidecar, the server that Agones runs beside every game
// server in a Kubernetes cluster, over the sidecar's REST interface (the
// documented HTTP gateway of the SDK's gRPC calls). It needs no Agones
// module: net/http and encoding/json do, with the project's logger.
//
// A game server calls Ready once its ports listen, Health at the period its
// Fleet's health check expects, keeps its players in the GameServer's
// "players" List (PlayerConnect, PlayerDisconnect) and labels it
// (SetLabel), and calls Shutdown when it is done. WatchShutdown tells it
// when Agones wants it gone. Game does all of that for a game server: it
// takes its heartbeats (Beat) and its players' joins and leaves (Joined,
// Left) without ever blocking the game, and Serve runs the life from
// Ready to the drain, the close and Shutdown.
//
// The sidecar may start after the game server: every call is retried with
// a bounded, jittered exponential backoff while the sidecar does not
// answer, and fails with an error naming the sidecar's address once
// Options.Timeout has passed, never hanging. The sidecar's address is
// 127.0.0.1 and the port AGONES_SDK_HTTP_PORT gives (SidecarAddr).
package agones
