package graphqlkind

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// Problem is a mistake in a GraphQL document, at a line and column (1-based,
// in characters; 0 when unknown).
type Problem struct {
	Line, Column int
	Msg          string
}

// CheckDocument parses a document of operations and fragments and
// validates it against schema. name is how messages call the document.
func CheckDocument(schema *ast.Schema, name, text string) (*ast.QueryDocument, []Problem) {
	doc, err := parser.ParseQuery(&ast.Source{Name: name, Input: text})
	if err != nil {
		var ge *gqlerror.Error
		if errors.As(err, &ge) {
			return nil, problems(gqlerror.List{ge})
		}
		return nil, []Problem{{Msg: err.Error()}}
	}
	if errs := validator.ValidateWithRules(schema, doc, nil); len(errs) > 0 {
		return nil, problems(errs)
	}
	return doc, nil
}

func problems(errs gqlerror.List) []Problem {
	out := make([]Problem, 0, len(errs))
	for _, e := range errs {
		p := Problem{Msg: e.Message}
		if len(e.Locations) > 0 {
			p.Line, p.Column = e.Locations[0].Line, e.Locations[0].Column
		}
		out = append(out, p)
	}
	return out
}

// operation is the checked operation of a tool.
type operation struct {
	text string // the document, sent whole so that its fragments come along
	name string // operationName; empty for a document's one anonymous operation
	def  *ast.OperationDefinition
	// field and at report a problem at a position of the document
	field string
	at    func(line, col int, msg string)
}

// loadOperation reads and checks the tool's operation, reporting problems
// at their position: inside the `document` text, or as file:line:col of
// the `file`. It returns nil after reporting.
func (c *Config) loadOperation(env handlers.BuildEnv, schema *ast.Schema) *operation {
	op := &operation{text: c.Document, field: "document"}
	op.at = func(line, col int, msg string) { env.DiagAt("document", offset(c.Document, line, col), msg) }
	if c.File != "" {
		data, err := regfile.Read(env.Path(c.File), 0)
		if err != nil {
			env.Diag("file", fmt.Sprintf("cannot read %s: %s", c.File, regfile.Message(err)))
			return nil
		}
		op.text, op.field = string(data), "file"
		op.at = func(line, col int, msg string) {
			env.Diag("file", fmt.Sprintf("%s:%d:%d: %s", c.File, line, col, msg))
		}
	}
	if schema == nil {
		return nil // no schema to check it against: reported already
	}
	doc, probs := CheckDocument(schema, c.File, op.text)
	for _, p := range probs {
		op.at(p.Line, p.Column, p.Msg)
	}
	if doc == nil {
		return nil
	}
	op.def = c.pick(env, doc)
	if op.def == nil {
		return nil
	}
	op.name = op.def.Name
	if op.def.Operation == ast.Subscription {
		op.at(op.def.Position.Line, op.def.Position.Column, "subscriptions are not supported: a tool call has one answer")
		return nil
	}
	return op
}

// pick selects the operation named by `operation`, or the document's only
// one.
func (c *Config) pick(env handlers.BuildEnv, doc *ast.QueryDocument) *ast.OperationDefinition {
	var names []string
	for _, o := range doc.Operations {
		names = append(names, o.Name)
		if c.Operation != "" && o.Name == c.Operation {
			return o
		}
	}
	switch {
	case len(doc.Operations) == 0:
		env.Diag(cmpField(c), "the document holds no operation, only fragments")
	case c.Operation != "":
		env.Diag("operation", fmt.Sprintf("the document has no operation %q%s", c.Operation,
			hint(suggest.DidYouMean(c.Operation, names))))
	case len(doc.Operations) > 1:
		env.Diag("operation", fmt.Sprintf("the document holds %d operations (%s): name the one to run",
			len(doc.Operations), strings.Join(names, ", ")))
	default:
		return doc.Operations[0]
	}
	return nil
}

func cmpField(c *Config) string {
	if c.File != "" {
		return "file"
	}
	return "document"
}

func hint(h string) string {
	if h == "" {
		return ""
	}
	return "; " + h
}

// offset is the byte offset in text of a 1-based line and column counted
// in characters, or -1 when the position is unknown.
func offset(text string, line, col int) int {
	if line < 1 || col < 1 {
		return -1
	}
	off := 0
	for range line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for range col - 1 {
		if off >= len(text) || text[off] == '\n' {
			break
		}
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	return off
}
