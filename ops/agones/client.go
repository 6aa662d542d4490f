package agones

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/charmbracelet/log"
)

// Defaults of Options, applied by New.
const (
	// DefaultTimeout is how long a call keeps trying a sidecar that does
	// not answer.
	DefaultTimeout = 30 * time.Second
	// DefaultCallTimeout bounds one try of a call.
	DefaultCallTimeout = 5 * time.Second
)

// Options configure a Client.
type Options struct {
	// Addr is the sidecar's REST address, host:port. Default: SidecarAddr.
	Addr string
	// Logger receives the client's log (the waits for the sidecar); nil
	// discards it.
	Logger *log.Logger
	// Timeout is how long a call keeps trying while the sidecar does not
	// answer before it fails. Default 30s.
	Timeout time.Duration
	// CallTimeout bounds each try of a call. Default 5s.
	CallTimeout time.Duration
	// Backoff paces the tries. Default DefaultBackoff.
	Backoff Backoff
}

// Client talks to one sidecar. Its methods are safe for concurrent use.
type Client struct {
	opts Options
	base string // "http://" + Addr
	http *http.Client
	log  *log.Logger
}

// New returns a client of the sidecar at opts.Addr; zero options take
// their defaults. It does not connect: the first call does.
func New(opts Options) (*Client, error) {
	if opts.Addr == "" {
		addr, err := SidecarAddr()
		if err != nil {
			return nil, err
		}
		opts.Addr = addr
	}
	if opts.Logger == nil {
		opts.Logger = log.New(io.Discard)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.Backoff.First <= 0 || opts.Backoff.Max < opts.Backoff.First {
		opts.Backoff = DefaultBackoff
	}
	return &Client{opts: opts, base: "http://" + opts.Addr, http: &http.Client{}, log: opts.Logger}, nil
}

// Addr returns the sidecar's address.
func (c *Client) Addr() string { return c.opts.Addr }

// statusError is an answer of the sidecar other than 200 OK.
type statusError struct {
	code    int
	message string // the gateway's "message", or the body
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.code, http.StatusText(e.code), e.message)
}

// retryable reports whether err means the sidecar did not answer yet: no
// connection, no answer within a try's time, or the gateway answering that
// the SDK server behind it is not up (503).
func retryable(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.code == http.StatusServiceUnavailable
	}
	return true
}

// call sends method path with body (JSON-encoded unless nil) and decodes
// the answer into out unless out is nil, trying again with backoff while
// the sidecar does not answer, until Timeout or ctx ends.
func (c *Client) call(parent context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(parent, c.opts.Timeout)
	defer cancel()
	for try := 0; ; try++ {
		err := c.try(ctx, method, path, body, out)
		if err == nil || !retryable(err) {
			return wrap(method, path, err)
		}
		if try == 0 {
			c.log.Info("waiting for the Agones SDK sidecar", "addr", c.opts.Addr, "call", method+" "+path, "err", err)
		}
		wait := c.opts.Backoff.wait(try, rand.Float64())
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			if parent.Err() == nil {
				return fmt.Errorf("agones: %s %s: the SDK sidecar at %s did not answer within %v (is it running? Agones starts it beside the game server): %w",
					method, path, c.opts.Addr, c.opts.Timeout, err)
			}
			return wrap(method, path, ctx.Err())
		}
	}
}

// wrap names the call in err, if any.
func wrap(method, path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("agones: %s %s: %w", method, path, err)
}

// try makes one try of a call, within CallTimeout.
func (c *Client) try(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.CallTimeout)
	defer cancel()
	resp, err := c.send(ctx, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// send sends a request and returns the response if it is 200 OK.
func (c *Client) send(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, readStatus(resp)
	}
	return resp, nil
}

// readStatus turns an answer other than 200 OK into a statusError, with
// the gateway's message if the body has one.
func readStatus(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	var gw struct{ Message string }
	msg := string(bytes.TrimSpace(b))
	if json.Unmarshal(b, &gw) == nil && gw.Message != "" {
		msg = gw.Message
	}
	return &statusError{code: resp.StatusCode, message: msg}
}
