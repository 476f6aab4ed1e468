// Package transport serves a built mcpgen server (runtime.Server) to MCP
// clients: over stdio (ServeStdio), and over Streamable HTTP with the legacy
// HTTP+SSE endpoint beside it (NewHTTPHandler, ListenAndServe). It owns what
// belongs to the wire: Host and Origin checks, the session cap, body
// limits, calls kept alive across a dropped stream for resumption, and
// graceful shutdown.
package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/redisstate"
	"github.com/mcpgen/mcpgen/spec"
)

// Defaults of HTTPOptions.
const (
	DefaultHTTPAddr        = "127.0.0.1:8080"
	DefaultSessionTimeout  = 30 * time.Minute
	DefaultMaxSessions     = 1000
	DefaultMaxBody         = 4 << 20
	DefaultShutdownTimeout = 10 * time.Second
	// DefaultResumeWindow is how long a call whose client dropped its stream
	// keeps running, waiting for the client to resume with Last-Event-ID.
	DefaultResumeWindow = 5 * time.Second

	DefaultMaxSessionsPerClient = 100
	DefaultMaxCalls             = 512
	DefaultMaxCallsPerBackend   = 128
	DefaultMaxConnections       = 2048
	DefaultMaxConnsPerClient    = 64
	DefaultBackendQueue         = 256
	DefaultReadHeaderTimeout    = 10 * time.Second
	DefaultReadTimeout          = 30 * time.Second
	DefaultWriteTimeout         = 30 * time.Second
	DefaultIdleTimeout          = 2 * time.Minute
	DefaultBackendQueueWait     = 2 * time.Second
)

// Paths served by HTTPHandler.
const (
	MCPPath     = "/mcp"     // Streamable HTTP endpoint
	SSEPath     = "/sse"     // legacy HTTP+SSE endpoint (2024-11-05 clients)
	HealthzPath = "/healthz" // liveness: 200 "ok"
	ReadyzPath  = "/readyz"  // readiness: 200 once required backends answer
	MetricsPath = "/metrics" // Prometheus metrics
)

// HTTPOptions control serving over Streamable HTTP. Zero values take the
// defaults above.
type HTTPOptions struct {
	// AllowedHosts are Host header values accepted besides the loopback
	// names: a host (any port), host:port, or "*" for any.
	AllowedHosts []string
	// AllowedOrigins are Origin header values accepted besides loopback
	// origins: scheme://host[:port], or "*" for any.
	AllowedOrigins []string
	// Stateless serves each request without a session.
	Stateless bool
	// SessionTimeout closes idle sessions; negative: never.
	SessionTimeout time.Duration
	// MaxSessions caps live sessions; negative: no cap.
	MaxSessions int
	// MaxBody caps a request body in bytes (413 beyond it).
	MaxBody int64
	// ShutdownTimeout is how long calls in flight may finish on shutdown
	// before they are canceled.
	ShutdownTimeout time.Duration
	// ResumeWindow is how long a call keeps running after its client dropped
	// the stream, waiting for a resumption; negative: cancel at once.
	ResumeWindow time.Duration
	// MaxSessionsPerClient caps the live sessions opened from one client
	// address (429 beyond it); negative: no cap.
	MaxSessionsPerClient int
	// MaxCalls caps the calls running at once; negative: no cap.
	MaxCalls int
	// MaxCallsPerBackend caps the tool calls running at once on one
	// backend; negative: no cap.
	MaxCallsPerBackend int
	// BackendQueue caps the calls waiting for a slot on one backend;
	// negative: none wait.
	BackendQueue int
	// BackendQueueWait is how long a call waits for a slot on its backend
	// before it is refused; negative: it does not wait.
	BackendQueueWait time.Duration
	// MaxConnections caps open connections (ListenAndServe only), closing
	// the connection idle the longest to make room; negative: no cap.
	MaxConnections int
	// MaxConnectionsPerClient caps the open connections from one address
	// (ListenAndServe only), except TrustedProxies; negative: no cap.
	MaxConnectionsPerClient int
	// TrustedProxies are the proxies whose connections are not capped per
	// client and whose X-Forwarded-For names the client.
	TrustedProxies []netip.Prefix
	// ReadHeaderTimeout bounds reading a request's headers (ListenAndServe
	// only); negative: no bound.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a request's body; negative: no bound.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write of a response, not the response;
	// negative: no bound.
	WriteTimeout time.Duration
	// IdleTimeout closes idle kept-alive connections (ListenAndServe only);
	// negative: never.
	IdleTimeout time.Duration
	// TLSCertFile and TLSKeyFile, when both set, make ListenAndServe serve
	// HTTPS with this PEM certificate chain and key. The files are read
	// again when they change.
	TLSCertFile, TLSKeyFile string
	// OnListen, if set, is called with the bound address once ListenAndServe
	// listens (useful with port 0).
	OnListen func(net.Addr)
}

