package openapi

import (
	"cmp"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Options of a conversion.
type Options struct {
	// Name of the server and of its backends, and the prefix of the
	// environment variables (NAME_TOKEN). Defaults to a name made from the
	// description's title.
	Name string
	// Depth is how many $refs deep schemas are inlined; deeper ones are
	// described, not expanded. Defaults to 3.
	Depth int
	// Command is the command line that made the config, for its first
	// comment.
	Command string
}

// Result is a converted description.
type Result struct {
	// File is the config, a YAML document node.
	File *yaml.Node
	// Tools are the generated tools, in order.
	Tools []*Tool
	// Backends are the generated backends: name and node.
	Backends []*yaml.Node
	// Env lists the environment variables the config reads.
	Env []Env
}

// Tool is one generated tool.
type Tool struct {
	// Name of the tool.
	Name string
	// Operation it calls.
	Operation *Operation
	// Node is the tool's mapping.
	Node *yaml.Node
}

// builder holds the state of one conversion.
type builder struct {
	doc          *Document
	name         string
	schemas      schemas
	backends     []*backend
	backendKeys  []*yaml.Node
	backendNames names
	toolNames    names
	env          []Env
	authDone     bool
	authNode     *yaml.Node
	authNote     string
}

// Convert makes the config of the operations ops of doc. Tool names are
// unique, and differ from the names in taken (the tools of a config being
// merged into).
func Convert(doc *Document, ops []*Operation, opts Options, taken []string) *Result {
	b := &builder{doc: doc, name: opts.Name, backendNames: names{}, toolNames: names{}}
	if b.name == "" {
		b.name = DefaultName(doc)
	}
	b.schemas = schemas{depth: opts.Depth, done: map[doneKey]*yaml.Node{}}
	if b.schemas.depth <= 0 {
		b.schemas.depth = 3
	}
	for _, t := range taken {
		b.toolNames[t] = true
	}
	b.backendFor(nil) // the document's servers, in order, even if no tool uses them
	res := &Result{}
	for _, o := range ops {
		t := b.tool(o)
		res.Tools = append(res.Tools, t)
	}
	res.Env = b.env
	res.File = b.file(res, opts)
	return res
}

// DefaultName makes a server name from the description's title: its first
// three words that name something, lower-cased and joined by "_", "api"
// without such a word. A word is not split at its capitals (a brand such
// as GitHub or OpenAI is one word), and versions ("v3", "2.0"), a
// possessive "'s" and words every API title has ("REST", "API", "the")
// are left out: "GitHub v3 REST API" is github.
func DefaultName(doc *Document) string {
	title := ""
	if doc.T.Info != nil {
		title = doc.T.Info.Title
	}
	title = strings.NewReplacer("'s ", " ", "’s ", " ").Replace(title + " ")
	var words []string
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w = strings.ToLower(strings.Map(func(r rune) rune { // names are ASCII
			if r >= utf8.RuneSelf {
				return -1
			}
			return r
		}, w))
		if w == "" || titleNoise[w] || versionWord.MatchString(w) {
			continue
		}
		if words = append(words, w); len(words) == 3 {
			break
		}
	}
	if len(words) == 0 {
		return "api"
	}
	return strings.Join(words, "_")
}

// titleNoise are the words of API titles that name nothing in particular.
var titleNoise = map[string]bool{"api": true, "apis": true, "rest": true, "restful": true, "http": true,
	"openapi": true, "swagger": true, "the": true, "a": true, "an": true, "of": true, "for": true, "spec": true,
	"specification": true, "description": true}

// versionWord matches a version standing alone: v3, 2, 1.0 (split at its dots).
var versionWord = regexp.MustCompile(`^v?[0-9]+$`)

// file assembles the config document.
func (b *builder) file(res *Result, opts Options) *yaml.Node {
	root := mapping()
	root.HeadComment = b.header(opts)
	set(root, "version", value(1))
	server := mapping()
	set(server, "name", str(b.name))
	if info := b.doc.T.Info; info != nil {
		if info.Title != "" {
			set(server, "title", str(lit(trim(info.Title, 100))))
		}
		if info.Description != "" {
			set(server, "instructions", str(lit(trim(info.Description, 1000))))
		}
	}
	set(root, "server", server)
	backends := mapping()
	for i, be := range b.backends {
		backends.Content = append(backends.Content, b.backendKeys[i], be.node)
		res.Backends = append(res.Backends, b.backendKeys[i], be.node)
	}
	set(root, "backends", backends)
	tools := sequence()
	for _, t := range res.Tools {
		tools.Content = append(tools.Content, t.Node)
	}
	set(root, "tools", tools)
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
}

func (b *builder) header(opts Options) string {
	var lines []string
	title, version := "the API description", ""
	if info := b.doc.T.Info; info != nil {
		title, version = fmt.Sprintf("%q", info.Title), info.Version
	}
	what := "OpenAPI"
	if b.doc.Version == "2.0" {
		what = "Swagger"
	}
	lines = append(lines, fmt.Sprintf("Made from %s %s (%s %s) by `%s`.", title, version, what, b.doc.Version, cmp.Or(opts.Command, "mcpgen import openapi")))
	lines = append(lines, "Edit it freely: `mcpgen import openapi --merge` adds new operations and leaves the rest alone.")
	if len(b.env) > 0 {
		lines = append(lines, "", "Environment:")
		for _, e := range b.env {
			switch {
			case e.Secret:
				lines = append(lines, "  "+e.Name+" (secret)")
			case e.Default != "":
				lines = append(lines, "  "+e.Name+" (default "+e.Default+")")
			default:
				lines = append(lines, "  "+e.Name)
			}
		}
	}
	return strings.Join(lines, "\n")
}
