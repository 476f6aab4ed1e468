package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/loglevel"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/redisstate"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/runtime/spill"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
)

// Info describes the server to clients.
type Info = plan.Info

// Server is a built config: tools, prompts and resources ready to serve.
type Server struct {
	plan      *plan.Plan
	live      *Live // reloads this server's config; nil for none
	toolsPage int   // tools per tools/list page; 0 for toolsPageSize (tests)
}

// Ping checks every shared backend that can be checked (handlers.Pinger,
// e.g. a database) and that only accepts (nil: every one), and returns the
// result by backend name: nil for one that answers. Backends that cannot
// be checked are left out.
func (s *Server) Ping(ctx context.Context, only func(backend any) bool) map[string]error {
	s = s.now()
	out := map[string]error{}
	for name, b := range s.plan.Backends {
		if p, ok := b.(handlers.Pinger); ok && (only == nil || only(b)) {
			if err := p.Ping(ctx); err != nil {
				out[name] = errors.New(s.plan.Redact.Apply(err.Error()))
			} else {
				out[name] = nil
			}
		}
	}
	return out
}

// Logger returns the operator log (stderr) the server was built with.
func (s *Server) Logger() *slog.Logger { return s.plan.Logger }

// Info returns the server's name, version, title and instructions.
func (s *Server) Info() Info { return s.plan.Info }

// ToolNames lists the tools, in config order.
func (s *Server) ToolNames() []string {
	names := make([]string, len(s.plan.Tools))
	for i, t := range s.plan.Tools {
		names[i] = t.Def.Name
	}
	return names
}

// Close releases what handlers and backends hold (pools, processes).
func (s *Server) Close() error { return s.plan.Close() }

// MCP returns a go-sdk server with everything registered. Capabilities follow
// the config: prompts, resources and completions are declared only when the
// config has them; logging always. A server that Live reloads returns the
// one server Live serves every config on.
func (s *Server) MCP() *mcp.Server {
	if s.live != nil {
		return s.live.srv
	}
	caps := s.capabilities()
	opts := s.serverOptions(caps)
	if caps.Resources != nil {
		// The go-sdk tracks subscriptions; WatchResources reports changes.
		caps.Resources.Subscribe = true
		opts.SubscribeHandler = s.subscribe
		opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	}
	if len(s.plan.Prompts)+len(s.plan.Templates) > 0 {
		caps.Completions = &mcp.CompletionCapabilities{}
		opts.CompletionHandler = s.complete
	}
	srv := mcp.NewServer(s.implementation(), opts)
	srv.AddReceivingMiddleware(s.wrap)
	if s.plan.Tasks != nil {
		taskwire.Register(srv, s.plan.Tasks, s.plan.Logger)
	}
	if len(s.plan.Skills) > 0 {
		registerSkills(srv, func(context.Context) *Server { return s })
	}
	for _, p := range s.plan.Prompts {
		srv.AddPrompt(p.Def, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return s.getPrompt(ctx, p, req)
		})
	}
	for _, r := range s.plan.Resources {
		srv.AddResource(r.Def, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return s.read(ctx, r, req)
		})
	}
	if s.plan.Spill != nil {
		srv.AddResourceTemplate(spillResource(), s.readSpill)
	}
	for _, r := range s.plan.Templates {
		srv.AddResourceTemplate(r.Tmpl, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return s.read(ctx, r, req)
		})
	}
	return srv
}

// spillResource is the template of the pages of long results.
func spillResource() *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{URITemplate: spill.Template, Name: "result_pages",
		Description: "The pages of a tool result too long for one answer, as its resource links give them.",
		MIMEType:    "text/plain"}
}

// capabilities are those the config declares, before completions and
// subscriptions.
func (s *Server) capabilities() *mcp.ServerCapabilities {
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	if len(s.plan.Tools) > 0 {
		caps.Tools = &mcp.ToolCapabilities{}
	}
	if len(s.plan.Prompts) > 0 {
		caps.Prompts = &mcp.PromptCapabilities{}
	}
	if len(s.plan.Resources)+len(s.plan.Templates) > 0 || s.plan.Spill != nil {
		caps.Resources = &mcp.ResourceCapabilities{}
	}
	s.addExtensions(caps)
	if len(s.plan.Skills) > 0 {
		caps.AddExtension(plan.SkillsExtension, skillsSettings())
	}
	s.appCapability(caps)
	if s.plan.Tasks != nil {
		caps.Tasks = taskwire.Capabilities()
	}
	return caps
}

