package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"go.opentelemetry.io/otel/trace"
)

// NeedScopes returns the scopes an MCP request needs for its item: the
// tool or prompt called, the resource read (an auth.NeedFunc).
func (s *Server) NeedScopes(method, name string) []string {
	s = s.now()
	switch method {
	case "tools/call":
		if t, ok := s.plan.ToolIndex[name]; ok {
			return t.Scopes
		}
	case "prompts/get":
		for _, p := range s.plan.Prompts {
			if p.Def.Name == name {
				return p.Scopes
			}
		}
	case "resources/read":
		if r := s.resourceFor(name); r != nil {
			return r.Scopes
		}
	}
	return nil
}

// resourceFor returns the resource or template serving uri, or nil.
func (s *Server) resourceFor(uri string) *plan.Resource {
	for _, r := range s.plan.Resources {
		if r.Def.URI == uri {
			return r
		}
	}
	for _, r := range s.plan.Templates {
		if _, ok := r.URIArgs(uri); ok {
			return r
		}
	}
	return nil
}

// callerMiddleware puts the authenticated caller, which the HTTP layer
// hands over in the request's TokenInfo, on the context of every request;
// hides from list results the items whose scopes the caller lacks, and
// refuses requests for them; and writes one audit line per call. Without a
// caller (stdio, HTTP without auth) nothing is hidden or refused. A
// connection made in-process with a caller on its context (`mcpgen test`
// cases that give one) is that caller's, as if it had authenticated.
func (s *Server) callerMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var c *auth.Caller
		if extra := req.GetExtra(); extra != nil {
			c = auth.CallerFromTokenInfo(extra.TokenInfo)
		}
		if c != nil {
			ctx = auth.WithCaller(ctx, c)
		} else {
			c = auth.CallerFrom(ctx)
		}
		kind, name := callTarget(method, req)
		if kind == "" {
			res, err := next(ctx, method, req)
			if c != nil && err == nil {
				s.filterList(c, res)
			}
			return res, err
		}
		start := time.Now()
		res, err := s.callAs(ctx, c, method, name, req, next)
		s.audit(ctx, c, kind, name, res, err, time.Since(start))
		return res, err
	}
}

// callAs runs a call, or refuses it when the caller lacks its scopes.
func (s *Server) callAs(ctx context.Context, c *auth.Caller, method, name string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	need := s.NeedScopes(method, name)
	if c == nil || c.HasScopes(need) {
		return next(ctx, method, req)
	}
	msg := fmt.Sprintf("%q needs the scope(s) %s, which this caller was not granted", name, strings.Join(need, " "))
	if method == "tools/call" {
		return errorResult(msg), nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// callTarget names the item a request acts on: ("tool", name),
// ("prompt", name) or ("resource", uri); "" for other requests.
func callTarget(method string, req mcp.Request) (kind, name string) {
	switch r := req.(type) {
	case *mcp.CallToolRequest:
		if r.Params != nil {
			return "tool", r.Params.Name
		}
		return "tool", ""
	case *mcp.GetPromptRequest:
		if r.Params != nil {
			return "prompt", r.Params.Name
		}
		return "prompt", ""
	case *mcp.ReadResourceRequest:
		if r.Params != nil {
			return "resource", r.Params.URI
		}
		return "resource", ""
	}
	return "", ""
}

// outcome sums up a call for the audit line.
func outcome(res mcp.Result, err error) string {
	switch {
	case err != nil:
		return "failed"
	case isToolError(res):
		return "error"
	}
	return "ok"
}

func isToolError(res mcp.Result) bool {
	r, ok := res.(*mcp.CallToolResult)
	return ok && r.IsError
}

// audit writes one line per call: who, what, how it went, how long it
// took, and what the backend answered. Argument values are never logged;
// the error a tool returned is, with every secret masked.
func (s *Server) audit(ctx context.Context, c *auth.Caller, kind, name string, res mcp.Result, err error, d time.Duration) {
	if !s.plan.Logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	subject := "-"
	if c != nil {
		subject = c.Subject
	}
	out := outcome(res, err)
	rec := observe.CallFrom(ctx)
	if o := rec.Outcome(); o != "" && err == nil {
		out = o
	}
	attrs := []slog.Attr{slog.String("subject", subject), slog.String(kind, name), slog.String("outcome", out),
		slog.Duration("duration", d.Round(time.Microsecond))}
	if st := rec.BackendStatus(); st != "" {
		attrs = append(attrs, slog.String("backend_status", st))
	}
	if msg := errorText(res, err); msg != "" {
		attrs = append(attrs, slog.String("error", s.plan.Redact.Apply(msg)))
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()))
	}
	s.plan.Logger.LogAttrs(ctx, slog.LevelInfo, "call", attrs...)
}

// maxLoggedError bounds the error text of a call's log line.
const maxLoggedError = 300

// errorText is what went wrong with a call, for its log line: the
// protocol error, or the text of a tool error result; "" when it went well.
func errorText(res mcp.Result, err error) string {
	msg := ""
	if err != nil {
		msg = err.Error()
	} else if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
		msg = contentText(r.Content)
	}
	if len(msg) > maxLoggedError {
		msg = strings.ToValidUTF8(msg[:maxLoggedError], "") + "…"
	}
	return msg
}

// filterList removes from a list result the items c may not use, and
// marks the result as valid for this caller only.
func (s *Server) filterList(c *auth.Caller, res mcp.Result) {
	switch r := res.(type) {
	case *mcp.ListToolsResult:
		r.Tools = keep(r.Tools, func(t *mcp.Tool) []string { return s.NeedScopes("tools/call", t.Name) }, c)
		r.CacheScope = "private"
	case *mcp.ListPromptsResult:
		r.Prompts = keep(r.Prompts, func(p *mcp.Prompt) []string { return s.NeedScopes("prompts/get", p.Name) }, c)
		r.CacheScope = "private"
	case *mcp.ListResourcesResult:
		r.Resources = keep(r.Resources, func(x *mcp.Resource) []string { return s.NeedScopes("resources/read", x.URI) }, c)
		r.CacheScope = "private"
	case *mcp.ListResourceTemplatesResult:
		r.ResourceTemplates = keep(r.ResourceTemplates, s.templateScopes, c)
		r.CacheScope = "private"
	}
}

func (s *Server) templateScopes(t *mcp.ResourceTemplate) []string {
	for _, r := range s.plan.Templates {
		if r.Tmpl.URITemplate == t.URITemplate {
			return r.Scopes
		}
	}
	return nil
}

// keep returns the items whose scopes c has, in order.
func keep[T any](items []T, scopes func(T) []string, c *auth.Caller) []T {
	out := make([]T, 0, len(items))
	for _, it := range items {
		if c.HasScopes(scopes(it)) {
			out = append(out, it)
		}
	}
	return out
}
