package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/handlers/graphqlkind"
	"github.com/spf13/cobra"
	"github.com/vektah/gqlparser/v2/ast"
	"gopkg.in/yaml.v3"
)

// graphqlFlags are the flags of `mcpgen import graphql`.
type graphqlFlags struct {
	opsDir   string
	out      string
	url      string
	tokenEnv string
	backend  string
}

// graphqlCommand declares `mcpgen import graphql`.
func graphqlCommand() *cobra.Command {
	var f graphqlFlags
	cmd := newCommand("graphql SCHEMA --operations DIR [-o FILE] [--url URL] [--token-env VAR]", "a GraphQL schema (SDL or introspection JSON) and a directory of operations",
		func(ctx context.Context, pos []string, std stdio) int { return runImportGraphQL(ctx, pos, std, &f) })
	fs := cmd.Flags()
	fs.StringVar(&f.opsDir, "operations", "", "directory of .graphql files holding the operations, one tool each (required)")
	fs.StringVarP(&f.out, "output", "o", "", "write the config to this file instead of standard output")
	fs.StringVar(&f.url, "url", "${GRAPHQL_URL}", "the API's endpoint, written as base_url")
	fs.StringVar(&f.tokenEnv, "token-env", "", "environment variable holding a bearer token, e.g. API_TOKEN")
	fs.StringVar(&f.backend, "backend", "api", "name of the backend the tools share")
	return cmd
}

func runImportGraphQL(ctx context.Context, pos []string, std stdio, f *graphqlFlags) int {
	switch {
	case len(pos) != 1:
		return usageError(std.err, "import graphql", "give one schema file (SDL or introspection JSON)")
	case f.opsDir == "":
		return usageError(std.err, "import graphql", "give --operations DIR, the directory of .graphql operations")
	}
	base := "."
	if f.out != "" {
		base = filepath.Dir(f.out)
	}
	g := &gqlImport{base: base, backend: f.backend}
	doc, err := g.config(pos[0], f.opsDir, f.url, f.tokenEnv)
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	for _, w := range g.warnings {
		fmt.Fprintf(std.err, "mcpgen: warning: %s\n", w)
	}
	if f.out == "" {
		std.out.Write(doc)
		return exitOK
	}
	if err := os.WriteFile(f.out, doc, 0o644); err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	fmt.Fprintf(std.err, "wrote %s: %d tools\n", f.out, g.tools)
	return exitOK
}

// gqlImport writes a config with one tool per GraphQL operation.
type gqlImport struct {
	base     string // directory the config is written to: its paths are relative to it
	backend  string
	schema   *ast.Schema
	names    map[string]bool
	tools    int
	warnings []string
}

// config reads the schema and the operations and returns the config.
func (g *gqlImport) config(schemaPath, opsDir, url, tokenEnv string) ([]byte, error) {
	var err error
	if g.schema, err = graphqlkind.LoadSchema(schemaPath, schemaPath); err != nil {
		return nil, err
	}
	be := mapping("kind", "graphql", "base_url", url, "schema", g.rel(schemaPath))
	if tokenEnv != "" {
		be.Content = append(be.Content, scalar("auth"), flow(mapping("bearer", "${"+tokenEnv+"}")))
	}
	tools := &yaml.Node{Kind: yaml.SequenceNode}
	files, err := graphqlFiles(opsDir)
	if err != nil {
		return nil, err
	}
	g.names = map[string]bool{}
	for _, f := range files {
		nodes, err := g.fileTools(f)
		if err != nil {
			return nil, err
		}
		tools.Content = append(tools.Content, nodes...)
	}
	if len(tools.Content) == 0 {
		return nil, fmt.Errorf("no query or mutation found in %s", opsDir)
	}
	root := mapping("version", "1")
	root.Content[1].Tag = "!!int"
	root.Content = append(root.Content, scalar("backends"), mapping(), scalar("tools"), tools)
	root.Content[3].Content = append(root.Content[3].Content, scalar(g.backend), be)
	root.HeadComment = fmt.Sprintf("Written by mcpgen import graphql from %s and the operations in %s.\n"+
		"Each tool's arguments come from its operation's variables.", filepath.ToSlash(schemaPath), filepath.ToSlash(opsDir))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// graphqlFiles lists the .graphql and .gql files under dir, sorted.
func graphqlFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".graphql" || ext == ".gql") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// fileTools returns one tool per query and mutation of a file.
func (g *gqlImport) fileTools(path string) ([]*yaml.Node, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, probs := graphqlkind.CheckDocument(g.schema, path, string(data))
	if len(probs) > 0 {
		p := probs[0]
		return nil, fmt.Errorf("%s:%d:%d: %s", path, p.Line, p.Column, p.Msg)
	}
	var out []*yaml.Node
	for _, op := range doc.Operations {
		if op.Operation == ast.Subscription {
			g.warnings = append(g.warnings, fmt.Sprintf("%s: subscription %s skipped: a tool call has one answer", path, op.Name))
			continue
		}
		if op.Name == "" && len(doc.Operations) > 1 {
			g.warnings = append(g.warnings, fmt.Sprintf("%s: an anonymous operation beside others skipped: name it", path))
			continue
		}
		out = append(out, g.tool(path, op, len(doc.Operations) > 1))
	}
	return out, nil
}

