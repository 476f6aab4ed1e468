// Package searchtools answers the tools of tool search (server.tool_search)
// from a plan: the list a client sees, search_tools and describe_tools.
// call_tool is the server's: it becomes a tools/call of the named tool.
package searchtools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/toolsearch"
)

// failed is a tool error the model reads.
func failed(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// List is tools/list with tool search on: the search tools and the tools
// marked always that the caller may call.
func List(p *plan.Plan, may func(*plan.Tool) bool) *mcp.ListToolsResult {
	res := &mcp.ListToolsResult{Tools: append([]*mcp.Tool{}, toolsearch.Tools...)}
	p.Cache.Tools.Apply(&res.Cacheable)
	for _, t := range p.Tools {
		if t.Always && may(t) {
			res.Tools = append(res.Tools, t.Def)
		}
	}
	return res
}

// Search (search_tools) ranks the tools the caller may call for the query.
func Search(p *plan.Plan, may func(*plan.Tool) bool, raw json.RawMessage) *mcp.CallToolResult {
	var a struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || strings.TrimSpace(a.Query) == "" {
		return failed("search_tools needs a query: what you want to do, in plain words")
	}
	limit := a.Limit
	if limit <= 0 {
		limit = toolsearch.DefaultResults
	}
	limit = min(limit, toolsearch.MaxResults)
	type found struct {
		Name        string `json:"name"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description"`
	}
	var out []found
	var text strings.Builder
	for _, h := range p.Search.Index(p.Tools).Search(a.Query, len(p.Tools)) {
		t := p.Tools[h.Doc]
		if !may(t) {
			continue
		}
		f := found{t.Def.Name, t.Def.Title, firstParagraph(t.Def.Description)}
		out = append(out, f)
		fmt.Fprintf(&text, "%s: %s\n", f.Name, f.Description)
		if len(out) == limit {
			break
		}
	}
	if len(out) == 0 {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no tool matches; try other words"}},
			StructuredContent: map[string]any{"tools": []found{}}}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text.String()}},
		StructuredContent: map[string]any{"tools": out}}
}

// firstParagraph is a description up to its first blank line.
func firstParagraph(d string) string {
	p, _, _ := strings.Cut(strings.TrimSpace(d), "\n\n")
	return strings.Join(strings.Fields(p), " ")
}

// Describe (describe_tools) returns the definitions of the named tools the caller may
// call.
func Describe(p *plan.Plan, may func(*plan.Tool) bool, raw json.RawMessage) *mcp.CallToolResult {
	var a struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || len(a.Names) == 0 {
		return failed("describe_tools needs the names of tools, as search_tools returns them")
	}
	var defs []*mcp.Tool
	var unknown []string
	for _, n := range a.Names[:min(len(a.Names), toolsearch.MaxResults)] {
		if t := p.ToolIndex[n]; t != nil && may(t) {
			defs = append(defs, t.Def)
		} else {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return failed(fmt.Sprintf("no tool called %s; search_tools finds them", strings.Join(unknown, ", ")))
	}
	data, _ := json.Marshal(defs)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: map[string]any{"tools": defs}}
}
