package build

import (
	"cmp"
	"fmt"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
)

// unbound returns the arguments a client passes: those without `from`.
func unbound(args []*spec.Arg) []*spec.Arg {
	var out []*spec.Arg
	for _, a := range args {
		if a == nil || a.From == "" {
			out = append(out, a)
		}
	}
	return out
}

// boundArgs compiles the `from` of a tool's bound arguments and adds their
// types to argsType, so that handler expressions read them as `args.NAME`.
func (b *builder) boundArgs(f *load.File, path string, t *spec.Tool, argsType types.Type) []plan.BoundArg {
	var out []plan.BoundArg
	for i, a := range t.Args {
		if a == nil || a.From == "" {
			continue
		}
		p := fmt.Sprintf("%s.args[%d]", path, i)
		b.boundOnly(f, p, a)
		v, errs := eval.CompileExpr(f.Node(p+".from"), types.Map{plan.AuthName: b.identity.Type}, evalOptions(f, p+".from"))
		for _, e := range errs {
			d := b.reporter(f)
			d.AtOffset(load.Error, e.Node, e.Offset, p+".from", e.Msg, e.Hint)
		}
		if len(errs) > 0 {
			continue
		}
		b.readsAuth(f, p+".from", v)
		if m, ok := argsType.(types.Map); ok {
			m[a.Name] = eval.TypeOf(map[string]any{"type": cmp.Or(a.Type, "string")})
		}
		out = append(out, plan.BoundArg{Name: a.Name, Type: a.Type, Required: a.Required, From: v})
	}
	return out
}

// boundOnly reports the settings that mean nothing on a bound argument:
// they constrain what a client passes, and no client passes it.
func (b *builder) boundOnly(f *load.File, path string, a *spec.Arg) {
	for _, s := range []struct {
		key string
		set bool
	}{{"default", a.Default != nil}, {"enum", a.Enum != nil}, {"minimum", a.Minimum != nil},
		{"maximum", a.Maximum != nil}, {"min_length", a.MinLength != nil}, {"max_length", a.MaxLength != nil},
		{"pattern", a.Pattern != ""}, {"items", a.Items != ""}} {
		if s.set {
			b.errorf(f, path+"."+s.key, "%s does not apply to an argument bound with from; only name, type, description and required do", s.key)
		}
	}
}

// boundNames lists the names of the bound arguments.
func boundNames(bound []plan.BoundArg) []string {
	var out []string
	for _, a := range bound {
		out = append(out, a.Name)
	}
	return out
}
