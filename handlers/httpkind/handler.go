// Package httpkind is the http backend kind: tools and resources answered by
// an HTTP API.
//
// A named backend (`backends:` entry of kind http) holds the base URL,
// default headers, authentication, TLS settings and limits, and one
// connection pool shared by every tool that names it. A tool's handler
// builds one request from its arguments (method, path, query, headers,
// body) and turns the response into a result: error rules, an extraction
// expression for the structured result, a text template, pagination.
//
// The scheme and host come from the config, never from arguments; values
// inserted into the path are escaped as single segments; header values
// holding line breaks are refused; responses are capped; retries are for
// idempotent methods only, unless a tool says otherwise.
package httpkind

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

// Kind is the http backend kind.
func Kind() handlers.Kind {
	return handlers.Kind{
		Name:       "http",
		Doc:        "Calls an HTTP API: one request per call, built from the arguments.",
		NewConfig:  func() handlers.Config { return &Config{} },
		NewBackend: func() handlers.BackendConfig { return &BackendConfig{} },
	}
}

// exprRE matches the expressions inside a string.
var exprRE = regexp.MustCompile(`\$\{\{.*?\}\}`)

// responseType types `response` in expressions.
var responseType = types.Map{
	"status":  types.Int64,
	"headers": types.Map{types.Extra: types.String},
	"body":    types.Any,
}

// responseVars are the names expressions over a response see.
var responseVars = types.Map{"response": responseType}

// pageType types `page` in a request's expressions: the cursor `next`
// gave for the page being asked for (null for the first) and its number.
var pageType = types.Map{"cursor": types.Any, "number": types.Int64}

// requestVars are the names a request's expressions see besides a call's.
var requestVars = types.Map{"page": pageType}

// pagingVars are the names `pagination.next` and `items` see.
var pagingVars = types.Map{"response": responseType, "page": pageType}

// handler answers the calls of one tool.
type handler struct {
	keeper      *keeper // responses kept for revalidation; nil without `revalidate`
	fields      []param // result_fields, the tool's then its backend's
	be          *backend
	own         bool // be was opened for this handler alone
	lim         limits
	method      string
	override    bool
	idempotent  bool
	path        *eval.Value
	queryParams []param
	queryStyle  string
	headers     []param
	body        *bodyBuilder
	success     []statusRange
	errors      []*errorRule
	result      *eval.Value // nil: the body
	text        *templates.Template
	page        *pager
	// pageInherited: page is the backend's, which a response whose items
	// are not a list does not use
	pageInherited bool
	// pageInRequest: the request reads `page`, so each page's request is
	// built again with the cursor (a cursor inside a query string, say)
	pageInRequest bool
	poll          *poller  // nil: a 202 is the answer
	forward       []string // the backend's forward_headers and the tool's
	redact        func(string) string
	// readsResponse is set when an expression or template may read
	// `response`: only then are its headers prepared.
	readsResponse bool
}

// ResultShape implements handlers.ResultShaper: the shape of the result
// expression, when there is one and pages are not joined.
func (h *handler) ResultShape() *eval.Shape {
	if h.result == nil || h.page != nil || len(h.fields) > 0 {
		return nil
	}
	return handlers.ObjectShape(h.result.Shape())
}

// Build checks the tool's request and response settings. It returns nil
// after reporting a problem.
func (c *Config) Build(env handlers.BuildEnv) handlers.Handler {
	h := &handler{method: strings.ToUpper(cmp.Or(c.Method, "GET")), override: c.MethodOverride != nil && *c.MethodOverride,
		idempotent: c.Idempotent, queryStyle: cmp.Or(c.QueryStyle, "repeat"), redact: env.Redact}
	h.be, h.own = c.backend(env)
	if h.be != nil {
		h.lim = c.Limits.resolve(h.be.limits)
		h.forward = slices.Clone(h.be.forward)
	}
	for _, name := range compileForward(env, "forward_headers", c.ForwardHeaders) {
		if !slices.Contains(h.forward, name) {
			h.forward = append(h.forward, name)
		}
	}
	h.compileRequest(env, c)
	h.compileResponse(env, c)
	if h.be != nil {
		h.inherit(env, c)
	}
	h.checkPageInRequest(env)
	if c.Revalidate != nil && *c.Revalidate || c.Revalidate == nil && h.be != nil && h.be.defaults != nil &&
		h.be.defaults.revalidate {
		h.keeper = newKeeper()
	}
	h.readsResponse = len(h.errors) > 0 || h.result != nil || h.text != nil || h.page != nil || len(h.fields) > 0
	h.checkAnnotations(env)
	if c.Body != nil && (h.method == "GET" || h.method == "HEAD") && !h.override {
		env.Warn("body", fmt.Sprintf("a %s request with a body: many servers and proxies drop it", h.method))
	}
	if env.Failed() {
		h.Close()
		return nil
	}
	return h
}

