package graphqlkind

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// LoadSchema reads the schema of an API from the file at path: SDL, or
// the JSON result of an introspection query (a file ending in .json, or
// starting with `{`). name is how messages call the file (the path as the
// config wrote it). `mcpgen import graphql` uses it too.
func LoadSchema(path, name string) (*ast.Schema, error) {
	data, err := regfile.Read(path, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s", name, regfile.Message(err))
	}
	if strings.EqualFold(filepath.Ext(path), ".json") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		sdl, err := introspectionSDL(data)
		if err != nil {
			return nil, fmt.Errorf("%s: not an introspection result: %w", name, err)
		}
		s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: sdl})
		if err != nil {
			return nil, fmt.Errorf("%s: the introspection result is not a valid schema: %s", name, messages(err))
		}
		return s, nil
	}
	s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: string(data)})
	if err != nil {
		return nil, errors.New(positioned(name, err))
	}
	return s, nil
}

// positioned writes a parser or validator error as file:line:col: message.
func positioned(name string, err error) string {
	var ge *gqlerror.Error
	if !errors.As(err, &ge) {
		return fmt.Sprintf("%s: %v", name, err)
	}
	if len(ge.Locations) == 0 {
		return fmt.Sprintf("%s: %s", name, ge.Message)
	}
	l := ge.Locations[0]
	return fmt.Sprintf("%s:%d:%d: %s", name, l.Line, l.Column, ge.Message)
}

// messages is the text of a GraphQL error without a position.
func messages(err error) string {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return ge.Message
	}
	return err.Error()
}
