package tokens

import (
	"encoding/json"
	"runtime"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/toolsearch"
)

// Costs counts the tokens of what clients list of p: each tool as
// tools/list sends it, each prompt and resource template, and the lists' totals.
func Costs(p *plan.Plan) *plan.Costs {
	c := &plan.Costs{Encoding: Encoding}
	var schemas sync.Map // raw JSON -> tokens: imported tools repeat schemas
	c.Tools = countAll(p.Tools, func(t *plan.Tool) (string, int) { return t.Def.Name, toolTokens(t.Def, &schemas) })
	c.Prompts = countAll(p.Prompts, func(p *plan.Prompt) (string, int) { return p.Def.Name, jsonTokens(p.Def) })
	c.Templates = countAll(p.Templates, func(r *plan.Resource) (string, int) { return r.Tmpl.Name, jsonTokens(r.Tmpl) })
	c.ToolsList, c.PromptsList, c.TemplatesList = sum(c.Tools), sum(c.Prompts), sum(c.Templates)
	if p.ToolSearch {
		// tools/list lists the search tools and the tools marked always
		c.ToolsList = 0
		for _, d := range toolsearch.Tools {
			c.ToolsList += jsonTokens(d)
		}
		for i, t := range p.Tools {
			if t.Always {
				c.ToolsList += c.Tools[i].Tokens
			}
		}
	}
	c.Listed = len(c.Tools)
	if p.ToolSearch {
		c.Listed = len(toolsearch.Tools)
		for _, t := range p.Tools {
			if t.Always {
				c.Listed++
			}
		}
	}
	return c
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
			k := Count(string(raw))
			schemas.Store(string(raw), k)
			n += k
		} else if s != nil {
			n += jsonTokens(s)
		}
	}
	if def.OutputSchema != nil {
		n += Count(`,"outputSchema":`)
	}
	return n
}

// jsonTokens counts the tokens of v's JSON.
func jsonTokens(v any) int {
	raw, _ := json.Marshal(v)
	return Count(string(raw))
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
