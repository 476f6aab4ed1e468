package httpkind

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfterParsing(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{"-5", 0, true},
		{"Sun, 22 Nov 2026 01:00:10 GMT", 10 * time.Second, true},
		{"Sun, 22 Nov 2026 00:59:00 GMT", 0, true},
		{"soon", 0, false},
	} {
		got, ok := retryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	h := &handler{lim: limits{backoff: 100 * time.Millisecond, maxBackoff: time.Second}}
	for attempt, base := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		base *= time.Millisecond
		if base > time.Second {
			base = time.Second
		}
		seen := map[time.Duration]bool{}
		for range 50 {
			d := h.backoff(attempt, nil)
			if d < base/2 || d > base {
				t.Fatalf("attempt %d: backoff %v outside [%v, %v]", attempt, d, base/2, base)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("attempt %d: no jitter", attempt)
		}
	}
	resp := &response{header: http.Header{"Retry-After": {"2"}}}
	if d := h.backoff(0, resp); d != -1 {
		t.Errorf("a Retry-After beyond max_backoff gave %v, want -1 (no retry)", d)
	}
	resp.header.Set("Retry-After", "1")
	if d := h.backoff(0, resp); d != time.Second {
		t.Errorf("Retry-After: 1 gave %v", d)
	}
}
