// Package graphqlkind is the graphql backend kind: tools answered by one
// GraphQL operation each.
//
// A named backend (`backends:` entry of kind graphql) holds the endpoint,
// the API's schema (SDL or an introspection result) and an HTTP connection
// of the http kind, with its authentication, TLS settings, headers, limits
// and masking of credentials. A tool's operation is parsed and validated
// against the schema when the config loads, its variables are checked
// against the tool's arguments (or give the tool its input schema), and
// each call is a POST of {query, operationName, variables}. GraphQL
// `errors` become error results; `data` is the structured result.
package graphqlkind

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/vektah/gqlparser/v2/ast"
)

// Kind is the graphql backend kind.
func Kind() handlers.Kind {
	return handlers.Kind{
		Name:       "graphql",
		Doc:        "Runs a GraphQL operation, checked against the API's schema when the config loads.",
		NewConfig:  func() handlers.Config { return &Config{} },
		NewBackend: func() handlers.BackendConfig { return &BackendConfig{} },
	}
}

// backend is an opened graphql backend: its http connection and schema.
type backend struct {
	http   any // what httpkind opened
	schema *ast.Schema
}

// Open loads the schema and opens the http connection; it connects to
// nothing.
func (c *BackendConfig) Open(env handlers.BuildEnv) any {
	schema, err := LoadSchema(env.Path(c.Schema), c.Schema)
	if err != nil {
		env.Diag("schema", err.Error())
	}
	conn := c.SharedConnection.Open(env)
	if conn == nil || schema == nil {
		if cl, ok := conn.(io.Closer); ok {
			_ = cl.Close()
		}
		return nil
	}
	return &backend{http: conn, schema: schema}
}

// Close closes the idle connections of the http connection.
func (b *backend) Close() error {
	if cl, ok := b.http.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// prepared is what a Config learns once, for InputSchema and Build.
type prepared struct {
	done   bool
	be     *backend // the named backend, if any
	schema *ast.Schema
	op     *operation
}

// prepare loads the schema (or takes the backend's) and the operation,
// reporting problems once.
func (c *Config) prepare(env handlers.BuildEnv) *prepared {
	p := &c.prep
	if p.done {
		return p
	}
	p.done = true
	named, err := env.Backend("")
	switch {
	case errors.Is(err, handlers.ErrNoBackend):
		if c.Schema == "" {
			env.Diag("", "a graphql handler needs the API's schema: `backend:` naming a graphql entry of backends, "+
				"or `schema:` (an SDL file or an introspection result) with base_url")
			break
		}
		if p.schema, err = LoadSchema(env.Path(c.Schema), c.Schema); err != nil {
			env.Diag("schema", err.Error())
		}
	case err != nil:
		env.Diag("backend", err.Error())
		return p
	default:
		p.be, _ = named.(*backend) // runtime matched the backend's kind
		if p.be != nil {
			p.schema = p.be.schema
		}
		if c.Schema != "" {
			env.Diag("schema", "schema belongs to the backend; remove it here or drop `backend:`")
		}
	}
	p.op = c.loadOperation(env, p.schema)
	return p
}

// InputSchema is the JSON Schema of the operation's variables, for a tool
// that declares no arguments.
func (c *Config) InputSchema(env handlers.BuildEnv) map[string]any {
	p := c.prepare(env)
	if p.op == nil {
		return nil
	}
	return InputSchema(p.schema, p.op.def)
}

// handler answers the calls of one tool: the request and its retries are
// the http kind's, the reading of the answer is GraphQL's.
type handler struct {
	http     handlers.Handler
	mutation bool
	result   *eval.Value // nil: data
	redact   func(string) string
}

// Build checks the operation against the tool's arguments and builds the
// request. It returns nil after reporting a problem.
func (c *Config) Build(env handlers.BuildEnv) handlers.Handler {
	p := c.prepare(env)
	if p.op == nil {
		return nil
	}
	c.checkVariables(env, p)
	h := &handler{mutation: p.op.def.Operation == ast.Mutation, redact: env.Redact}
	if !c.Result.IsZero() {
		h.result = env.Compile("result", &c.Result, dataVars)
	}
	if env.Failed() {
		return nil
	}
	h.http = c.request(env, p)
	if h.http == nil || env.Failed() {
		h.Close()
		return nil
	}
	return h
}

// Call sends the operation and reads the GraphQL response.
func (h *handler) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	res, err := h.http.Call(ctx, c)
	if err != nil {
		return nil, err
	}
	return h.respond(ctx, c, res)
}

// DryRun shows the request a call would send, credentials masked.
func (h *handler) DryRun(ctx context.Context, c *handlers.Call) (string, error) {
	dr, ok := h.http.(handlers.DryRunner)
	if !ok {
		return "", errors.New("this request cannot be shown")
	}
	return dr.DryRun(ctx, c)
}

// Hints: a query only reads; a mutation writes.
func (h *handler) Hints() handlers.Hints {
	readOnly := !h.mutation
	if readOnly {
		destructive := false
		return handlers.Hints{ReadOnly: &readOnly, Destructive: &destructive}
	}
	return handlers.Hints{ReadOnly: &readOnly}
}

// Close closes the request's own connection, if it has one.
func (h *handler) Close() error {
	if cl, ok := h.http.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

func (h *handler) fail(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if h.redact != nil {
		msg = h.redact(msg)
	}
	return errors.New(msg)
}

var (
	_ handlers.Config        = (*Config)(nil)
	_ handlers.InputSchemer  = (*Config)(nil)
	_ handlers.BackendConfig = (*BackendConfig)(nil)
	_ handlers.Handler       = (*handler)(nil)
	_ handlers.DryRunner     = (*handler)(nil)
	_ handlers.Hinter        = (*handler)(nil)
	_ io.Closer              = (*handler)(nil)
	_ io.Closer              = (*backend)(nil)
)
