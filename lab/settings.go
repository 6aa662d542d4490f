package lab

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"gridlag/internal/link"
	"gridlag/lab/scenario"
	"gridlag/server/world"
)

// A setting is one of the lab's numbers or switches a lesson sets by
// name, as `gridlag lab`'s flag of the same name does: "latency 250ms",
// "presses right@0ms,right@100ms", "lagcomp off".
type setting struct {
	name string
	help string // what the value is, for the error that refuses one
	set  func(c *Config, value string) error
}

// settings are the names a lesson's set lines take, in the order
// docs/lab.md lists the lab's flags.
var settings = []setting{
	playerSetting("latency", "a round trip from 0 to 1s, e.g. 250ms", func(p *PlayerConfig, v string) error {
		return setDuration(&p.Latency, v, link.MaxRTT)
	}),
	playerSetting("jitter", "a jitter from 0 to 1s, e.g. 20ms", func(p *PlayerConfig, v string) error {
		return setDuration(&p.Jitter, v, link.MaxRTT)
	}),
	playerSetting("loss", "a probability from 0 to 1, e.g. 0.02 or 2%", func(p *PlayerConfig, v string) error {
		return setLoss(&p.Loss, v)
	}),
	playerSetting("preset", "good, average or poor", func(p *PlayerConfig, v string) error {
		if _, err := link.PresetNamed(v); err != nil {
			return err
		}
		p.Preset, p.Trace, p.TraceAt = v, nil, 0 // a preset instead of a trace
		return nil
	}),
	playerSetting("trace", "a trace: a bundled one ("+strings.Join(link.BundledTraces(), ", ")+") or a trace file, from its start or NAME@TIME into it, e.g. lte-handover@14.9s; or none", setTrace),
	playerSetting("start", "a cell x,y, e.g. 12,10", func(p *PlayerConfig, v string) error {
		pos, err := scenario.ParsePos(v)
		p.Start = pos
		return err
	}),
	playerSetting("presses", "presses DIRECTION@TIME,..., e.g. right@0ms,right@100ms, or none", func(p *PlayerConfig, v string) error {
		if v == "none" {
			p.Presses = nil
			return nil
		}
		presses, err := scenario.ParsePresses(v)
		p.Presses = presses
		return err
	}),
	bothSetting("predict", func(p *PlayerConfig, on bool) { p.Predict = on }),
	bothSetting("reconcile", func(p *PlayerConfig, on bool) { p.Reconcile = on }),
	bothSetting("interpolate", func(p *PlayerConfig, on bool) { p.Interpolate = on }),
	{"rate", fmt.Sprintf("an update rate from 0 to %d per second", world.MaxRate), func(c *Config, v string) error {
		hz, err := strconv.Atoi(v)
		if err != nil || hz < 0 || hz > world.MaxRate {
			return fmt.Errorf("%q is not a rate", v)
		}
		c.Rate = hz
		return nil
	}},
	{"move-time", "a time from 1ms, e.g. 100ms", func(c *Config, v string) error {
		return setDuration(&c.MoveTime, v, time.Minute)
	}},
	{"speed", "1x, 1/2, 1/4 or 1/10", func(c *Config, v string) error {
		s, err := ParseSpeed(v)
		c.Speed = s
		return err
	}},
	{"seed", "a whole number", func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		c.Seed = n
		return err
	}},
	{"lagcomp", "on or off", func(c *Config, v string) error { return setSwitch(&c.LagComp, v) }},
	{"unlag", "a time from 0 to 1s", func(c *Config, v string) error {
		return setDuration(&c.Unlag, v, world.MaxUnlag)
	}},
	{"protect", "a time from 0 to 30s", func(c *Config, v string) error {
		return setDuration(&c.Protect, v, 30*time.Second)
	}},
	{"pings", "on or off: the strips show pings, pongs and the scores", func(c *Config, v string) error {
		var on bool
		err := setSwitch(&on, v)
		c.HidePings = !on
		return err
	}},
}

// playerSetting is a setting of one player: NAME for Player 1, NAME2
// for Player 2, as the lab's flags have them.
func playerSetting(name, help string, set func(p *PlayerConfig, value string) error) setting {
	return setting{name: name, help: help, set: func(c *Config, v string) error { return set(&c.Players[0], v) }}
}

