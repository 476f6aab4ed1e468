package main

import (
	"cmp"
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/mcpgen/mcpgen/runtime/plan"
)

// costsTop is how many tools validate --costs lists by name.
const costsTop = 20

// printCosts prints the tokens of what clients list: the largest tools, then
// the totals. (--format json has them in its object: costsJSON.)
func printCosts(std stdio, c *plan.Costs) {
	if c == nil {
		return
	}
	top := slices.Clone(c.Tools)
	slices.SortStableFunc(top, func(a, b plan.Cost) int { return cmp.Compare(b.Tokens, a.Tokens) })
	w := tabwriter.NewWriter(std.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "tokens\ttool\t\n")
	for _, tc := range top[:min(costsTop, len(top))] {
		fmt.Fprintf(w, "%d\t%s\t\n", tc.Tokens, tc.Name)
	}
	if len(top) > costsTop {
		fmt.Fprintf(w, "%d\t(%d more tools)\t\n", sumOf(top[costsTop:]), len(top)-costsTop)
	}
	fmt.Fprintf(w, "%d\ttools/list (%d tools)\t\n", c.ToolsList, c.Listed)
	fmt.Fprintf(w, "%d\tprompts/list (%d prompts)\t\n", c.PromptsList, len(c.Prompts))
	fmt.Fprintf(w, "%d\tresources/templates/list (%d templates)\t\n", c.TemplatesList, len(c.Templates))
	fmt.Fprintf(w, "%d\ttotal\t\n", c.Total())
	w.Flush()
	fmt.Fprintf(std.out, "Tokens of the %s encoding (GPT-4o and later); other models' tokenizers count a few percent differently.\n", c.Encoding)
}

func sumOf(cs []plan.Cost) int {
	n := 0
	for _, c := range cs {
		n += c.Tokens
	}
	return n
}

// costsJSON is the --format json form of the costs.
func costsJSON(c *plan.Costs) any {
	type cost struct {
		Name   string `json:"name"`
		Tokens int    `json:"tokens"`
	}
	list := func(cs []plan.Cost) []cost {
		out := make([]cost, len(cs))
		for i, x := range cs {
			out[i] = cost{x.Name, x.Tokens}
		}
		return out
	}
	return struct {
		Encoding      string `json:"encoding"`
		Tools         []cost `json:"tools"`
		Prompts       []cost `json:"prompts"`
		Templates     []cost `json:"resource_templates"`
		ToolsList     int    `json:"tools_list_tokens"`
		PromptsList   int    `json:"prompts_list_tokens"`
		TemplatesList int    `json:"resource_templates_list_tokens"`
		Total         int    `json:"total_tokens"`
	}{c.Encoding, list(c.Tools), list(c.Prompts), list(c.Templates), c.ToolsList, c.PromptsList, c.TemplatesList, c.Total()}
}