// HTTPConfig returns the listen address and options from the `server.http`
// section of srv's config, defaults applied. The CLI overrides addr with
// --http and sets Stateless with --stateless.
func HTTPConfig(srv *runtime.Server) (addr string, opts HTTPOptions) {
	h := srv.HTTP()
	if h == nil {
		h = &spec.HTTP{}
	}
	opts = HTTPOptions{AllowedHosts: h.AllowedHosts, AllowedOrigins: h.AllowedOrigins, Stateless: h.Stateless,
		SessionTimeout: time.Duration(h.SessionTimeout), MaxSessions: h.MaxSessions, MaxBody: int64(h.MaxBody),
		ShutdownTimeout: time.Duration(h.ShutdownTimeout), MaxSessionsPerClient: h.MaxSessionsPerClient,
		MaxCalls: h.MaxCalls, MaxCallsPerBackend: h.MaxCallsPerBackend, MaxConnections: h.MaxConnections,
		ReadHeaderTimeout: time.Duration(h.ReadHeaderTimeout), ReadTimeout: time.Duration(h.ReadTimeout),
		WriteTimeout: time.Duration(h.WriteTimeout), IdleTimeout: time.Duration(h.IdleTimeout),
		MaxConnectionsPerClient: h.MaxConnectionsPerClient, BackendQueue: h.BackendQueue,
		BackendQueueWait: time.Duration(h.BackendQueueWait)}
	opts.TrustedProxies, _ = parseTrusted(h.TrustedProxies) // checked when the config was built
	if t := srv.TLS(); t != nil {
		opts.TLSCertFile, opts.TLSKeyFile = t.CertFile, t.KeyFile
	}
	addr = h.Addr
	if addr == "" {
		addr = DefaultHTTPAddr
	}
	return addr, opts.withDefaults()
}

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	if o.ResumeWindow == 0 {
		o.ResumeWindow = DefaultResumeWindow
	}
	for _, d := range []struct {
		v   *int
		def int
	}{{&o.MaxSessionsPerClient, DefaultMaxSessionsPerClient}, {&o.MaxCalls, DefaultMaxCalls},
		{&o.MaxCallsPerBackend, DefaultMaxCallsPerBackend}, {&o.MaxConnections, DefaultMaxConnections},
		{&o.MaxConnectionsPerClient, DefaultMaxConnsPerClient}, {&o.BackendQueue, DefaultBackendQueue}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&o.ReadHeaderTimeout, DefaultReadHeaderTimeout}, {&o.ReadTimeout, DefaultReadTimeout},
		{&o.WriteTimeout, DefaultWriteTimeout}, {&o.IdleTimeout, DefaultIdleTimeout},
		{&o.BackendQueueWait, DefaultBackendQueueWait}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	return o
}

// HTTPHandler serves one built config over HTTP: Streamable HTTP at /mcp,
// legacy HTTP+SSE at /sse (stateful mode only), and /healthz. Create it
// with NewHTTPHandler; stop it with Shutdown.
type HTTPHandler struct {
	opts      HTTPOptions
	srv       *runtime.Server
	mcp       *mcp.Server
	guard     *originGuard
	auth      *auth.Guard // nil without auth
	calls     *callTracker
	limits    *callLimits
	perClient *clientSessions
	// unconfirmed are the sessions that sent nothing after initialize
	unconfirmed *unconfirmed
	mux         *http.ServeMux
	stopWait    context.CancelFunc // stops the resource watcher
	// extraMethods are the methods the config adds to the SDK's
	extraMethods []string
	// shared keeps sessions in Redis (server.state.redis); nil without
	shared *redisstate.Sessions
	// statefulSDK serves the sessions of clients up to 2025-11-25; nil in
	// stateless mode
	statefulSDK *mcp.StreamableHTTPHandler
}

// jsonReplyWait is how long a call may run, sending nothing, before its
// response becomes an event stream: a call answered sooner gets its
// response as one JSON object (no event framing, one write), and a longer
// one its priming event, from which a client whose connection drops can
// resume it.
const jsonReplyWait = 100 * time.Millisecond

