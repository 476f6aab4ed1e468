package build

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/build/tokens"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
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
	c := tokens.Costs(b.plan)
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
