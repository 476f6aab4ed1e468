package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/spill"
	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
)

// Live serves one config after another on one go-sdk server, so that a
// reload keeps the clients' sessions: `mcpgen serve --watch`, SIGHUP and
// `mcpgen dev`.
//
// Every request runs on the config that was current when it arrived, to
// its end; Swap makes a new config current at once. The old one is closed
// after its last request, except for the shared backends the new one took
// over (BuildOptions.Previous). Clients are told what changed: tools,
// prompts and resources list_changed, to sessions before 2026-07-28 and
// through subscriptions/listen after; listChanged is declared for each.
//
// Settings read when serving starts (server.http, server.stdio, auth,
// extensions, tasks) keep the first config's values until a restart.
type Live struct {
	srv   *mcp.Server
	first *Server
	cur   atomic.Pointer[generation]
	mu    sync.Mutex // serializes Swap and Close
	// stopWatch stops the current config's resource watcher.
	stopWatch context.CancelFunc
	closed    bool
	ended     atomic.Bool       // closed, for requests
	next      mcp.MethodHandler // the SDK's handler, inside every config's middleware
}

// generation is one config served by Live, with the requests running on it.
type generation struct {
	s       *Server
	handler mcp.MethodHandler // s's middleware around the SDK's handler
	refs    atomic.Int64      // requests running, plus one while current
}

// acquire counts a request on g; it fails once g has been released.
func (g *generation) acquire() bool {
	for {
		n := g.refs.Load()
		if n == 0 {
			return false
		}
		if g.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release ends a request on g (or g's time as current); the last one
// closes g's server.
func (g *generation) release() {
	if g.refs.Add(-1) == 0 {
		_ = g.s.Close()
	}
}

type liveKey struct{}

// NewLive returns a Live serving first. Transports serve it as they serve
// first: first.MCP() is now Live's server.
func NewLive(first *Server) *Live {
	l := &Live{first: first}
	caps := first.capabilities()
	// Every list may change, and clients hear of it. Clients are told of
	// the lists the config has when they connect (trimCapabilities).
	caps.Tools = &mcp.ToolCapabilities{ListChanged: true}
	caps.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	caps.Resources = &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true}
	caps.AddExtension(plan.SkillsExtension, skillsSettings())
	opts := first.serverOptions(caps)
	opts.SetCacheable = func(ctx context.Context, req mcp.Request, c *mcp.Cacheable) { l.at(ctx).setCacheable(ctx, req, c) }
	opts.HeaderTool = func(name string) *mcp.Tool { return l.Current().headerTool(name) }
	opts.SubscribeHandler = func(ctx context.Context, req *mcp.SubscribeRequest) error { return l.at(ctx).subscribe(ctx, req) }
	opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	opts.CompletionHandler = func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		return l.at(ctx).complete(ctx, req)
	}
	l.srv = mcp.NewServer(first.implementation(), opts)
	l.srv.AddReceivingMiddleware(l.dispatch)
	if first.plan.Tasks != nil {
		taskwire.Register(l.srv, first.plan.Tasks, first.plan.Logger)
	}
	registerSkills(l.srv, l.at)
	first.live = l
	l.install(nil, first)
	return l
}

// Current returns the config being served.
func (l *Live) Current() *Server { return l.cur.Load().s }

// at returns the config the request on ctx runs on.
func (l *Live) at(ctx context.Context) *Server {
	if s, ok := ctx.Value(liveKey{}).(*Server); ok {
		return s
	}
	return l.Current()
}

// dispatch runs each request on the current config, holding it open until
// the request ends.
func (l *Live) dispatch(next mcp.MethodHandler) mcp.MethodHandler {
	l.next = next
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		g := l.cur.Load()
		if method == "subscriptions/listen" {
			// A listen stream lasts as long as the client stays, and uses
			// nothing of the config: it must not keep an old one open.
			return g.handler(context.WithValue(ctx, liveKey{}, g.s), method, req)
		}
		for !g.acquire() {
			if l.ended.Load() {
				return nil, errors.New("the server is shutting down")
			}
			g = l.cur.Load() // swapped since: take the new one
		}
		defer g.release()
		res, err := g.handler(context.WithValue(ctx, liveKey{}, g.s), method, req)
		// A refused initialize or discover (a duplicate) comes back as a
		// typed nil with its error: there is nothing to trim.
		switch r := res.(type) {
		case *mcp.InitializeResult:
			if r != nil {
				g.s.trimCapabilities(r.Capabilities)
			}
		case *mcp.DiscoverResult:
			if r != nil {
				g.s.trimCapabilities(r.Capabilities)
			}
		}
		return res, err
	}
}

