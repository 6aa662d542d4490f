// Package metrics exports a gridlag server's measurements to Prometheus,
// sums them up for the log, and serves them over HTTP with the server's
// health checks (and, when asked for, the Go profiler): /metrics,
// /healthz, /readyz and /debug/pprof/ (Routes).
//
// It is a package of its own, rather than part of server, so that the
// server, and everything that embeds its Core (sim, scenario, the lab),
// stays free of the Prometheus client: the server only knows the
// server.Metrics interface, which an Exporter implements, and the counts
// the Core keeps anyway are read from Server.Stats when Prometheus
// scrapes. Labels are bounded: the reason of a refusal or a leave is one of
// server.ReasonKinds, never an address, a name or a number.
//
// A Summarizer reads the same registry a scrape does, so that the log's
// periodic line (players, rooms, joins, ticks, bytes and refusals of the
// interval) and /metrics never disagree. The health checks apply
// server.Health's rules: /healthz is the process and its world's
// goroutine alive (the rule of Agones's health pings), /readyz is it
// taking players (not draining, not at its caps).
package metrics
