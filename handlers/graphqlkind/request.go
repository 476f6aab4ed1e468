package graphqlkind

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/httpkind"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"github.com/vektah/gqlparser/v2/ast"
	"gopkg.in/yaml.v3"
)

// dataVars types `data` in the result expression.
var dataVars = types.Map{"data": types.Any}

// checkVariables checks the `variables` mapping against the operation, and
// the variables it leaves to arguments of the same name against the tool's
// input schema: a missing argument, a type that cannot be sent, an
// optional argument for a required variable.
func (c *Config) checkVariables(env handlers.BuildEnv, p *prepared) {
	defs := p.op.def.VariableDefinitions
	var names []string
	for _, v := range defs {
		names = append(names, v.Variable)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Variables)) {
		v := c.Variables[name]
		if defs.ForName(name) == nil {
			env.Diag("variables."+name, fmt.Sprintf("the operation has no variable $%s%s", name, hint(suggest.DidYouMean(name, names))))
			continue
		}
		env.Compile("variables."+name, &v, nil) // reports mistakes where they are written
	}
	ti, ok := env.(handlers.ToolInput)
	if !ok || ti.ToolInputSchema() == nil {
		return
	}
	in := ti.ToolInputSchema()
	props, _ := in["properties"].(map[string]any)
	required, _ := in["required"].([]any)
	for _, v := range defs {
		if _, mapped := c.Variables[v.Variable]; mapped {
			continue
		}
		arg, has := props[v.Variable].(map[string]any)
		if msg := argProblem(p.schema, v, arg, has, slices.Contains(required, any(v.Variable))); msg != "" {
			p.op.at(v.Position.Line, v.Position.Column, msg)
		}
	}
}

// argProblem says why the argument named like variable v cannot be sent as
// its value, or returns "".
func argProblem(schema *ast.Schema, v *ast.VariableDefinition, arg map[string]any, has, required bool) string {
	if !has {
		return fmt.Sprintf("variable $%s takes the argument %q, which the tool does not declare; "+
			"declare it, or map the variable under variables", v.Variable, v.Variable)
	}
	if got, want := mismatch(schema, v.Type, arg); got != "" {
		return fmt.Sprintf("argument %q is of type %s, but $%s is %s, which takes %s",
			v.Variable, got, v.Variable, v.Type.String(), article(want))
	}
	if _, hasDefault := arg["default"]; v.Type.NonNull && v.DefaultValue == nil && !required && !hasDefault {
		return fmt.Sprintf("argument %q is optional, but $%s is %s: a call without it would fail; "+
			"make the argument required or give it a default", v.Variable, v.Variable, v.Type.String())
	}
	return ""
}

// request builds the http handler that sends the operation: a POST of
// {query, operationName, variables} through the backend's connection, or
// the tool's own. Every status is read, so that the GraphQL errors a 4xx
// response carries reach the model.
func (c *Config) request(env handlers.BuildEnv, p *prepared) handlers.Handler {
	hc := &httpkind.Config{Connection: c.Connection, Limits: c.Limits, Method: "POST",
		Headers: c.Headers, ForwardHeaders: c.ForwardHeaders,
		Body:       &httpkind.Body{JSON: spec.Value{Node: c.body(p.op)}},
		Idempotent: p.op.def.Operation == ast.Query, // a query changes nothing: retrying it is safe
		Success:    []string{"100-599"},
		Result:     spec.Value{Node: str("${{ response }}")},
		Text:       "-", // the result is rendered here, not there
	}
	var conn any
	if p.be != nil {
		conn = p.be.http
	}
	return hc.Build(&innerEnv{BuildEnv: env, conn: conn})
}

// body is the request body: the document, the operation's name and one
// entry per variable, from `variables` or the argument of its name.
func (c *Config) body(op *operation) *yaml.Node {
	vars := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, v := range op.def.VariableDefinitions {
		val, ok := c.Variables[v.Variable]
		n := val.Node
		if !ok || n == nil {
			n = str(fmt.Sprintf("${{ args[%q] }}", v.Variable))
		}
		vars.Content = append(vars.Content, str(v.Variable), n)
	}
	// the document is literal text: a ${{ inside it (in a string) is escaped
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{str("query"), str(strings.ReplaceAll(op.text, eval.Open, "$"+eval.Open))}}
	if op.name != "" {
		m.Content = append(m.Content, str("operationName"), str(op.name))
	}
	m.Content = append(m.Content, str("variables"), vars)
	return m
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// innerEnv is the BuildEnv of the http handler: the graphql backend's
// http connection stands in for the backend, and the tool's annotations
// are left out (this kind gives its own hints).
type innerEnv struct {
	handlers.BuildEnv
	conn any // nil: the tool has its own connection
}

// Backend returns the http connection of the graphql backend.
func (e *innerEnv) Backend(name string) (any, error) {
	if name == "" && e.conn != nil {
		return e.conn, nil
	}
	return e.BuildEnv.Backend(name)
}
