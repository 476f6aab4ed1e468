package input

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// Problem is one reason a schema does not compile, at a location inside
// the schema (JSON pointer segments).
type Problem struct {
	Loc []string
	Msg string
}

// Errors are the problems of a schema that does not compile, as Compile
// returns them when it can place them.
type Errors []Problem

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = fmt.Sprintf("at /%s: %s", strings.Join(e.Loc, "/"), e.Msg)
	}
	return strings.Join(msgs, "; ")
}

// schemaCompileError turns a compiler error into Errors: one problem
// per location the metaschema rejects (the first reason given there), or the
// location of a bad regular expression. Other errors become one line.
func schemaCompileError(err error, url string) error {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		var es Errors
		seen := map[string]bool{}
		var walk func(e *jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				key := strings.Join(e.InstanceLocation, "/")
				if !seen[key] {
					seen[key] = true
					es = append(es, Problem{Loc: e.InstanceLocation, Msg: e.ErrorKind.LocalizedString(printer)})
				}
			}
			for _, c := range e.Causes {
				walk(c)
			}
		}
		walk(ve)
		return es
	}
	var re *jsonschema.InvalidRegexError
	if errors.As(err, &re) {
		return Errors{{Loc: pointerSegments(re.URL), Msg: fmt.Sprintf("invalid regular expression %q: %v", re.Regex, re.Err)}}
	}
	msg := cleanSchemaError(err.Error(), url)
	return errors.New(strings.Join(strings.Fields(msg), " "))
}

// pointerSegments returns the JSON pointer after the # of u as segments.
func pointerSegments(u string) []string {
	_, frag, ok := strings.Cut(u, "#")
	if !ok || frag == "" || frag == "/" {
		return nil
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	segs := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return segs
}

// NodeAt finds the node at loc inside a schema written in YAML, and its
// diagnostic path below path; it stops at the deepest node it finds.
func NodeAt(n *yaml.Node, path string, loc []string) (*yaml.Node, string) {
	for _, seg := range loc {
		n = load.Resolve(n)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			next = load.Field(n, seg)
			path = load.JoinPath(path, seg)
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
			}
			path = fmt.Sprintf("%s[%s]", path, seg)
		}
		if next == nil {
			return n, path
		}
		n = next
	}
	return n, path
}

// cleanSchemaError takes the compiler's name of a schema out of its message.
func cleanSchemaError(msg, url string) string {
	msg = strings.ReplaceAll(msg, url+"#", "")
	msg = strings.ReplaceAll(msg, url, "")
	return strings.ReplaceAll(msg, "jsonschema: ", "")
}