// bothSetting is a client's switch, for both players, as the lab's flags
// have it.
func bothSetting(name string, set func(p *PlayerConfig, on bool)) setting {
	return setting{name: name, help: "on or off", set: func(c *Config, v string) error {
		var on bool
		if err := setSwitch(&on, v); err != nil {
			return err
		}
		for i := range c.Players {
			set(&c.Players[i], on)
		}
		return nil
	}}
}

// Set sets the lab's number or switch called name to value, as the lab's
// flag of that name does (latency, latency2, jitter, jitter2, loss,
// loss2, preset, preset2, start, start2, presses, presses2, predict,
// reconcile, interpolate, rate, move-time, speed, seed, lagcomp, unlag,
// protect, pings); switches take on or off. The error says what the
// value should be.
func (c *Config) Set(name, value string) error {
	value = strings.TrimSpace(value)
	given, player := name, 0
	if base, ok := strings.CutSuffix(name, "2"); ok && slices.Contains(playerSettings, base) {
		name, player = base, 1
	}
	i := slices.IndexFunc(settings, func(s setting) bool { return s.name == name })
	if i < 0 {
		return &SettingError{Name: given, Value: value}
	}
	s := settings[i]
	target := *c
	if player == 1 {
		target.Players[0] = c.Players[1]
	}
	if err := s.set(&target, value); err != nil {
		return &SettingError{Name: given, Value: value, Want: s.help}
	}
	if player == 1 {
		target.Players[0], target.Players[1] = c.Players[0], target.Players[0]
	}
	*c = target
	return nil
}

// SettingError is a setting Config.Set refuses: the name and value given,
// and what the value should be (Want), "" if there is no setting of that
// name.
type SettingError struct {
	Name, Value, Want string
}

// Error says what is wrong: "latency 250: want a round trip from 0 to
// 1s, e.g. 250ms", or "no setting "lateness": want one of ...".
func (e *SettingError) Error() string { return e.describe(func(s string) string { return s }) }

// describe says what is wrong, the value given, and a name that is not a
// setting's, through show (a lesson file not yet known to be one shows
// none of its text).
func (e *SettingError) describe(show func(string) string) string {
	if e.Want == "" {
		return fmt.Sprintf("no setting %q: want one of %s", show(e.Name), SettingNames())
	}
	return fmt.Sprintf("%s %s: want %s", e.Name, show(e.Value), e.Want)
}

// playerSettings are the settings of one player, which take a 2 for
// Player 2.
var playerSettings = []string{"latency", "jitter", "loss", "preset", "trace", "start", "presses"}

// SettingNames lists the names Config.Set takes.
func SettingNames() string {
	var names []string
	for _, s := range settings {
		names = append(names, s.name)
		if slices.Contains(playerSettings, s.name) {
			names = append(names, s.name+"2")
		}
	}
	return strings.Join(names, ", ")
}

// setTrace reads a trace: a bundled one's name or a trace file's path,
// with @TIME to start that far into it; none for no trace. A trace
// replaces a preset.
func setTrace(p *PlayerConfig, v string) error {
	if v == "none" {
		p.Trace, p.TraceAt = nil, 0
		return nil
	}
	tr, at, err := link.LoadTraceAt(v, func(path string) (io.ReadCloser, error) { return os.Open(path) })
	if err != nil {
		return err
	}
	p.Trace, p.TraceAt, p.Preset = tr, at, ""
	return nil
}

// setDuration reads a duration from 0 to most.
func setDuration(d *time.Duration, v string, most time.Duration) error {
	t, err := time.ParseDuration(v)
	if err != nil || t < 0 || t > most {
		return fmt.Errorf("%q is not a time", v)
	}
	*d = t
	return nil
}

// setLoss reads a probability, 0.02 or 2%.
func setLoss(p *float64, v string) error {
	pct := strings.HasSuffix(v, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if pct {
		f /= 100
	}
	if err != nil || f < 0 || f > 1 {
		return fmt.Errorf("%q is not a probability", v)
	}
	*p = f
	return nil
}

// setSwitch reads on or off (true, false).
func setSwitch(b *bool, v string) error {
	switch strings.ToLower(v) {
	case "on", "true", "yes":
		*b = true
	case "off", "false", "no":
		*b = false
	default:
		return fmt.Errorf("%q is neither on nor off", v)
	}
	return nil
}
