package graphqlkind

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The JSON result of an introspection query is converted to SDL text and
// loaded as SDL: gqlparser reads only SDL, and this keeps one path through
// its validator. Default values are GraphQL literals in both forms, so
// they are copied as they are.

type introSchema struct {
	QueryType        *introName  `json:"queryType"`
	MutationType     *introName  `json:"mutationType"`
	SubscriptionType *introName  `json:"subscriptionType"`
	Types            []introType `json:"types"`
}

type introName struct {
	Name string `json:"name"`
}

type introType struct {
	Kind          string       `json:"kind"`
	Name          string       `json:"name"`
	Description   string       `json:"description"`
	Fields        []introField `json:"fields"`
	InputFields   []introInput `json:"inputFields"`
	Interfaces    []introRef   `json:"interfaces"`
	PossibleTypes []introRef   `json:"possibleTypes"`
	EnumValues    []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"enumValues"`
}

type introField struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Args        []introInput `json:"args"`
	Type        introRef     `json:"type"`
}

type introInput struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Type         introRef `json:"type"`
	DefaultValue *string  `json:"defaultValue"`
}

type introRef struct {
	Kind   string    `json:"kind"`
	Name   string    `json:"name"`
	OfType *introRef `json:"ofType"`
}

// builtinScalars are defined by gqlparser's prelude.
var builtinScalars = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

// introspectionSDL converts an introspection result ({"data": {"__schema":
// ...}} or {"__schema": ...}) to SDL.
func introspectionSDL(data []byte) (string, error) {
	var doc struct {
		Data *struct {
			Schema *introSchema `json:"__schema"`
		} `json:"data"`
		Schema *introSchema `json:"__schema"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return "", err
	}
	s := doc.Schema
	if doc.Data != nil && doc.Data.Schema != nil {
		s = doc.Data.Schema
	}
	if s == nil || s.QueryType == nil {
		return "", errors.New("no __schema with a queryType")
	}
	var b strings.Builder
	b.WriteString("schema {\n")
	for _, op := range []struct {
		name string
		t    *introName
	}{{"query", s.QueryType}, {"mutation", s.MutationType}, {"subscription", s.SubscriptionType}} {
		if op.t != nil && op.t.Name != "" {
			fmt.Fprintf(&b, "  %s: %s\n", op.name, op.t.Name)
		}
	}
	b.WriteString("}\n")
	for _, t := range s.Types {
		if strings.HasPrefix(t.Name, "__") || builtinScalars[t.Name] {
			continue
		}
		if err := writeType(&b, &t); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

func writeType(b *strings.Builder, t *introType) error {
	description(b, "", t.Description)
	switch t.Kind {
	case "SCALAR":
		fmt.Fprintf(b, "scalar %s\n", t.Name)
	case "OBJECT", "INTERFACE":
		fmt.Fprintf(b, "%s %s%s {\n", map[string]string{"OBJECT": "type", "INTERFACE": "interface"}[t.Kind], t.Name, implements(t.Interfaces))
		for _, f := range t.Fields {
			description(b, "  ", f.Description)
			fmt.Fprintf(b, "  %s%s: %s\n", f.Name, arguments(f.Args), typeRef(f.Type))
		}
		b.WriteString("}\n")
	case "UNION":
		names := make([]string, len(t.PossibleTypes))
		for i, p := range t.PossibleTypes {
			names[i] = p.Name
		}
		fmt.Fprintf(b, "union %s = %s\n", t.Name, strings.Join(names, " | "))
	case "ENUM":
		fmt.Fprintf(b, "enum %s {\n", t.Name)
		for _, v := range t.EnumValues {
			description(b, "  ", v.Description)
			fmt.Fprintf(b, "  %s\n", v.Name)
		}
		b.WriteString("}\n")
	case "INPUT_OBJECT":
		fmt.Fprintf(b, "input %s {\n", t.Name)
		for _, f := range t.InputFields {
			description(b, "  ", f.Description)
			fmt.Fprintf(b, "  %s\n", inputValue(f))
		}
		b.WriteString("}\n")
	default:
		return fmt.Errorf("type %s has an unknown kind %q", t.Name, t.Kind)
	}
	return nil
}

func implements(refs []introRef) string {
	if len(refs) == 0 {
		return ""
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	return " implements " + strings.Join(names, " & ")
}

func arguments(args []introInput) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = quoted(a.Description) + inputValue(a)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func inputValue(a introInput) string {
	s := a.Name + ": " + typeRef(a.Type)
	if a.DefaultValue != nil {
		s += " = " + *a.DefaultValue
	}
	return s
}

func typeRef(r introRef) string {
	switch {
	case r.Kind == "NON_NULL" && r.OfType != nil:
		return typeRef(*r.OfType) + "!"
	case r.Kind == "LIST" && r.OfType != nil:
		return "[" + typeRef(*r.OfType) + "]"
	}
	return r.Name
}

// description writes a description as a string on its own line.
func description(b *strings.Builder, indent, text string) {
	if text != "" {
		b.WriteString(indent + quoted(text) + "\n")
	}
}

// quoted is text as a GraphQL string followed by a space, or nothing: JSON
// string escapes are GraphQL's.
func quoted(text string) string {
	if text == "" {
		return ""
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(text)
	return strings.TrimSpace(buf.String()) + " "
}
