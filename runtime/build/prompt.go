package build

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
)

func (b *builder) prompts(f *load.File) {
	b.plan.Prompts = append(b.plan.Prompts, entries(b, f, "prompts", "empty prompt", f.Config.Prompts,
		func(_ int, path string, p *spec.Prompt) *plan.Prompt { return b.prompt(f, path, p) })...)
}

func (b *builder) prompt(f *load.File, path string, p *spec.Prompt) *plan.Prompt {
	before := b.ds.Errors()
	b.named(f, path, "prompt", p.Name)
	pr := &plan.Prompt{Def: &mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description,
		Icons: b.icons(f, path+".icons", p.Icons)}, Args: p.Arguments, Scopes: p.Scopes,
		CacheCfg: p.CacheHint}
	b.scopeList(f, path+".scopes", p.Scopes)
	var names []string
	for i, a := range p.Arguments {
		if a == nil {
			b.errorf(f, fmt.Sprintf("%s.arguments[%d]", path, i), "empty argument; give at least its name")
			continue
		}
		if slices.Contains(names, a.Name) {
			b.errorf(f, fmt.Sprintf("%s.arguments[%d].name", path, i), "argument %q is declared twice", a.Name)
		}
		names = append(names, a.Name)
		pr.Def.Arguments = append(pr.Def.Arguments, &mcp.PromptArgument{Name: a.Name, Title: a.Title,
			Description: a.Description, Required: a.Required})
		b.promptCompleter(f, fmt.Sprintf("%s.arguments[%d]", path, i), pr, a)
	}
	roots := map[string][]string{"args": names}
	pr.Steps = b.askingSteps(f, path, "prompt", p.Steps, roots)
	for i, m := range p.Messages {
		mp := fmt.Sprintf("%s.messages[%d]", path, i)
		if m == nil {
			continue // reported when the file loaded
		}
		pr.Roles = append(pr.Roles, mcp.Role(cmp.Or(m.Role, "user"))) // the loader checked the role
		if blk := b.block(f, mp, &m.Content, roots); blk != nil {
			pr.Messages = append(pr.Messages, blk)
		}
	}
	if len(p.Messages) == 0 && f.Given(path+".messages") {
		b.errorf(f, path+".messages", "a prompt needs at least one message")
	}
	if b.ds.Errors() > before {
		return nil
	}
	return pr
}

// promptCompleter builds the complete_from handler of argument a.
func (b *builder) promptCompleter(f *load.File, path string, pr *plan.Prompt, a *spec.PromptArg) {
	if a.CompleteFrom == nil {
		return
	}
	if a.Complete != nil {
		return // reported when the file loaded
	}
	if h := b.completer(f, path+".complete_from", a.CompleteFrom); h != nil {
		if pr.Completers == nil {
			pr.Completers = map[string]handlers.Handler{}
		}
		pr.Completers[a.Name] = h
	}
}

// completeArgs types the `args` of a completion handler: the text typed so
// far and the other arguments already given.
var completeArgs = types.Map{"value": types.String, "context": types.Map{types.Extra: types.String}}

// completer builds the handler at path that lists completion values.
func (b *builder) completer(f *load.File, path string, h *spec.Handler) handlers.Handler {
	return b.buildHandler(f, path, h, completeArgs, nil, nil)
}
