package openapi

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Operation is one method on one path of the description.
type Operation struct {
	// Method is upper case: GET, POST...
	Method string
	// Path is the path template as written: /pets/{petId}.
	Path string
	// ID is the operationId, if any.
	ID string
	// Tags group operations in the description.
	Tags []string
	// Summary is the operation's one-line summary.
	Summary string

	op   *openapi3.Operation
	item *openapi3.PathItem
}

// Key names the operation the way the comments of the config do: "GET
// /pets/{petId}".
func (o *Operation) Key() string { return o.Method + " " + o.Path }

// methods in the order a path's operations are listed.
var methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"}

// Operations lists the document's operations by path, then method.
func (d *Document) Operations() []*Operation {
	if d.T.Paths == nil {
		return nil
	}
	var ops []*Operation
	for _, path := range d.T.Paths.InMatchingOrder() {
		item := d.T.Paths.Value(path)
		for _, m := range methods {
			op := item.GetOperation(m)
			if op == nil {
				continue
			}
			ops = append(ops, &Operation{Method: m, Path: path, ID: op.OperationID,
				Tags: op.Tags, Summary: op.Summary, op: op, item: item})
		}
	}
	slices.SortStableFunc(ops, func(a, b *Operation) int { return strings.Compare(a.Path, b.Path) })
	return ops
}

// Filter selects operations. An empty list selects everything on its
// account; an operation must pass every list that is not empty.
type Filter struct {
	// Tags: the operation has one of these tags.
	Tags []string
	// Operations: globs over the operationId (and the tool name made from it).
	Operations []string
	// Paths: globs over the path template; `*` stays within a segment, `**`
	// crosses them.
	Paths []string
	// Methods: GET, POST... in any case.
	Methods []string
}

// Empty reports whether the filter selects everything.
func (f Filter) Empty() bool {
	return len(f.Tags)+len(f.Operations)+len(f.Paths)+len(f.Methods) == 0
}

// Select returns the operations the filter keeps, in order.
func (f Filter) Select(ops []*Operation) ([]*Operation, error) {
	opGlobs, err := compileGlobs(f.Operations)
	if err != nil {
		return nil, fmt.Errorf("--operations: %w", err)
	}
	pathGlobs, err := compileGlobs(f.Paths)
	if err != nil {
		return nil, fmt.Errorf("--paths: %w", err)
	}
	var kept []*Operation
	for _, o := range ops {
		switch {
		case len(f.Tags) > 0 && !slices.ContainsFunc(o.Tags, func(t string) bool { return containsFold(f.Tags, t) }):
		case len(f.Methods) > 0 && !containsFold(f.Methods, o.Method):
		case len(opGlobs) > 0 && !anyMatch(opGlobs, o.ID, toolName(o.ID, o.Method, o.Path)):
		case len(pathGlobs) > 0 && !anyMatch(pathGlobs, o.Path):
		default:
			kept = append(kept, o)
		}
	}
	return kept, nil
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(e string) bool { return strings.EqualFold(e, s) })
}

func anyMatch(globs []*regexp.Regexp, subjects ...string) bool {
	for _, g := range globs {
		for _, s := range subjects {
			if s != "" && g.MatchString(s) {
				return true
			}
		}
	}
	return false
}

// compileGlobs turns globs into anchored regular expressions: `**` matches
// anything, `*` anything but '/', `?` one character but '/'.
func compileGlobs(globs []string) ([]*regexp.Regexp, error) {
	var res []*regexp.Regexp
	for _, g := range globs {
		var b strings.Builder
		b.WriteString("^")
		for i := 0; i < len(g); i++ {
			switch {
			case strings.HasPrefix(g[i:], "**"):
				b.WriteString(".*")
				i++
			case g[i] == '*':
				b.WriteString("[^/]*")
			case g[i] == '?':
				b.WriteString("[^/]")
			default:
				b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			}
		}
		b.WriteString("$")
		re, err := regexp.Compile(b.String())
		if err != nil {
			return nil, fmt.Errorf("glob %q: %w", g, err)
		}
		res = append(res, re)
	}
	return res, nil
}
