package build

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema dialects. A schema without $schema is 2020-12, MCP's default
// dialect since 2025-11-25 (SEP-1613); schemas that name an older draft are
// validated by its rules and served as written.
var dialects = []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft2019, jsonschema.Draft7,
	jsonschema.Draft6, jsonschema.Draft4}

// knownDialect reports whether uri names a dialect mcpgen validates by:
// one of dialects, by http: or https:, with or without an empty fragment.
func knownDialect(uri string) bool {
	bare := func(u string) string {
		u = strings.TrimSuffix(u, "#")
		if rest, ok := strings.CutPrefix(u, "http://"); ok {
			return rest
		}
		return strings.TrimPrefix(u, "https://")
	}
	for _, d := range dialects {
		if bare(uri) == bare(d.String()) {
			return true
		}
	}
	return false
}

// checkDialect reports a schema whose $schema names a dialect mcpgen
// cannot validate by, at that $schema; it returns false after reporting.
func (b *builder) checkDialect(f *load.File, path string, v *spec.Value, doc map[string]any) bool {
	raw, ok := doc["$schema"]
	if !ok {
		return true
	}
	if s, isString := raw.(string); isString && knownDialect(s) {
		return true
	}
	n, p := input.NodeAt(v.Node, path, []string{"$schema"})
	names := make([]string, len(dialects))
	for i, d := range dialects {
		names[i] = d.String()
	}
	d := b.reporter(f)
	d.At(n, p, fmt.Sprintf("unsupported JSON Schema dialect %v", quoteAny(raw)),
		"omit $schema for 2020-12, the default, or name one of "+strings.Join(names, ", "))
	return false
}

func quoteAny(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
