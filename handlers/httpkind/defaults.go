package httpkind

import (
	"fmt"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/templates"
)

// defaults are a backend's compiled ToolDefaults, shared by its tools.
type defaults struct {
	override   *bool
	query      []param
	success    []statusRange
	errors     []*errorRule
	result     *eval.Value
	text       *templates.Template
	pagination *Pagination // checked again against each tool's body
	page       *pager
	revalidate bool
	fields     []param
}

// compileDefaults compiles a backend's tool defaults once, reporting
// problems at the backend.
func compileDefaults(env handlers.BuildEnv, d *ToolDefaults) *defaults {
	out := &defaults{override: d.MethodOverride, query: compileParams(env, "query", d.Query, nil),
		success: parseStatuses(env, "success", d.Success), revalidate: d.Revalidate}
	for i, r := range d.Errors {
		out.errors = append(out.errors, compileRule(env, fmt.Sprintf("errors[%d]", i), r))
	}
	if !d.Result.IsZero() {
		out.result = env.Compile("result", &d.Result, responseVars)
	}
	out.fields = compileParams(env, "result_fields", d.ResultFields, responseVars)
	if d.Text != "" {
		out.text = env.Template("text", d.Text, "response", "result")
	}
	if p := d.Pagination; p != nil {
		if p.Mode == "cursor" {
			env.Diag("pagination.mode", "cursor mode maps a tool's own cursor argument: set it on the tool")
		} else {
			out.pagination, out.page = p, compilePager(env, p, nil, false)
		}
	}
	return out
}

// inherit fills in what the tool left to its backend. A tool's settings
// win; its query parameters replace the backend's of the same name; its
// error rules come first.
func (h *handler) inherit(env handlers.BuildEnv, c *Config) {
	d := h.be.defaults
	if d == nil {
		return
	}
	if c.MethodOverride == nil && d.override != nil {
		h.override = *d.override
	}
	for _, p := range d.query {
		if _, own := c.Query[p.name]; !own {
			h.queryParams = append(h.queryParams, p)
		}
	}
	if len(c.Success) == 0 && len(d.success) > 0 {
		h.success = d.success
	}
	h.errors = append(h.errors, d.errors...)
	for _, f := range d.fields {
		if _, own := c.ResultFields[f.name]; !own {
			h.fields = append(h.fields, f)
		}
	}
	if c.Result.IsZero() {
		h.result = d.result
		if c.Text == "" {
			h.text = d.text
		}
	}
	if c.Pagination == nil && c.Poll == nil && d.page != nil {
		checkCursor(env, d.pagination, c.Body, "the backend's ")
		h.page, h.pageInherited = d.page, true
	}
}