// backend returns the named backend, or opens the handler's own.
func (c *Config) backend(env handlers.BuildEnv) (*backend, bool) {
	named, err := env.Backend("")
	switch {
	case errors.Is(err, handlers.ErrNoBackend):
		b := openBackend(env, &c.Connection, nil)
		if b != nil {
			b.limits = defaultLimits()
		}
		return b, true
	case err != nil:
		return nil, false // the backend failed to open; runtime reported why
	}
	be, ok := named.(*backend)
	if !ok {
		env.Diag("backend", "the backend is not of kind http")
		return nil, false
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"base_url", c.BaseURL != nil}, {"auth", c.Auth != nil}, {"tls", c.TLS != nil},
		{"signing", c.Signing != nil}} {
		if f.set {
			env.Diag(f.name, fmt.Sprintf("%s belongs to the backend; remove it here or drop `backend:`", f.name))
		}
	}
	return be, false
}

func (h *handler) compileRequest(env handlers.BuildEnv, c *Config) {
	if !c.Path.IsZero() {
		if c.Path.Node.Tag != "!!str" {
			env.Diag("path", "the path is a string, e.g. /tickets/${{ args.id }}")
		} else if strings.ContainsAny(exprRE.ReplaceAllString(c.Path.Node.Value, ""), "?#") {
			env.Diag("path", "the path must not hold a query or fragment; use query")
		}
		h.path = env.Compile("path", &c.Path, requestVars)
	}
	h.queryParams = compileParams(env, "query", c.Query, requestVars)
	h.headers = compileParams(env, "headers", c.Headers, requestVars)
	for _, p := range h.headers {
		value := ""
		if p.val != nil && p.val.IsConst() {
			value, _ = p.val.String(nil, nil)
		}
		if err := checkHeader(p.name, value); err != nil {
			env.Diag("headers."+p.name, err.Error())
		}
	}
	if c.Body != nil {
		h.body = h.compileBody(env, c.Body)
	}
}

func (h *handler) compileResponse(env handlers.BuildEnv, c *Config) {
	h.success = parseStatuses(env, "success", c.Success)
	if len(c.Success) == 0 {
		h.success = []statusRange{{200, 299}} // unless the backend has its own
	}
	for i, r := range c.Errors {
		h.errors = append(h.errors, compileRule(env, fmt.Sprintf("errors[%d]", i), r))
	}
	if !c.Result.IsZero() {
		h.result = env.Compile("result", &c.Result, responseVars)
	}
	h.fields = compileParams(env, "result_fields", c.ResultFields, responseVars)
	if c.Text != "" {
		h.text = env.Template("text", c.Text, "response", "result")
	}
	if c.Pagination != nil {
		h.page = compilePager(env, c.Pagination, c.Body, true)
	}
	if c.Poll != nil {
		h.poll = compilePoller(env, c.Poll)
		if h.page != nil {
			env.Diag("poll", "poll and pagination do not go together")
		}
	}
}

// compileParams compiles a mapping of names to values, sorted by name.
func compileParams(env handlers.BuildEnv, field string, m map[string]spec.Value, vars types.Map) []param {
	var out []param
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		out = append(out, param{name: name, val: env.Compile(field+"."+name, &v, vars)})
	}
	return out
}

// Call sends the tool's request and turns the response into a result.
func (h *handler) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	timeout := h.lim.timeout
	if h.poll != nil {
		timeout = h.poll.timeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	vars := c.Vars()
	out, err := h.build(vars)
	if err == nil && h.page != nil && h.page.link != "" && !h.page.follow {
		out, err = h.linkedRequest(c.Args, out)
	}
	if err != nil {
		return nil, h.fail(err)
	}
	forward(ctx, h.forward, out.header)
	var res *handlers.Result
	if h.page != nil && h.page.follow {
		res, err = h.follow(ctx, c, vars, out)
	} else {
		res, err = h.once(ctx, c.Notify, vars, out)
	}
	if err != nil {
		if context.Cause(ctx) == errTimeout { // the call failed because time ran out
			return nil, fmt.Errorf("the request timed out after %v", timeout)
		}
		return nil, h.fail(err)
	}
	return res, nil
}

// errTimeout tells the handler's own timeout from a deadline of the caller.
var errTimeout = errors.New("timeout")

// once sends one request and renders its response.
func (h *handler) once(ctx context.Context, n handlers.Notifier, vars map[string]any, out *outgoing) (*handlers.Result, error) {
	resp, err := h.do(ctx, n, out)
	if err == nil && h.poll != nil && resp.status == http.StatusAccepted {
		resp, err = h.await(ctx, n, vars, out, resp)
	}
	if err != nil {
		return nil, err
	}
	return h.respond(vars, resp)
}

// fail scrubs secrets from an error: those taken from the environment and
// the backend's own credentials.
func (h *handler) fail(err error) error {
	msg := h.scrub(err.Error())
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

func (h *handler) scrub(s string) string {
	if h.redact != nil {
		s = h.redact(s)
	}
	if h.be != nil {
		for _, secret := range append(h.be.auth.secrets(), h.be.signer.secrets()...) {
			if len(secret) >= 4 {
				s = strings.ReplaceAll(s, secret, "****")
			}
		}
	}
	return s
}

// Close closes the idle connections of a handler's own connection.
func (h *handler) Close() error {
	if h.own && h.be != nil {
		return h.be.Close()
	}
	return nil
}

var (
	_ handlers.Config  = (*Config)(nil)
	_ handlers.Handler = (*handler)(nil)
)
