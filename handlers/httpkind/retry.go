package httpkind

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// response is what came back from one request.
type response struct {
	status    int
	header    http.Header
	body      []byte
	truncated bool // the body was longer than max_response
	url       *url.URL
}

// do sends out, retrying as the limits allow, and tells n about each
// request and retry. It returns an error only when no response arrived.
func (h *handler) do(ctx context.Context, n handlers.Notifier, out *outgoing) (*response, error) {
	retryable := isIdempotent(h.method) || h.idempotent
	reauth := h.be.auth.fetches()
	for attempt := 0; ; attempt++ {
		resp, err := h.attempt(ctx, n, out)
		if err == nil && resp.status == http.StatusUnauthorized && reauth {
			// the cached token may have been revoked: fetch a new one, once
			h.be.auth.invalidate(ctx)
			reauth = false
			attempt--
			continue
		}
		if attempt >= h.lim.retries || !retryable || ctx.Err() != nil || !shouldRetry(resp, err) {
			return resp, err
		}
		wait := h.backoff(attempt, resp)
		if d, ok := ctx.Deadline(); wait < 0 || (ok && time.Until(d) < wait) {
			return resp, err
		}
		h.logRetry(ctx, n, out, resp, err, attempt+2, wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// attempt sends out once and reads the response body up to the cap.
func (h *handler) attempt(ctx context.Context, n handlers.Notifier, out *outgoing) (*response, error) {
	req := out.request(ctx)
	if a := h.be.auth; a != nil {
		if err := a.apply(ctx, req); err != nil {
			return nil, noRetry{err}
		}
	}
	key, kept, keep := h.keeper.prepare(req) // before signing: the conditions are signed too
	if _, err := h.be.signer.sign(ctx, req, out.body, time.Now()); err != nil {
		return nil, noRetry{err}
	}
	start := time.Now()
	_, op := observe.Backend(ctx, observe.KindHTTP)
	op.HTTPRequest(req)
	r, err := h.receive(req)
	if err == nil && keep {
		r = h.keeper.settle(key, kept, r)
	}
	if r != nil {
		op.EndHTTP(r.status, err)
	} else {
		op.EndHTTP(0, err)
	}
	h.logSent(ctx, n, out, r, err, time.Since(start))
	return r, err
}

// receive sends req and reads the response body up to the cap.
func (h *handler) receive(req *http.Request) (*response, error) {
	resp, err := h.be.send(req)
	if err != nil {
		// scheme and host only: the path and query may carry secrets
		return nil, fmt.Errorf("no response from %s://%s: %w", req.URL.Scheme, req.URL.Host, transportError(err))
	}
	defer resp.Body.Close()
	body, err := readBody(resp.Body, resp.ContentLength, h.lim.maxResponse+1)
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", transportError(err))
	}
	r := &response{status: resp.StatusCode, header: resp.Header, body: body, url: resp.Request.URL}
	if int64(len(body)) > h.lim.maxResponse {
		r.body, r.truncated = body[:h.lim.maxResponse], true
	}
	r.body = h.be.auth.maskIn(r.body, req) // an API may echo a credential; the model must not see it
	return r, nil
}

// readBody reads at most limit bytes of r, sized by the announced length.
func readBody(r io.Reader, length, limit int64) ([]byte, error) {
	size := int64(512)
	if length > 0 {
		size = min(length+1, limit) // +1 to see EOF without growing
	}
	buf := make([]byte, 0, size)
	lr := io.LimitReader(r, limit)
	for {
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// transportError drops the URL net/http puts in its errors: it may carry
// an API key in its query.
func transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// noRetry marks a failure another attempt would not cure (a token
// endpoint refusing the credentials).
type noRetry struct{ error }

func (e noRetry) Unwrap() error { return e.error }

// shouldRetry reports whether a failure is worth another attempt: a
// connection error, or a status saying the server is busy or failing.
func shouldRetry(resp *response, err error) bool {
	if err != nil {
		var nr noRetry
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) &&
			!errors.Is(err, errRedirectLoop) && !errors.As(err, &nr)
	}
	switch resp.status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// backoff is the wait before retry number attempt+1: Retry-After when the
// API sent one, else exponential with jitter. It is negative when the API
// asks for a longer wait than max_backoff.
func (h *handler) backoff(attempt int, resp *response) time.Duration {
	if resp != nil {
		if d, ok := retryAfter(resp.header.Get("Retry-After"), time.Now()); ok {
			if d > h.lim.maxBackoff {
				return -1
			}
			return d
		}
	}
	d := h.lim.backoff << min(attempt, 20)
	if d <= 0 || d > h.lim.maxBackoff {
		d = h.lim.maxBackoff
	}
	// equal jitter: half fixed, half random, so retries of many clients spread
	return d/2 + rand.N(d/2+1)
}

// retryAfter parses a Retry-After value: seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(secs, 0)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