// tool is the config of one operation's tool.
func (g *gqlImport) tool(path string, op *ast.OperationDefinition, several bool) *yaml.Node {
	name := g.toolName(path, op)
	handler := mapping("backend", g.backend, "file", g.rel(path))
	if several {
		handler.Content = append(handler.Content, scalar("operation"), scalar(op.Name))
	}
	t := mapping("name", name, "description", g.describe(op))
	t.Content = append(t.Content, scalar("handler"), flow(handler))
	t.HeadComment = fmt.Sprintf("%s %s — %s", op.Operation, cmpOr(op.Name, "(anonymous)"), filepath.ToSlash(path))
	g.tools++
	return t
}

// toolName is the operation's name in snake_case (the file's name for an
// anonymous one), made unique.
func (g *gqlImport) toolName(path string, op *ast.OperationDefinition) string {
	base := op.Name
	if base == "" {
		base = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	name := snake(base)
	for i := 2; g.names[name]; i++ {
		name = fmt.Sprintf("%s_%d", snake(base), i)
	}
	g.names[name] = true
	return name
}

// describe is the operation's description, its comment, or the
// descriptions of the fields it selects.
func (g *gqlImport) describe(op *ast.OperationDefinition) string {
	if d := strings.TrimSpace(op.Description); d != "" {
		return d
	}
	if op.Comment != nil {
		var lines []string
		for _, c := range op.Comment.List {
			lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Text(), "#")))
		}
		if d := strings.TrimSpace(strings.Join(lines, " ")); d != "" {
			return d
		}
	}
	var parts []string
	root := g.schema.Query
	if op.Operation == ast.Mutation {
		root = g.schema.Mutation
	}
	for _, sel := range op.SelectionSet {
		if f, ok := sel.(*ast.Field); ok && root != nil {
			if def := root.Fields.ForName(f.Name); def != nil && strings.TrimSpace(def.Description) != "" {
				parts = append(parts, strings.TrimSpace(def.Description))
			}
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " ")
	}
	return fmt.Sprintf("Runs the GraphQL %s %s.", op.Operation, cmpOr(op.Name, "operation"))
}

// rel is path relative to the config's directory, with forward slashes.
func (g *gqlImport) rel(path string) string {
	abs, err1 := filepath.Abs(path)
	base, err2 := filepath.Abs(g.base)
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(base, abs); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(path)
}

// snake writes CamelCase and other names as snake_case of letters,
// digits and underscores.
func snake(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if b.Len() > 0 && prev != '_' && !unicode.IsUpper(prev) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		default:
			if b.Len() > 0 && prev != '_' {
				b.WriteByte('_')
			}
			r = '_'
		}
		prev = r
	}
	return cmpOr(strings.Trim(b.String(), "_"), "operation")
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// mapping is a block mapping of string keys and values.
func mapping(kv ...string) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, scalar(kv[i]), scalar(kv[i+1]))
	}
	return m
}

func flow(n *yaml.Node) *yaml.Node {
	n.Style = yaml.FlowStyle
	return n
}