// NewHTTPHandler returns an http.Handler serving s. Every session shares
// one go-sdk server. Call Shutdown to stop it.
func NewHTTPHandler(s *runtime.Server, opts HTTPOptions) *HTTPHandler {
	opts = opts.withDefaults()
	h := &HTTPHandler{opts: opts, srv: s, guard: newOriginGuard(opts.AllowedHosts, opts.AllowedOrigins),
		calls: newCallTracker(opts.ResumeWindow), perClient: newClientSessions(opts.MaxSessionsPerClient),
		unconfirmed: newUnconfirmed(),
		limits:      newCallLimits(s, opts)}
	h.calls.stateless = opts.Stateless
	h.extraMethods = s.ExtraMethods()
	h.mcp = s.MCP()
	h.mcp.AddReceivingMiddleware(safeErrors, h.limits.middleware, h.calls.middleware, incoming)
	h.mcp.AddReceivingMiddleware(recovering(s.Logger(), s.Observer().Metrics)) // outermost
	getServer := func(*http.Request) *mcp.Server { return h.mcp }
	// 2026-07-28 requests: every one on its own; a call stops when its
	// client goes away.
	var streamable http.Handler = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{Stateless: true,
		MaxRequestBodyBytes: opts.MaxBody, Logger: s.Logger(), DisableLocalhostProtection: true,
		PropagateRequestCancellation: true, JSONReplyWait: jsonReplyWait})
	if !opts.Stateless {
		// Sessions for clients up to 2025-11-25, beside it (era.go).
		stateful := &mcp.StreamableHTTPOptions{MaxRequestBodyBytes: opts.MaxBody, Logger: s.Logger(),
			DisableLocalhostProtection: true, EventStore: mcp.NewMemoryEventStore(nil), JSONReplyWait: jsonReplyWait}
		if st := s.SharedState(); st != nil {
			// Any replica replays a stream's events and takes a session
			// over when the replica that served it is gone.
			stateful.EventStore = st.Events(stateful.EventStore)
			stateful.SessionStore = adoptingStore{SessionStore: st.Sessions(), srv: s}
			h.shared = st.Sessions()
		}
		if opts.SessionTimeout > 0 {
			stateful.SessionTimeout = opts.SessionTimeout
		}
		h.statefulSDK = mcp.NewStreamableHTTPHandler(getServer, stateful)
		streamable = eraRouter{stateful: h.statefulSDK, stateless: streamable}
	}
	sse := mcp.NewSSEHandler(getServer, &mcp.SSEOptions{DisableLocalhostProtection: true})
	h.mux = http.NewServeMux()
	var endpoint http.Handler = h.calls.track(streamable)
	if g := s.Auth(); g != nil {
		// ServeHTTP admits the request; the endpoint checks the scopes
		// of the items its body names, once the body is read.
		h.auth = g
		endpoint = g.ItemScopes(endpoint, s.NeedScopes)
		for _, p := range g.MetadataPaths(MCPPath) {
			h.mux.Handle(p, g.MetadataHandler())
		}
	}
	h.mux.Handle(MCPPath, h.sessions(endpoint))
	// The legacy transport has sessions by design, and cannot carry a
	// caller to the handlers: it is not served with auth.
	if !opts.Stateless && s.Auth() == nil {
		h.mux.Handle(SSEPath, h.legacy(sse))
	}
	h.mux.HandleFunc(HealthzPath, healthz)
	var ctx context.Context
	ctx, h.stopWait = context.WithCancel(context.Background())
	go s.WatchResources(ctx, h.mcp)
	h.operate(ctx)
	return h
}

// ServeHTTP checks Host and Origin first (403 for foreign ones), then the
// body size (413), then the credential of a request to the MCP endpoint,
// then routes the request.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer h.answerPanic(w)
	r.Header.Del(callHeader)
	if !probePaths[r.URL.Path] {
		if err := h.guard.check(r); err != nil {
			http.Error(w, "Forbidden: "+err.Error(), http.StatusForbidden)
			return
		}
	}
	if r.ContentLength > h.opts.MaxBody {
		http.Error(w, fmt.Sprintf("request body exceeds %d bytes", h.opts.MaxBody), http.StatusRequestEntityTooLarge)
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBody)
	}
	ctx := r.Context()
	if h.auth != nil && r.URL.Path == MCPPath {
		// Admitted here rather than at the endpoint, so that one copy of
		// the request carries both its caller and its write deadline.
		// The endpoint refuses a request that was not (ItemScopes).
		if h.auth.CountsClients() {
			ctx = auth.WithClient(ctx, clientAddr(r, h.opts.TrustedProxies))
		}
		var ok bool
		if ctx, ok = h.auth.Admit(ctx, w, r); !ok {
			return
		}
	}
	if ctx != r.Context() {
		r = r.WithContext(ctx)
	}
	if h.opts.WriteTimeout <= 0 {
		h.mux.ServeHTTP(w, r)
		return
	}
	dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: h.opts.WriteTimeout}
	h.mux.ServeHTTP(dw, r)
	dw.extend() // for what the server writes after the handler returns
}

