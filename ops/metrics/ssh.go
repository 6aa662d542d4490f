package metrics

import "github.com/prometheus/client_golang/prometheus"

// sshCollector reads the SSH front end's refusal counts at each scrape.
// The label is bounded: the kinds are a fixed list, never an address.
type sshCollector struct {
	kinds   []string
	refused func() map[string]uint64
	desc    *prometheus.Desc
}

// WatchSSH adds gridlag_ssh_refusals_total, labelled reason: what the SSH
// front end's limits turned away or cut (a full pool, an address's share,
// a pool's reserve, an evicted handshake, a missed deadline), by kind,
// each of kinds (sshd.RefusalKinds) starting at 0. refused reads the
// counts (sshd.Server.Stats) at each scrape; the metrics package knows
// nothing of sshd, which sits above it.
func (e *Exporter) WatchSSH(kinds []string, refused func() map[string]uint64) {
	e.reg.MustRegister(&sshCollector{
		kinds:   kinds,
		refused: refused,
		desc: prometheus.NewDesc("gridlag_ssh_refusals_total",
			"SSH connections and sessions the front end's limits refused, cut or evicted, by kind of reason.", []string{"reason"}, nil),
	})
}

// Describe implements prometheus.Collector.
func (c *sshCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c *sshCollector) Collect(ch chan<- prometheus.Metric) {
	counts := c.refused()
	for _, k := range c.kinds {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(counts[k]), k)
	}
}

// WatchAbandoned adds gridlag_sessions_abandoned_total, labelled front
// (ssh, web): the sessions the front end's Close stopped waiting for,
// still running after its grace period with their connections closed (a
// session held by a defect; the process exits without it). n reads the
// count (sshd.Server.Stats, web.Server.Stats) at each scrape.
func (e *Exporter) WatchAbandoned(front string, n func() uint64) {
	e.frontCounter("gridlag_sessions_abandoned_total",
		"Sessions a front end's Close stopped waiting for: still running after the grace period, their connections closed.", front, n)
}

// frontCounter adds the counter name of one front end (label front), n
// read at each scrape.
func (e *Exporter) frontCounter(name, help, front string, n func() uint64) {
	e.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: name, Help: help, ConstLabels: prometheus.Labels{"front": front},
	}, func() float64 { return float64(n()) }))
}

// WatchAttempts adds gridlag_attempts_refused_total, labelled front (ssh,
// web): the new connections a front end refused for their address's rate
// of them (-ssh-attempts, -web-attempts), before anything was spent on
// them: a script reconnecting in a loop. n reads the count
// (sshd.Server.Stats, web.Server.Stats) at each scrape; SSH's are also
// among gridlag_ssh_refusals_total, as attempt_rate.
func (e *Exporter) WatchAttempts(front string, n func() uint64) {
	e.frontCounter("gridlag_attempts_refused_total",
		"New connections a front end refused for their address's rate of them (-ssh-attempts, -web-attempts), before their session or handshake.", front, n)
}