func (s *Server) serverOptions(caps *mcp.ServerCapabilities) *mcp.ServerOptions {
	opts := &mcp.ServerOptions{Instructions: s.plan.Info.Instructions, Capabilities: caps,
		SetCacheable: s.setCacheable, HeaderTool: s.headerTool}
	if s.plan.Logger.Enabled(context.Background(), slog.LevelDebug) {
		opts.Logger = s.plan.Logger // the SDK's session events are debugging detail
	}
	return opts
}

func (s *Server) implementation() *mcp.Implementation {
	return &mcp.Implementation{Name: s.plan.Info.Name, Version: s.plan.Info.Version, Title: s.plan.Info.Title,
		Description: s.plan.Info.Description, WebsiteURL: s.plan.Info.WebsiteURL, Icons: s.plan.Info.Icons}
}

// wrap puts the server's own middleware around next, the outermost last.
func (s *Server) wrap(next mcp.MethodHandler) mcp.MethodHandler {
	h := s.plan.LogLevels.Middleware(next)
	if len(s.plan.Tools) > 0 {
		h = s.toolsMiddleware(h)
		h = s.operateMiddleware(h) // outside: a cached call reaches no tool
	}
	h = s.callerMiddleware(h) // outside the others: they see the caller
	h = s.observeMiddleware(h)
	if s.plan.ToolSearch && len(s.plan.Tools) > 0 {
		h = s.searchMiddleware(h) // outside all: call_tool goes through them
	}
	if s.plan.Tasks != nil {
		h = taskwire.Discover(h)
	}
	return h
}

// notifier sends a call's logs and progress to the session that made it.
type notifier struct {
	req      *mcp.CallToolRequest
	logger   string
	progress float64
	levels   *loglevel.Sessions
	caps     *mcp.ClientCapabilities // what the client declared on the request (for a task, the one that created it)
}

// Enabled reports whether the client wants logs at level.
func (n *notifier) Enabled(_ context.Context, level slog.Level) bool {
	return n.levels != nil && n.levels.Enabled(n.req, level)
}

var levels = map[slog.Level]mcp.LoggingLevel{
	slog.LevelDebug: "debug", slog.LevelInfo: "info", slog.LevelWarn: "warning", slog.LevelError: "error",
}

func (n *notifier) Log(ctx context.Context, level slog.Level, msg string, data map[string]any) {
	l, ok := levels[level]
	if !ok {
		l = "info"
	}
	var payload any = msg
	if len(data) > 0 {
		m := map[string]any{"message": msg}
		for k, v := range data {
			m[k] = v
		}
		payload = m
	}
	n.logAt(ctx, l, n.logger, payload)
}

func (n *notifier) logAt(ctx context.Context, level mcp.LoggingLevel, logger string, data any) {
	_ = n.req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: logger, Data: data})
}

func (n *notifier) createMessage(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	return n.req.Session.CreateMessage(ctx, p)
}

func (n *notifier) elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return n.req.Session.Elicit(ctx, p)
}

func (n *notifier) listRoots(ctx context.Context) (*mcp.ListRootsResult, error) {
	return n.req.Session.ListRoots(ctx, &mcp.ListRootsParams{})
}

func (n *notifier) supports(capability string) bool { return declares(n.caps, capability) }

func (n *notifier) samplingTools() bool {
	c := n.req.ClientCapabilities()
	return c != nil && c.Sampling != nil && c.Sampling.Tools != nil
}

func (n *notifier) createMessageWithTools(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	return n.req.Session.CreateMessageWithTools(ctx, p)
}

func (n *notifier) urlElicitation() bool {
	c := n.req.ClientCapabilities()
	return c != nil && c.Elicitation != nil && c.Elicitation.URL != nil
}

