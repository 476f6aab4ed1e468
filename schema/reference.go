package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/mcpgen/mcpgen/spec"
	"slices"
	"strings"
)

// node is the part of a JSON Schema the reference reads.
type node struct {
	Ref         string           `json:"$ref"`
	Type        any              `json:"type"`
	Description string           `json:"description"`
	Properties  orderedProps     `json:"properties"`
	Required    []string         `json:"required"`
	Items       *node            `json:"items"`
	AdditionalP *json.RawMessage `json:"additionalProperties"`
	AnyOf       []*node          `json:"anyOf"`
	AllOf       []*node          `json:"allOf"`
	Not         *node            `json:"not"`
	OneOf       []*node          `json:"oneOf"`
	Enum        []any            `json:"enum"`
	Pattern     string           `json:"pattern"`
}

// UnmarshalJSON accepts the boolean schemas true and false as "any".
func (n *node) UnmarshalJSON(b []byte) error {
	if s := string(bytes.TrimSpace(b)); s == "true" || s == "false" {
		return nil
	}
	type plain node
	return json.Unmarshal(b, (*plain)(n))
}

// orderedProps keeps properties in the order the schema lists them, which
// is the order of the Go struct fields.
type orderedProps struct {
	names []string
	nodes map[string]*node
}

func (o *orderedProps) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.nodes); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		o.names = append(o.names, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return nil
}

// Reference renders the schema as a Markdown reference of every field.
func Reference(schemaJSON []byte) ([]byte, error) {
	var root node
	var defs struct {
		Defs map[string]*node `json:"$defs"`
	}
	if err := json.Unmarshal(schemaJSON, &root); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(schemaJSON, &defs); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Config reference\n\n")
	b.WriteString("Every field of an mcpgen config file. Generated from the Go types by `go generate ./schema`;\n")
	b.WriteString("edit the doc comments in `spec/` and `handlers/`, not this file.\n\n")
	b.WriteString("Fields that take a number, a boolean or one of a fixed set of words also accept `${VAR}`.\n\n")
	b.WriteString("## The file\n\n")
	table(&b, &root)
	for _, name := range defOrder(defs.Defs) {
		d := defs.Defs[name]
		if len(d.Properties.names) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n", title(name))
		if d.Description != "" {
			b.WriteString(oneParagraph(d.Description) + "\n\n")
		}
		for _, r := range groupRules(d) {
			b.WriteString(r + "\n\n")
		}
		table(&b, d)
	}
	return b.Bytes(), nil
}

// defOrder lists the config's own types in reading order, then each kind's.
func defOrder(defs map[string]*node) []string {
	first := []string{"Server", "Tool", "Arg", "Annotations", "Content", "Binary", "Embedded", "Link",
		"Prompt", "PromptArg", "Message", "Resource", "ResourceTemplate", "Backend", "Handler"}
	var order []string
	for _, n := range first {
		if defs[n] != nil {
			order = append(order, n)
		}
	}
	var rest []string
	for n := range defs {
		if !slices.Contains(first, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(order, rest...)
}

// title names a definition: "shell.Config" is "Kind shell: handler".
func title(def string) string {
	kind, typ, ok := strings.Cut(def, ".")
	if !ok {
		return "<a id=\"" + strings.ToLower(def) + "\"></a>" + def
	}
	what := map[string]string{"Config": "tool handler", "Backend": "shared backend"}[typ]
	if what == "" {
		what = typ
	}
	return fmt.Sprintf("<a id=\"%s\"></a>Kind `%s`: %s", anchor(def), kind, what)
}

func anchor(def string) string { return strings.ToLower(strings.ReplaceAll(def, ".", "-")) }

func table(b *bytes.Buffer, d *node) {
	b.WriteString("| field | type | description |\n|---|---|---|\n")
	for _, name := range d.Properties.names {
		p := d.Properties.nodes[name]
		field := "`" + name + "`"
		if slices.Contains(d.Required, name) {
			field += " (required)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", field, typeOf(p), cell(p.Description))
	}
	b.WriteString("\n")
}

// typeOf describes a property's type, leaving out the ${VAR} alternative.
func typeOf(p *node) string {
	if p == nil {
		return "any"
	}
	if p.Ref != "" {
		def := strings.TrimPrefix(p.Ref, "#/$defs/")
		switch def {
		case "Duration":
			return "duration"
		case "Size":
			return "size"
		case "Rate":
			return "rate"
		case "ClaimType":
			return "one of `" + strings.Join(spec.ClaimTypes, "`, `") + "`"
		case "Value":
			return "any"
		case "EnvRef":
			return ""
		}
		return fmt.Sprintf("[%s](#%s)", def, anchor(def))
	}
	var alts []string
	for _, a := range append(p.AnyOf, p.OneOf...) {
		if t := typeOf(a); t != "" && !slices.Contains(alts, t) {
			alts = append(alts, t)
		}
	}
	if len(alts) > 0 {
		return strings.Join(alts, " or ")
	}
	if len(p.Enum) > 0 {
		var vs []string
		for _, e := range p.Enum {
			vs = append(vs, fmt.Sprintf("`%v`", e))
		}
		return "one of " + strings.Join(vs, ", ")
	}
	switch t, _ := p.Type.(string); t {
	case "array":
		return "list of " + typeOf(p.Items)
	case "object":
		if p.AdditionalP != nil {
			var ap node
			if json.Unmarshal(*p.AdditionalP, &ap) == nil && (ap.Ref != "" || ap.Type != nil) {
				return "map of " + typeOf(&ap)
			}
		}
		return "mapping"
	case "":
		return "any"
	default:
		return t
	}
}

func oneParagraph(s string) string { return strings.Join(strings.Fields(s), " ") }

func cell(s string) string {
	return strings.ReplaceAll(oneParagraph(s), "|", `\|`)
}