// trimCapabilities drops what Live's server can always handle and s has
// not: prompts, resources, completions. Capabilities follow the config.
func (s *Server) trimCapabilities(caps *mcp.ServerCapabilities) {
	if caps == nil {
		return
	}
	if len(s.plan.Prompts) == 0 {
		caps.Prompts = nil
	}
	if len(s.plan.Resources)+len(s.plan.Templates) == 0 && s.plan.Spill == nil {
		caps.Resources = nil
	}
	if len(s.plan.Prompts)+len(s.plan.Templates) == 0 {
		caps.Completions = nil
	}
	if len(s.plan.Skills) == 0 && caps.Extensions != nil {
		delete(caps.Extensions, plan.SkillsExtension)
		if len(caps.Extensions) == 0 {
			caps.Extensions = nil
		}
	}
}

// Swap makes next the config served: requests from now on run on it, those
// running finish on the old one, which is then closed. Clients are told of
// the lists that changed.
func (l *Live) Swap(next *Server) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		_ = next.Close()
		return
	}
	prev := l.Current()
	if kept := startupChanges(l.first, next); len(kept) > 0 {
		next.plan.Logger.Warn("config reloaded, but settings read when serving starts changed and keep their first values until a restart",
			"settings", strings.Join(kept, ", "))
	}
	next.plan.LogLevels = prev.plan.LogLevels // what sessions asked for outlives the config
	if next.plan.Spill != nil && prev.plan.Spill != nil {
		next.plan.Spill = prev.plan.Spill // pages of results already given stay readable
	}
	next.live = l
	next.takeOver(prev)
	l.install(prev, next)
}

// install makes s current, after prev (nil at first).
func (l *Live) install(prev, s *Server) {
	g := &generation{s: s}
	g.refs.Store(1)
	g.handler = s.wrap(l.next)
	l.syncPrompts(prev, s)
	l.syncResources(prev, s)
	old := l.cur.Swap(g)
	if prev != nil && !sameTools(prev, s) {
		l.srv.NotifyToolListChanged()
	}
	if l.stopWatch != nil {
		l.stopWatch()
	}
	var ctx context.Context
	ctx, l.stopWatch = context.WithCancel(context.Background())
	go s.watchResources(ctx, l.srv)
	if old != nil {
		old.release()
	}
}

// Close stops serving: the current config is closed after its last
// request. The server Live serves is not used again.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.ended.Store(true)
	l.stopWatch()
	l.cur.Load().release()
	return nil
}

// syncPrompts registers s's prompts that are new or changed since prev and
// removes those gone; the SDK tells clients when anything did change.
func (l *Live) syncPrompts(prev, s *Server) {
	old := map[string][]byte{}
	if prev != nil {
		for _, p := range prev.plan.Prompts {
			old[p.Def.Name] = jsonOf(p.Def)
		}
	}
	for _, p := range s.plan.Prompts {
		name := p.Def.Name
		if b, ok := old[name]; !ok || !slices.Equal(b, jsonOf(p.Def)) {
			l.srv.AddPrompt(p.Def, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				at := l.at(ctx)
				p := at.promptNamed(name)
				if p == nil { // gone in a reload since the SDK routed the request
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", name)}
				}
				return at.getPrompt(ctx, p, req)
			})
		}
		delete(old, name)
	}
	for name := range old {
		l.srv.RemovePrompts(name)
	}
}

