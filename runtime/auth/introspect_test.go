package auth_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/spec"
)

// fakeIntrospection is an introspection endpoint that finds every token
// inactive, counting the calls and the most in flight at once; with
// block, each call waits for release.
type fakeIntrospection struct {
	calls, inFlight, most atomic.Int64
	release               chan struct{}
}

func (f *fakeIntrospection) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
	if f.release != nil {
		<-f.release
	}
	fmt.Fprint(w, `{"active":false}`)
}

// introspectingGuard is a guard whose opaque tokens are checked at f.
func introspectingGuard(t *testing.T, f *fakeIntrospection) *auth.Guard {
	t.Helper()
	is := authtest.NewIssuer(t)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	g, err := auth.New(&spec.Auth{Resource: resource, OAuth: &spec.OAuth{Issuer: is.Name, JWKSURL: is.JWKSURL,
		Introspection: &spec.Introspection{URL: srv.URL, ClientID: "rs", ClientSecret: "rs-secret"}}}, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// present sends token from addr through the guard and returns the status.
func present(g *auth.Guard, token, addr string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody("read_tool")))
	r.RemoteAddr = addr + ":40000"
	r.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	g.Middleware(&served{}, need).ServeHTTP(w, r)
	return w
}

// TestIntrospectionBoundedPerClient: 200 bogus opaque tokens from one
// address cause a burst of introspection calls, not 200; the rest are
// answered 429 with Retry-After. Another address still gets its checks.
func TestIntrospectionBoundedPerClient(t *testing.T) {
	f := &fakeIntrospection{}
	g := introspectingGuard(t, f)
	statuses := map[int]int{}
	for i := range 200 {
		w := present(g, fmt.Sprintf("bogus-token-%04d-abcdefgh", i), "192.0.2.7")
		statuses[w.Code]++
		if w.Code == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
	if n := f.calls.Load(); n > 15 {
		t.Errorf("200 bogus tokens from one address made %d introspection calls, want at most 15", n)
	}
	if statuses[http.StatusUnauthorized] == 0 || statuses[http.StatusTooManyRequests] < 180 {
		t.Errorf("statuses %v, want a few 401 then 429", statuses)
	}
	if w := present(g, "bogus-token-other-abcdefgh", "198.51.100.9"); w.Code != http.StatusUnauthorized {
		t.Errorf("another address: status %d, want 401 after its check", w.Code)
	}
}

// TestIntrospectionOncePerToken: the same bogus token presented by 100
// clients at once is asked about once, then answered from the cache.
func TestIntrospectionOncePerToken(t *testing.T) {
	f := &fakeIntrospection{release: make(chan struct{})}
	g := introspectingGuard(t, f)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			if w := present(g, "one-bogus-token-abcdefgh", fmt.Sprintf("192.0.2.%d", i)); w.Code != http.StatusUnauthorized {
				t.Errorf("status %d, want 401", w.Code)
			}
		})
	}
	waitUntil(t, func() bool { return f.calls.Load() > 0 })
	time.Sleep(50 * time.Millisecond) // the other requests reach the check
	close(f.release)
	wg.Wait()
	if n := f.calls.Load(); n != 1 {
		t.Errorf("100 requests with one token made %d introspection calls, want 1", n)
	}
}

// TestIntrospectionConcurrencyCapped: 40 clients with 40 bogus tokens at
// once while the provider is slow: never more than 8 calls in flight; the
// checks that waited too long are answered 503 with Retry-After.
func TestIntrospectionConcurrencyCapped(t *testing.T) {
	f := &fakeIntrospection{release: make(chan struct{})}
	g := introspectingGuard(t, f)
	var wg sync.WaitGroup
	var unavailable, done atomic.Int64
	for i := range 40 {
		wg.Go(func() {
			w := present(g, fmt.Sprintf("slow-bogus-%02d-abcdefgh", i), fmt.Sprintf("192.0.2.%d", i))
			if w.Code == http.StatusServiceUnavailable && w.Header().Get("Retry-After") != "" {
				unavailable.Add(1)
			}
			done.Add(1)
		})
	}
	waitUntil(t, func() bool { return done.Load() == 32 }) // those beyond the 8 give up after 2 s
	close(f.release)
	wg.Wait()
	if m := f.most.Load(); m > 8 {
		t.Errorf("%d introspection calls in flight at once, want at most 8", m)
	}
	if n := unavailable.Load(); n != 32 {
		t.Errorf("%d checks answered 503, want the 32 beyond the 8 running", n)
	}
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}
