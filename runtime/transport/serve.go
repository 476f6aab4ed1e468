package transport

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Defaults of StdioOptions.
const (
	// DefaultStdioShutdownTimeout is how long calls in flight may run after
	// the input ends or the server is told to stop.
	DefaultStdioShutdownTimeout = 10 * time.Second
)

// cancelGrace is how long canceled calls get to send their (error) results,
// and then how long stopping waits for the session to end, before giving up.
const cancelGrace = time.Second

// StdioOptions control serving over stdio. Zero values take the defaults.
type StdioOptions struct {
	// MaxMessage caps one message (one line) in bytes; a longer line is
	// skipped, never held whole, and refused. Defaults to DefaultMaxFrame.
	MaxMessage int
	// ShutdownTimeout is how long calls in flight may finish after the
	// input ends or ctx is canceled; then they are canceled.
	ShutdownTimeout time.Duration
	// Problems, if set, says what keeps the config from serving as it
	// should (a database that does not answer, a config that did not
	// build). Once the client has sent notifications/initialized, each
	// problem reaches it as an error log message (notifications/message,
	// logger ProblemsLogger), which desktop clients show in their server
	// log; stderr they never show. It runs on a goroutine of its own.
	Problems func(context.Context) []string
}

// StdioConfig returns the options from the `server.stdio` section of
// srv's config, defaults applied.
func StdioConfig(srv *runtime.Server) StdioOptions {
	var o StdioOptions
	if st := srv.Stdio(); st != nil {
		o = StdioOptions{MaxMessage: int(st.MaxMessage), ShutdownTimeout: time.Duration(st.ShutdownTimeout)}
	}
	return o.withDefaults()
}

func (o StdioOptions) withDefaults() StdioOptions {
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxFrame
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultStdioShutdownTimeout
	}
	return o
}

// ServeStdio serves s over in and out until the client closes in or ctx is
// canceled. Nothing but protocol messages is written to out; a malformed
// message is answered with a JSON-RPC error (or dropped and logged when it
// has no id) and serving goes on. When in ends, requests already read are
// answered, and when ctx is canceled, calls in flight may finish, for up to
// opts.ShutdownTimeout; then they are canceled, and ServeStdio returns
// shortly after even if a call ignores its cancellation.
func ServeStdio(ctx context.Context, s *runtime.Server, in io.Reader, out io.Writer, opts StdioOptions) error {
	opts = opts.withDefaults()
	p := &pending{cond: sync.NewCond(new(sync.Mutex))}
	calls := newCallTracker(-1)
	srv := s.MCP()
	srv.AddReceivingMiddleware(safeErrors, calls.middleware)
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	if opts.Problems != nil {
		srv.AddReceivingMiddleware(tellProblems(runCtx, opts.Problems))
	}
	srv.AddReceivingMiddleware(recovering(s.Logger(), s.Observer().Metrics)) // outermost
	input, release := stdioInput(in)
	defer release()
	conn := newStdioConn(input, out, opts.MaxMessage, s.Logger(), p)
	ended := make(chan struct{})
	conn.onEOF = func() {
		close(ended)
		stopCalls(p, calls, opts.ShutdownTimeout)
	}
	go s.WatchResources(runCtx, srv)
	done := make(chan error, 1)
	go func() { done <- runStdio(runCtx, srv, conn) }()
	select {
	case err := <-done:
		return quietEnd(err)
	case <-ended:
	case <-ctx.Done():
		s.Logger().Info("shutting down", "timeout", opts.ShutdownTimeout)
		calls.drain()
		stopCalls(p, calls, opts.ShutdownTimeout)
		_ = conn.Close()
	}
	return waitEnd(done, opts.ShutdownTimeout+2*cancelGrace)
}

// runStdio serves srv on conn until the session ends or ctx is done, as
// mcp.Server.Run does.
func runStdio(ctx context.Context, srv *mcp.Server, conn *stdioConn) error {
	ss, err := srv.Connect(ctx, &stdioTransport{conn: conn}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		_ = ss.Close()
		<-ended
		return ctx.Err()
	case err := <-ended:
		return err
	}
}

// stopCalls waits up to grace for every request read to be answered, then
// cancels the calls still running and gives them a moment to answer.
func stopCalls(p *pending, calls *callTracker, grace time.Duration) {
	p.waitFor(grace)
	calls.cancelAll()
	p.waitFor(cancelGrace)
}

// waitEnd waits up to d for the session to end.
func waitEnd(done <-chan error, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		return quietEnd(err)
	case <-t.C:
		return errors.New("stdio session did not end after its calls were canceled")
	}
}

// quietEnd drops the errors that mean the session ended normally.
func quietEnd(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// pending counts requests read and responses written.
type pending struct {
	cond      *sync.Cond
	requests  int
	responses int
}

func (p *pending) add(req, resp int) {
	p.cond.L.Lock()
	p.requests += req
	p.responses += resp
	p.cond.L.Unlock()
	p.cond.Broadcast()
}

// waitFor blocks until every request read has been answered, or d passes.
func (p *pending) waitFor(d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	stop := context.AfterFunc(ctx, p.cond.Broadcast)
	defer stop()
	p.cond.L.Lock()
	defer p.cond.L.Unlock()
	for p.responses < p.requests && ctx.Err() == nil {
		p.cond.Wait()
	}
}
