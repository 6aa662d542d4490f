// Package metrics exports a gridlag server's measurements to Prometheus,
// and serves them with the Go profiler over HTTP: /metrics and
// /debug/pprof/.
//
// It is a package of its own, rather than part of server, so that the
// server, and everything that embeds its Core (sim, scenario, the lab),
// stays free of the Prometheus client: the server only knows the
// server.Metrics interface, which an Exporter implements, and the counts
// the Core keeps anyway are read from Server.Stats when Prometheus
// scrapes. Labels are bounded: the reason of a refusal or a leave is one of
// server.ReasonKinds, never an address, a name or a number.
package metrics