// legacy serves the HTTP+SSE transport, refusing new sessions while
// draining or at the session cap.
func (h *HTTPHandler) legacy(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && !h.admit(w) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Shutdown stops the handler gracefully: new sessions and calls are
// refused, calls in flight may finish until ctx is done, then they are
// canceled; finally every session is closed, which ends open streams.
func (h *HTTPHandler) Shutdown(ctx context.Context) error {
	h.calls.drain()
	err := h.calls.wait(ctx)
	h.calls.cancelAll()
	// Give canceled calls a moment to send their (error) results.
	grace, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = h.calls.wait(grace)
	h.Close()
	return err
}

// Close closes every session at once and stops watching resources.
func (h *HTTPHandler) Close() {
	h.stopWait()
	h.calls.cancelAll()
	for ss := range h.mcp.Sessions() {
		_ = ss.Close()
	}
}

// ListenAndServe listens on addr and serves s until ctx is canceled
// (SIGTERM or SIGINT in the CLI); then it stops accepting connections, lets
// calls in flight finish for up to opts.ShutdownTimeout, cancels the rest,
// and returns nil.
func ListenAndServe(ctx context.Context, s *runtime.Server, addr string, opts HTTPOptions) error {
	var tlsConf *tls.Config
	if opts.TLSCertFile != "" || opts.TLSKeyFile != "" {
		var err error
		if tlsConf, err = serverTLS(opts.TLSCertFile, opts.TLSKeyFile); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	h := NewHTTPHandler(s, opts)
	opts = h.opts
	if opts.OnListen != nil {
		opts.OnListen(ln.Addr())
	}
	limited := newConnLimiter(ln, opts.MaxConnections, opts.MaxConnectionsPerClient, opts.TrustedProxies)
	// No Server.ReadTimeout or WriteTimeout: they bound the whole exchange,
	// and would cut long calls and streams. The handler bounds reading the
	// body and each write instead.
	hs := &http.Server{Handler: h, ReadHeaderTimeout: max(opts.ReadHeaderTimeout, 0), TLSConfig: tlsConf,
		IdleTimeout: max(opts.IdleTimeout, 0), ErrorLog: slog.NewLogLogger(s.Logger().Handler(), slog.LevelWarn),
		ConnState: limited.track}
	ln = limited
	errc := make(chan error, 1)
	go func() {
		if tlsConf != nil {
			errc <- hs.ServeTLS(ln, "", "")
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		h.Close()
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	s.Logger().Info("shutting down", "timeout", opts.ShutdownTimeout)
	stopped := make(chan error, 1)
	shutCtx, cancel := context.WithTimeout(context.Background(), opts.ShutdownTimeout+5*time.Second)
	defer cancel()
	go func() { stopped <- hs.Shutdown(shutCtx) }() // closes the listener at once
	drainCtx, cancelDrain := context.WithTimeout(context.Background(), opts.ShutdownTimeout)
	defer cancelDrain()
	if err := h.Shutdown(drainCtx); err != nil {
		s.Logger().Warn("calls still running at the shutdown deadline were canceled")
	}
	if err := <-stopped; err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutting down: %w", err)
	}
	_ = hs.Close()
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

var _ http.Handler = (*HTTPHandler)(nil)

// adoptingStore tells the server about each session it takes over from
// the shared state, so that what mcpgen keeps of a session beside the
// go-sdk (its log level) comes along.
type adoptingStore struct {
	mcp.SessionStore
	srv *runtime.Server
}

// Load implements mcp.SessionStore.
func (a adoptingStore) Load(ctx context.Context, id string) (*mcp.ServerSessionState, string, error) {
	st, user, err := a.SessionStore.Load(ctx, id)
	if err == nil && st != nil {
		a.srv.AdoptSession(id, st)
	}
	return st, user, err
}
