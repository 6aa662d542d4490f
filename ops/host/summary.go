package host

import (
	"time"

	"github.com/charmbracelet/log"

	"gridlag/ops/metrics"
)

// startSummaries logs the metrics' summary every Config.Summary until the
// host closes.
func (h *Host) startSummaries() error {
	if h.cfg.Summary <= 0 {
		return nil
	}
	sum, err := h.exp.Summarizer(time.Now())
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	h.summary = stop
	ticker := time.NewTicker(h.cfg.Summary)
	go func() {
		defer ticker.Stop()
		logSummaries(h.log, sum, ticker.C, stop)
	}()
	return nil
}

// logSummaries logs sum's summary of each interval, at each time ticks
// gives, until stop is closed.
func logSummaries(logger *log.Logger, sum *metrics.Summarizer, ticks <-chan time.Time, stop <-chan struct{}) {
	for {
		select {
		case now := <-ticks:
			s, err := sum.Next(now)
			if err != nil {
				logger.Warn("summary", "err", err)
				continue
			}
			LogSummary(logger, s)
		case <-stop:
			return
		}
	}
}

// LogSummary logs one summary line.
func LogSummary(logger *log.Logger, s metrics.Summary) {
	logger.Info("summary", s.KeyVals()...)
}
