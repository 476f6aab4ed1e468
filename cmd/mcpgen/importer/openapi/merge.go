package openapi

import (
	"bytes"
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Render writes a generated config as YAML: the text yaml.v3's encoder
// gives, written by the emitter of emit.go (TestEmitMatchesEncoder), which
// on a description with hundreds of operations is many times cheaper
// (BenchmarkImportGitHub).
func Render(doc *yaml.Node) ([]byte, error) {
	e := &emitter{buf: make([]byte, 0, 64<<10)}
	e.document(doc)
	if e.complex {
		return encode(doc)
	}
	return e.buf, e.err
}

// encode writes n with yaml.v3's encoder, indented by two.
func encode(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Existing is a config being merged into. It is edited as YAML nodes, so
// that everything already in it (the user's edits, comments, order) stays
// as it was.
type Existing struct {
	doc *yaml.Node
	// Names are the tool names the config has.
	Names []string
	// Sources are the operations its tools came from ("GET /pets"), read
	// from the comments above them.
	Sources map[string]bool
}

// ReadExisting parses a config to merge into.
func ReadExisting(data []byte) (*Existing, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not an mcpgen config: the top level is not a mapping")
	}
	e := &Existing{doc: &doc, Sources: map[string]bool{}}
	tools := get(doc.Content[0], "tools")
	if tools != nil && tools.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: tools is not a list", tools.Line)
	}
	if tools != nil {
		for _, t := range tools.Content {
			if name := get(t, "name"); name != nil {
				e.Names = append(e.Names, name.Value)
			}
			if src := SourceOf(t.HeadComment); src != "" {
				e.Sources[src] = true
			}
		}
	}
	return e, nil
}

// Has reports whether the config has a tool for o already: one whose
// comment names the operation, or one with the name it would get.
func (e *Existing) Has(o *Operation) bool {
	if e.Sources[o.Key()] {
		return true
	}
	name := toolName(o.ID, o.Method, o.Path)
	for _, n := range e.Names {
		if n == name {
			return true
		}
	}
	return false
}

// Add appends res's tools, and the backends they use that the config
// lacks; nothing already there changes. It returns the names of the tools
// added.
func (e *Existing) Add(res *Result) []string {
	root := e.doc.Content[0]
	backends := get(root, "backends")
	if backends == nil {
		backends = mapping()
		set(root, "backends", backends)
	}
	for i := 0; i+1 < len(res.Backends); i += 2 {
		if get(backends, res.Backends[i].Value) == nil {
			backends.Content = append(backends.Content, res.Backends[i], res.Backends[i+1])
		}
	}
	tools := get(root, "tools")
	if tools == nil {
		tools = sequence()
		set(root, "tools", tools)
	}
	var added []string
	for _, t := range res.Tools {
		tools.Content = append(tools.Content, t.Node)
		added = append(added, t.Name)
	}
	return added
}

// Bytes renders the merged config.
func (e *Existing) Bytes() ([]byte, error) { return encode(e.doc) }
