package build

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/build/tokens"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/toolsearch"
	"github.com/mcpgen/mcpgen/spec"
)

// toolPlace is where a tool is written, for diagnostics about it.
type toolPlace struct {
	f    *load.File
	path string
	t    *spec.Tool
}

// budgetAt is the config's server.budget and the file it is written in.
type budgetAt struct {
	f *load.File
	b *spec.Budget
}

// checkBudget checks server.budget's own settings.
func (b *builder) checkBudget(f *load.File, bg *spec.Budget) {
	if bg == nil {
		return
	}
	if bg.Severity != "" && bg.Severity != "warning" && bg.Severity != "error" {
		b.errorf(f, "server.budget.severity", "expected warning or error, got %q", bg.Severity)
		return
	}
	b.budget = &budgetAt{f, bg}
}

// costs counts the tokens of what clients list, when validate asks for them
// or the config sets a budget, and reports what goes over the budget.
func (b *builder) costs() {
	if !b.opts.CountTokens && b.budget == nil || b.ds.Errors() > 0 {
		return
	}
	c := &plan.Costs{Encoding: tokens.Encoding}
	var schemas sync.Map // raw JSON -> tokens: imported tools repeat schemas
	c.Tools = countAll(b.plan.Tools, func(t *plan.Tool) (string, int) { return t.Def.Name, toolTokens(t.Def, &schemas) })
	c.Prompts = countAll(b.plan.Prompts, func(p *plan.Prompt) (string, int) { return p.Def.Name, jsonTokens(p.Def) })
	c.Templates = countAll(b.plan.Templates, func(r *plan.Resource) (string, int) { return r.Tmpl.Name, jsonTokens(r.Tmpl) })
	c.ToolsList, c.PromptsList, c.TemplatesList = sum(c.Tools), sum(c.Prompts), sum(c.Templates)
	if b.plan.ToolSearch {
		// tools/list lists the search tools and the tools marked always
		c.ToolsList = 0
		for _, d := range toolsearch.Tools {
			c.ToolsList += jsonTokens(d)
		}
		for i, t := range b.plan.Tools {
			if t.Always {
				c.ToolsList += c.Tools[i].Tokens
			}
		}
	}
	c.Listed = len(c.Tools)
	if b.plan.ToolSearch {
		c.Listed = len(toolsearch.Tools)
		for _, t := range b.plan.Tools {
			if t.Always {
				c.Listed++
			}
		}
	}
	if b.budget != nil {
		c.BudgetToolsList, c.BudgetTool = b.budget.b.ToolsListTokens, b.budget.b.ToolTokens
	}
	b.plan.Costs = c
	b.overBudget(c)
}

// overBudget reports each tool over tool_tokens, at the tool, and a
// tools/list over tools_list_tokens, at that setting.
func (b *builder) overBudget(c *plan.Costs) {
	if b.budget == nil {
		return
	}
	bg, sev := b.budget.b, load.Warning
	if bg.Severity == "error" {
		sev = load.Error
	}
	hint := "shorten descriptions and schemas (mcpgen validate --costs lists the largest), serve fewer tools (toolsets, tags) or let clients search them (server.tool_search)"
	if bg.ToolTokens > 0 {
		for _, tc := range c.Tools {
			if at, ok := b.toolAt[tc.Name]; ok && tc.Tokens > bg.ToolTokens {
				b.diag(at.f, sev, at.path, fmt.Sprintf("tool %q costs %d tokens (%s), over server.budget.tool_tokens %d",
					tc.Name, tc.Tokens, c.Encoding, bg.ToolTokens), hint)
			}
		}
	}
	if bg.ToolsListTokens > 0 && c.ToolsList > bg.ToolsListTokens {
		b.diag(b.budget.f, sev, "server.budget.tools_list_tokens", fmt.Sprintf("tools/list costs %d tokens (%s, %d tools), over server.budget.tools_list_tokens %d",
			c.ToolsList, c.Encoding, c.Listed, bg.ToolsListTokens), hint)
	}
}

// toolTokens counts a tool as tools/list sends it: its JSON without the
// schemas, plus each schema's JSON, counted once however many tools share
// it. (Apart, a schema's first token cannot merge with the key before it:
// the count is within a few tokens of the whole's.)
func toolTokens(def *mcp.Tool, schemas *sync.Map) int {
	bare := *def
	bare.InputSchema, bare.OutputSchema = json.RawMessage("{}"), nil
	n := jsonTokens(&bare) - 1 // the "{}" stood for the schema's first and last tokens
	for _, s := range []any{def.InputSchema, def.OutputSchema} {
		if raw, ok := s.(json.RawMessage); ok {
			if v, ok := schemas.Load(string(raw)); ok {
				n += v.(int)
				continue
			}
			k := tokens.Count(string(raw))
			schemas.Store(string(raw), k)
			n += k
		} else if s != nil {
			n += jsonTokens(s)
		}
	}
	if def.OutputSchema != nil {
		n += tokens.Count(`,"outputSchema":`)
	}
	return n
}

// jsonTokens counts the tokens of v's JSON.
func jsonTokens(v any) int {
	raw, _ := json.Marshal(v)
	return tokens.Count(string(raw))
}

// countAll counts the tokens of each item as a list sends it, on as many
// goroutines as there are processors.
func countAll[T any](items []T, count func(T) (string, int)) []plan.Cost {
	out := make([]plan.Cost, len(items))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				name, n := count(items[i])
				out[i] = plan.Cost{Name: name, Tokens: n}
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func sum(cs []plan.Cost) int {
	n := 0
	for _, c := range cs {
		n += c.Tokens
	}
	return n
}