// syncResources does for resources and templates what syncPrompts does for
// prompts.
func (l *Live) syncResources(prev, s *Server) {
	old, oldT := map[string][]byte{}, map[string][]byte{}
	if prev != nil {
		for _, r := range prev.plan.Resources {
			old[r.Def.URI] = append(jsonOf(r.Def), r.Digest...)
		}
		for _, r := range prev.plan.Templates {
			oldT[r.Tmpl.URITemplate] = jsonOf(r.Tmpl)
		}
	}
	read := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		at := l.at(ctx)
		r := at.resourceFor(req.Params.URI)
		if r == nil {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		return at.read(ctx, r, req)
	}
	for _, r := range s.plan.Resources {
		if b, ok := old[r.Def.URI]; !ok || !slices.Equal(b, append(jsonOf(r.Def), r.Digest...)) {
			l.srv.AddResource(r.Def, read)
		}
		delete(old, r.Def.URI)
	}
	for _, r := range s.plan.Templates {
		if b, ok := oldT[r.Tmpl.URITemplate]; !ok || !slices.Equal(b, jsonOf(r.Tmpl)) {
			l.srv.AddResourceTemplate(r.Tmpl, read)
		}
		delete(oldT, r.Tmpl.URITemplate)
	}
	switch {
	case s.plan.Spill != nil && (prev == nil || prev.plan.Spill == nil):
		l.srv.AddResourceTemplate(spillResource(), func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return l.at(ctx).readSpill(ctx, req)
		})
	case s.plan.Spill == nil && prev != nil && prev.plan.Spill != nil:
		l.srv.RemoveResourceTemplates(spill.Template)
	}
	for uri := range old {
		l.srv.RemoveResources(uri)
	}
	for t := range oldT {
		l.srv.RemoveResourceTemplates(t)
	}
}

// promptNamed returns the prompt of that name, or nil.
func (s *Server) promptNamed(name string) *plan.Prompt {
	for _, p := range s.plan.Prompts {
		if p.Def.Name == name {
			return p
		}
	}
	return nil
}

// now is the config being served: s, or the one Live serves in its place.
func (s *Server) now() *Server {
	if s.live != nil {
		return s.live.Current()
	}
	return s
}

// sameTools reports whether a and b list the same tools.
func sameTools(a, b *Server) bool {
	return a.plan.ToolSearch == b.plan.ToolSearch && len(a.plan.Tools) == len(b.plan.Tools) && slices.EqualFunc(a.plan.Tools, b.plan.Tools, func(x, y *plan.Tool) bool {
		return x.Def == y.Def || slices.Equal(jsonOf(x.Def), jsonOf(y.Def))
	})
}

func jsonOf(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// Log sends a log message to every session that asked for logs at level
// or below (logging/setLevel), e.g. why a reload failed.
func (l *Live) Log(ctx context.Context, level mcp.LoggingLevel, msg string) {
	for ss := range l.srv.Sessions() {
		_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "mcpgen", Data: msg})
	}
}

// InFlight returns the requests running on the current config.
func (l *Live) InFlight() int64 { return l.cur.Load().refs.Load() - 1 }

// startupChanges names the settings of next, read only when serving
// starts, that differ from first's: a reload cannot apply them.
func startupChanges(first, next *Server) []string {
	if first == nil {
		return nil
	}
	var out []string
	for _, c := range []struct {
		name string
		a, b any
	}{
		{"server name, version, title, description or instructions", first.plan.Info, next.plan.Info},
		{"server.http (address, limits, auth)", first.plan.HTTP, next.plan.HTTP},
		{"server.stdio", first.plan.Stdio, next.plan.Stdio},
		{"extensions", first.plan.Extensions, next.plan.Extensions},
		{"tasks", first.plan.Tasks != nil, next.plan.Tasks != nil},
		{"server.tasks", taskSettings(first.plan.TaskOpts), taskSettings(next.plan.TaskOpts)},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			out = append(out, c.name)
		}
	}
	return out
}

// taskSettings are the parts of server.tasks a config sets (not its store).
func taskSettings(o task.Options) [3]int64 {
	return [3]int64{int64(o.TTL), int64(o.PollInterval), int64(o.MaxPerOwner)}
}
