package httpkind

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
)

// Defaults of Poll.
const (
	DefaultPollInterval = time.Second
	DefaultPollTimeout  = 10 * time.Minute
	// maxPollWait caps the wait a Retry-After asks for between polls.
	maxPollWait = time.Minute
)

// Poll follows an API that runs a job in the background: it answers the
// request with 202 Accepted and a Location where the job's status is
// polled (with GET) until it is done.
type Poll struct {
	// Interval between polls. Defaults to 1s; a Retry-After header on a
	// 202 is honoured, up to a minute.
	Interval spec.Duration `yaml:"interval,omitempty"`
	// Timeout bounds the whole call, the polling included, in place of the
	// tool's `timeout`. Defaults to 10m.
	Timeout spec.Duration `yaml:"timeout,omitempty"`
	// Until is an expression over `response` saying whether the job is done,
	// for status resources that answer 200 while the job runs, e.g.
	// ${{ response.body.state != 'running' }}. Without it, polling stops at
	// the first answer that is not 202. The last answer is the call's
	// response: success, errors, result and text apply to it.
	Until spec.Value `yaml:"until,omitempty"`
	// Cancel sends DELETE to the status URL when the call is cancelled or
	// times out, so that the API stops the job too.
	Cancel bool `yaml:"cancel,omitempty"`
}

// poller is a compiled Poll.
type poller struct {
	interval, timeout time.Duration
	until             *eval.Value
	cancel            bool
}

func compilePoller(env handlers.BuildEnv, p *Poll) *poller {
	pl := &poller{interval: cmp.Or(time.Duration(p.Interval), DefaultPollInterval),
		timeout: cmp.Or(time.Duration(p.Timeout), DefaultPollTimeout), cancel: p.Cancel}
	if pl.interval < 0 || pl.timeout < 0 {
		env.Diag("poll", "interval and timeout must be positive")
	}
	if !p.Until.IsZero() {
		pl.until = env.Compile("poll.until", &p.Until, responseVars)
	}
	return pl
}

// Errors of polling.
var (
	errNoLocation      = errors.New("the API answered 202 Accepted without a Location to poll")
	errForeignLocation = errors.New("the API's Location is on another host; not polled")
)

// await polls the job the 202 response resp started until it is done, and
// returns the last response.
func (h *handler) await(ctx context.Context, n handlers.Notifier, vars map[string]any, out *outgoing, resp *response) (*response, error) {
	var status *url.URL
	for round := 1; ; round++ {
		if loc := resp.header.Get("Location"); loc != "" || status == nil {
			var err error
			if status, err = h.location(resp, loc); err != nil {
				return nil, err
			}
		}
		if err := h.pause(ctx, resp); err != nil {
			h.cancelJob(ctx, status)
			return nil, err
		}
		get := &outgoing{method: http.MethodGet, url: status, header: out.header.Clone()}
		get.header.Del("Content-Type")
		next, err := h.do(ctx, n, get)
		if err != nil {
			h.cancelJob(ctx, status)
			return nil, err
		}
		resp = next
		n.Progress(ctx, float64(round), 0, fmt.Sprintf("polled the job %d times", round))
		if done, err := h.jobDone(vars, resp); done || err != nil {
			return resp, err
		}
	}
}

// location resolves a Location against the URL that answered, on the
// backend's origin only.
func (h *handler) location(resp *response, loc string) (*url.URL, error) {
	if loc == "" {
		return nil, errNoLocation
	}
	link, err := resp.url.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("the API's Location %q is not a URL: %w", loc, err)
	}
	if !sameOrigin(link, h.be.base) || link.User != nil {
		return nil, errForeignLocation
	}
	return link, nil
}

// pause waits before the next poll: the interval, or the Retry-After of a
// 202.
func (h *handler) pause(ctx context.Context, resp *response) error {
	wait := h.poll.interval
	if d, ok := retryAfter(resp.header.Get("Retry-After"), time.Now()); ok && resp.status == http.StatusAccepted {
		wait = min(max(d, 0), maxPollWait)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// jobDone reports whether resp ends the polling.
func (h *handler) jobDone(vars map[string]any, resp *response) (bool, error) {
	switch {
	case resp.status == http.StatusAccepted:
		return false, nil
	case h.poll.until == nil || resp.status/100 != 2:
		return true, nil
	}
	vars["response"] = parse(resp).responseVar(true)
	x, err := h.poll.until.Eval(vars)
	if err != nil {
		return false, fmt.Errorf("poll.until: %w", err)
	}
	done, ok := x.(bool)
	if !ok {
		return false, fmt.Errorf("poll.until gave %s, not a boolean", describe(x))
	}
	return done, nil
}

// cancelJob asks the API to stop the job, when the call ended early and
// the tool says so. It does not wait long: the call is over.
func (h *handler) cancelJob(ctx context.Context, status *url.URL) {
	if !h.poll.cancel || ctx.Err() == nil {
		return
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	del := &outgoing{method: http.MethodDelete, url: status, header: http.Header{}}
	_, _ = h.attempt(dctx, handlers.Nop{}, del)
}
