// Package rule reads the rules declared on config types by their struct
// tags, so that the loader's checks, the JSON Schema and the reference docs
// come from one declaration.
//
// A field joins a group of keys of which exactly one, or at most one, may be
// given, with an option of its `mcpgen` tag:
//
//	Text *string `yaml:"text,omitempty" mcpgen:"exactly_one=source"`
//	Blob string  `yaml:"blob,omitempty" mcpgen:"exactly_one=source"`
//	Args []*Arg  `yaml:"args,omitempty" mcpgen:"at_most_one=schema"`
//
// Groups are named per struct; fields of inlined structs belong to the
// struct that inlines them. Required fields and enumerations are declared
// with the `jsonschema` tag (`required`, `enum=a,enum=b`), which the schema
// generator reads as well.
package rule

import (
	"reflect"
	"strings"
)

// Group is a set of keys of one mapping of which exactly one (Exactly) or at
// most one may be given.
type Group struct {
	// Names are the YAML keys of the group, in declaration order.
	Names []string
	// Exactly is true when one key must be given, false when none may be.
	Exactly bool
}

// Message is the one wording of the group's rule, used wherever it is
// broken: "give exactly one of text, blob, file".
func (g Group) Message() string {
	how := "at most"
	if g.Exactly {
		how = "exactly"
	}
	return "give " + how + " one of " + strings.Join(g.Names, ", ")
}

// Found is the hint for a mapping that gives more of the group than
// allowed: "found text and file".
func Found(names []string) string {
	return "found " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Option returns the value of option key in a field's `mcpgen` tag, and
// whether the option is there (`server` has no value).
func Option(f reflect.StructField, key string) (string, bool) {
	for _, opt := range strings.Split(f.Tag.Get("mcpgen"), ",") {
		k, v, _ := strings.Cut(opt, "=")
		if k == key {
			return v, true
		}
	}
	return "", false
}

// Groups returns the groups declared on the fields of struct type t and of
// the structs it inlines, in the order their first fields are declared.
func Groups(t reflect.Type) []Group {
	var groups []Group
	index := map[string]int{} // "exactly_one=name" -> position in groups
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if strings.Contains(opts, "inline") {
				walk(f.Type)
				continue
			}
			for _, key := range []string{"exactly_one", "at_most_one"} {
				g, ok := Option(f, key)
				if !ok {
					continue
				}
				id := key + "=" + g
				if _, seen := index[id]; !seen {
					index[id] = len(groups)
					groups = append(groups, Group{Exactly: key == "exactly_one"})
				}
				groups[index[id]].Names = append(groups[index[id]].Names, name)
			}
		}
	}
	if t.Kind() == reflect.Struct {
		walk(t)
	}
	return groups
}