func (n *notifier) elicitationComplete(ctx context.Context, id string) {
	_ = n.req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id})
}

// closeStream closes the HTTP response stream of the call, if it has one;
// the client resumes it with Last-Event-ID.
func (n *notifier) closeStream(retry time.Duration) {
	if n.req.Extra != nil && n.req.Extra.CloseSSEStream != nil {
		n.req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: retry})
	}
}

// Progress sends progress only when the client asked for it, and never lets
// it go backwards.
func (n *notifier) Progress(ctx context.Context, progress, total float64, msg string) {
	token := n.req.Params.GetProgressToken()
	if token == nil {
		return
	}
	n.progress = max(n.progress, progress)
	_ = n.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
		Progress: n.progress, Total: total, Message: msg})
}

// maxCompletions is the most values completion/complete may return.
const maxCompletions = 100

func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	if p.Ref == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing ref"}
	}
	var values []string
	var from handlers.Handler
	found := false
	switch p.Ref.Type {
	case "ref/prompt":
		for _, pr := range s.plan.Prompts {
			if pr.Def.Name != p.Ref.Name {
				continue
			}
			found = true
			for _, a := range pr.Args {
				if a.Name == p.Argument.Name {
					values, from = a.Complete, pr.Completers[a.Name]
				}
			}
		}
	case "ref/resource":
		for _, r := range s.plan.Templates {
			if r.Tmpl.URITemplate == p.Ref.URI {
				found = true
				values, from = r.Complete[p.Argument.Name], r.Completers[p.Argument.Name]
			}
		}
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown ref type %q", p.Ref.Type)}
	}
	if !found {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("no %s %q to complete", strings.TrimPrefix(p.Ref.Type, "ref/"), p.Ref.Name+p.Ref.URI)}
	}
	if from != nil {
		var given map[string]string
		if p.Context != nil {
			given = p.Context.Arguments
		}
		var err error
		if values, err = s.completeFrom(ctx, from, p.Argument.Value, given); err != nil {
			return nil, err
		}
	}
	return completion(values, p.Argument.Value), nil
}

// completion filters values by prefix, returning at most maxCompletions.
func completion(values []string, prefix string) *mcp.CompleteResult {
	matched := []string{}
	for _, v := range values {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(prefix)) {
			matched = append(matched, v)
		}
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: matched, Total: len(matched)}}
	if len(matched) > maxCompletions {
		res.Completion.Values = matched[:maxCompletions]
		res.Completion.HasMore = true
	}
	return res
}

// Describe summarises the server: "3 tools, 1 prompt, 2 resources".
func (s *Server) Describe() string {
	count := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	files := 0 // skills' files are resources too, counted with their skill
	for _, k := range s.plan.Skills {
		files += len(k.Files)
	}
	parts := []string{count(len(s.plan.Tools), "tool"), count(len(s.plan.Prompts), "prompt"),
		count(len(s.plan.Resources)-files, "resource"), count(len(s.plan.Templates), "resource template")}
	if len(s.plan.Skills) > 0 {
		parts = append(parts, count(len(s.plan.Skills), "skill"))
	}
	return strings.Join(parts, ", ")
}

// ArgTypes returns the JSON Schema type of each top-level argument of a
// tool ("" where the schema does not say).
func (s *Server) ArgTypes(tool string) map[string]string {
	out := map[string]string{}
	t, ok := s.plan.ToolIndex[tool]
	if !ok || t.Args == nil {
		return out
	}
	props, _ := t.Args.Schema().Doc()["properties"].(map[string]any)
	for name, p := range props {
		p, _ := p.(map[string]any)
		out[name], _ = p["type"].(string)
	}
	return out
}

// SharedState returns the state the server shares with other replicas in
// Redis (server.state.redis), or nil when it keeps its state in memory.
func (s *Server) SharedState() *redisstate.State { return s.plan.Shared }

// DefaultRequestStateTTL is how long a request state stays valid.
const DefaultRequestStateTTL = reqstate.DefaultTTL
