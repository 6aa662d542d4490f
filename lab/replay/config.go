package replay

import (
	"errors"
	"fmt"
	"time"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
)

// ScenarioHeader returns the header of a recording of scenario cfg, and
// its events: every press of its players, at its time.
func ScenarioHeader(cfg scenario.Config, version string) (record.Header, []record.Event) {
	m := cfg.Map
	if m == nil {
		m = grid.DefaultMap()
	}
	sc := &record.Scenario{Seed: cfg.Seed, MoveTime: record.Duration(cfg.MoveTime), Rate: cfg.Rate,
		Predict: cfg.Predict, Reconcile: cfg.Reconcile, LagComp: cfg.LagComp, Unlag: record.Duration(cfg.Unlag),
		Protect: record.Duration(cfg.Protect), Until: record.Duration(cfg.Until), Link: linkName(cfg.Link),
		Interpolate: !cfg.NoInterpolate}
	var events []record.Event
	for i, p := range []*scenario.Player{&cfg.Player, cfg.Second} {
		if p == nil {
			continue
		}
		sc.Players = append(sc.Players, record.Player{Name: p.Name, Start: [2]int{p.Start.X, p.Start.Y},
			Latency: record.Duration(p.Latency), Jitter: record.Duration(p.Jitter), Loss: p.Loss,
			Trace: traceText(p.Trace), TraceAt: record.Duration(p.TraceAt)})
		for _, pr := range p.Presses {
			e := record.Event{At: pr.At, Kind: record.Press, Who: uint8(i), Arg: int64(pr.Dir)}
			if pr.Zap {
				e.Kind, e.Arg = record.Zap, 0
			}
			events = append(events, e)
		}
	}
	sortEvents(events)
	return record.Header{Kind: record.KindScenario, Gridlag: version, Created: created(), Map: record.MapRows(m), Scenario: sc}, events
}

// scenarioConfig returns the scenario a recording holds: its header's
// settings, its events' presses.
func scenarioConfig(rec *record.Recording) (scenario.Config, error) {
	h := rec.Header.Scenario
	m, err := rec.Header.GridMap()
	if err != nil {
		return scenario.Config{}, err
	}
	cfg := scenario.Config{Seed: h.Seed, MoveTime: h.MoveTime.D(), Rate: h.Rate, Predict: h.Predict, Reconcile: h.Reconcile,
		LagComp: h.LagComp, Unlag: h.Unlag.D(), Protect: h.Protect.D(), Until: h.Until.D(), Map: m, NoInterpolate: !h.Interpolate}
	if cfg.Link, err = parseLink(h.Link); err != nil {
		return cfg, fmt.Errorf("link %q: %w", h.Link, err)
	}
	players := []*scenario.Player{&cfg.Player}
	if len(h.Players) == 2 {
		cfg.Second = &scenario.Player{}
		players = append(players, cfg.Second)
	}
	for i, p := range h.Players {
		tr, err := recordedTrace(p.Trace)
		if err != nil {
			return cfg, fmt.Errorf("player %d's trace: %w", i+1, err)
		}
		*players[i] = scenario.Player{Name: p.Name, Start: grid.Pos{X: p.Start[0], Y: p.Start[1]},
			Latency: p.Latency.D(), Jitter: p.Jitter.D(), Loss: p.Loss, Trace: tr, TraceAt: p.TraceAt.D()}
	}
	for e := range rec.Events() {
		if e.Kind != record.Press && e.Kind != record.Zap || int(e.Who) >= len(players) {
			continue // none: the recording's reader refuses any other
		}
		pr := scenario.Press{At: e.At, Dir: grid.Dir(e.Arg), Zap: e.Kind == record.Zap}
		if pr.Zap {
			pr.Dir = grid.None
		}
		players[e.Who].Presses = append(players[e.Who].Presses, pr)
	}
	return cfg, nil
}

