package runtime

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

// schemaProblem is one reason a schema does not compile, at a location
// inside the schema (JSON pointer segments).
type schemaProblem struct {
	loc []string
	msg string
}

// schemaErrors are the problems of a schema that does not compile.
type schemaErrors []schemaProblem

func (es schemaErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = fmt.Sprintf("at /%s: %s", strings.Join(e.loc, "/"), e.msg)
	}
	return strings.Join(msgs, "; ")
}

// schemaCompileError turns a compiler error into schemaErrors: one problem
// per location the metaschema rejects (the first reason given there), or the
// location of a bad regular expression. Other errors become one line.
func schemaCompileError(err error, url string) error {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		var es schemaErrors
		seen := map[string]bool{}
		var walk func(e *jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				key := strings.Join(e.InstanceLocation, "/")
				if !seen[key] {
					seen[key] = true
					es = append(es, schemaProblem{loc: e.InstanceLocation, msg: e.ErrorKind.LocalizedString(printer)})
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
		return schemaErrors{{loc: pointerSegments(re.URL), msg: fmt.Sprintf("invalid regular expression %q: %v", re.Regex, re.Err)}}
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

// schemaNode finds the node at loc inside a schema written in YAML, and its
// diagnostic path below path; it stops at the deepest node it finds.
func schemaNode(n *yaml.Node, path string, loc []string) (*yaml.Node, string) {
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