// LabHeader returns the header of a recording of the lab of cfg.
func LabHeader(cfg lab.Config, version string) record.Header {
	m := cfg.Map
	if m == nil {
		m = grid.DefaultMap()
	}
	h := &record.Lab{Seed: cfg.Seed, MoveTime: record.Duration(cfg.MoveTime), Rate: cfg.Rate, Speed: cfg.Speed.String(),
		LagComp: cfg.LagComp, Unlag: record.Duration(cfg.Unlag), Protect: record.Duration(cfg.Protect)}
	for i, p := range cfg.Players {
		h.Players[i] = record.Player{Name: fmt.Sprintf("Player %d", i+1), Start: [2]int{p.Start.X, p.Start.Y},
			Latency: record.Duration(p.Latency), Jitter: record.Duration(p.Jitter), Loss: p.Loss, Preset: p.Preset,
			Presses: scenario.FormatPresses(p.Presses), Predict: p.Predict, Reconcile: p.Reconcile, Interpolate: p.Interpolate,
			Trace: traceText(p.Trace), TraceAt: record.Duration(p.TraceAt)}
	}
	return record.Header{Kind: record.KindLab, Gridlag: version, Created: created(), Map: record.MapRows(m), Lab: h}
}

// labConfig returns the lab a recording holds.
func labConfig(rec *record.Recording) (lab.Config, error) {
	h := rec.Header.Lab
	m, err := rec.Header.GridMap()
	if err != nil {
		return lab.Config{}, err
	}
	speed, err := lab.ParseSpeed(h.Speed)
	if err != nil {
		return lab.Config{}, err
	}
	cfg := lab.Config{Rate: h.Rate, MoveTime: h.MoveTime.D(), Map: m, Speed: speed, Seed: h.Seed,
		LagComp: h.LagComp, Unlag: h.Unlag.D(), Protect: h.Protect.D()}
	for i, p := range h.Players {
		presses, err := scenario.ParsePresses(p.Presses)
		if err != nil {
			return cfg, fmt.Errorf("Player %d's presses: %w", i+1, err)
		}
		tr, err := recordedTrace(p.Trace)
		if err != nil {
			return cfg, fmt.Errorf("Player %d's trace: %w", i+1, err)
		}
		cfg.Players[i] = lab.PlayerConfig{Start: grid.Pos{X: p.Start[0], Y: p.Start[1]}, Latency: p.Latency.D(),
			Jitter: p.Jitter.D(), Loss: p.Loss, Preset: p.Preset, Presses: presses,
			Predict: p.Predict, Reconcile: p.Reconcile, Interpolate: p.Interpolate, Trace: tr, TraceAt: p.TraceAt.D()}
	}
	return cfg, nil
}

// linkName names a transport in a header: "" for TCP.
func linkName(t sim.Transport) string {
	if t == sim.TCP {
		return ""
	}
	return t.String()
}

// parseLink reads a transport's name (the -link flag, a header's link).
func parseLink(s string) (sim.Transport, error) {
	switch s {
	case "", "tcp":
		return sim.TCP, nil
	case "datagram":
		return sim.Datagram, nil
	}
	return sim.TCP, errors.New(`want "tcp" or "datagram"`)
}

// ParseLink reads the -link flag's value.
func ParseLink(s string) (sim.Transport, error) {
	if s == "" {
		return sim.TCP, errors.New(`want "tcp" or "datagram"`)
	}
	return parseLink(s)
}

// created is the header's "created": now, to the second.
func created() string { return time.Now().UTC().Format(time.RFC3339) }

// ScenarioOf returns the scenario a scenario's recording holds.
func ScenarioOf(rec *record.Recording) (scenario.Config, error) { return scenarioConfig(rec) }

// traceText is the file of trace tr, as a recording carries it; "" for
// none.
func traceText(tr *link.Trace) string {
	if tr == nil {
		return ""
	}
	return tr.Text
}

// recordedTrace parses the trace a recording carries; nil for none.
func recordedTrace(text string) (*link.Trace, error) {
	if text == "" {
		return nil, nil
	}
	return link.ParseTrace([]byte(text))
}
