package load

import (
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/spec/suggest"
	"gopkg.in/yaml.v3"
)

// scalarText expands environment references in a scalar and reports whether
// the value may be typed as YAML would type a plain scalar.
func (dc *decoder) scalarText(n *yaml.Node, at *place) (string, bool) {
	if dc.raw {
		return n.Value, false
	}
	s, refs, errs := expander{lookup: dc.lookup, readFile: dc.readFile, skip: dc.skipEnv}.expand(n.Value)
	for _, e := range errs {
		dc.d.AtOffset(Error, n, e.off, at.String(), e.msg, "")
	}
	if dc.unset != nil {
		// a value that misses a variable is not checked further: the
		// missing variable is reported, or was to be skipped (SkipEnv)
		if len(errs) > 0 {
			dc.unset[n] = true
		} else if dc.skipEnv && len(refs) > 0 { // refs do not depend on skipEnv
			dc.unset[n] = true
		}
	}
	if dc.secrets == nil || len(refs) == 0 {
		return s, n.Style == 0 && s != n.Value
	}
	path := at.String()
	cred := CredentialField(path) // only a value from the environment can be a secret
	pwFrom, pwTo := -1, -1
	if strings.HasSuffix(path, ".dsn") {
		pwFrom, pwTo = dsnPassword(s)
	}
	for _, r := range refs {
		dc.secrets.add(r.name, r.value, cred || r.file || r.from < pwTo && r.to > pwFrom)
		if !dc.secrets.secretRef(r) {
			continue
		}
		if !dc.server { // see Secrets: credentials stay out of what clients see
			dc.d.AtOffset(Error, n, r.off, path, fmt.Sprintf("${%s} looks like a secret, and this field is sent to clients", r.name),
				"use it in a handler or backend setting (headers, env, dsn), which clients never see")
		}
	}
	return s, n.Style == 0 && s != n.Value
}

func (dc *decoder) decodeScalar(n *yaml.Node, v reflect.Value, at *place) {
	if !dc.expectKind(n, yaml.ScalarNode, "a single value", at) {
		return
	}
	if isNull(n) {
		return
	}
	s, _ := dc.scalarText(n, at)
	fail := func(want string) {
		got := describe(n)
		if n.Tag == "!!str" || s != n.Value {
			got = fmt.Sprintf("%q", suggest.Truncate(s, 40))
		}
		dc.d.At(n, at.String(), fmt.Sprintf("expected %s, got %s", want, got), "")
	}
	switch t := v.Type(); {
	case t == durationType:
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			fail("a duration such as 500ms, 30s or 2m")
			return
		}
		v.SetInt(int64(d))
	case t == sizeType:
		size, ok := parseSize(s)
		if !ok {
			fail("a size such as 512, 64KiB or 4MiB")
			return
		}
		v.SetInt(size)
	case t.Kind() == reflect.String:
		v.SetString(s)
	case t.Kind() == reflect.Bool:
		b, ok := parseBool(s)
		if !ok || (n.Tag != "!!bool" && n.Style != 0 && s == n.Value) {
			fail("true or false")
			return
		}
		v.SetBool(b)
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
		if err != nil || v.OverflowInt(i) {
			fail("an integer")
			return
		}
		v.SetInt(i)
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
		i, err := strconv.ParseUint(strings.ReplaceAll(s, "_", ""), 0, 64)
		if err != nil || v.OverflowUint(i) {
			fail("a non-negative integer")
			return
		}
		v.SetUint(i)
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) {
			fail("a number")
			return
		}
		v.SetFloat(f)
	default:
		panic(fmt.Sprintf("mcpgen: decoding into %s is not supported", t))
	}
}

func parseBool(s string) (bool, bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

func parseSize(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, false
	}
	return n * mult, true
}

// toAny converts a node to plain Go values: map[string]any, []any, string,
// int64, float64, bool or nil, as YAML types them.
func (dc *decoder) toAny(n *yaml.Node, at *place) (any, bool) {
	n = Resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		var p place // outside the loop, or it moves to the heap (see place)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p = at.field(k.Value)
			if _, dup := m[k.Value]; dup {
				dc.d.At(k, p.String(), fmt.Sprintf("duplicate key %q", k.Value), "")
				continue
			}
			x, _ := dc.toAny(n.Content[i+1], &p)
			m[k.Value] = x
		}
		return m, true
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		var p place // outside the loop, or it moves to the heap (see place)
		for i, e := range n.Content {
			p = at.elem(i)
			s[i], _ = dc.toAny(e, &p)
		}
		return s, true
	}
	s, retype := dc.scalarText(n, at)
	tag := n.Tag
	if retype {
		tag = resolveTag(s)
	}
	return scalarAny(tag, s), true
}

// resolveTag types a plain scalar the way YAML 1.2's core schema does.
func resolveTag(s string) string {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.ScalarNode {
		return "!!str"
	}
	return n.Content[0].Tag
}

func scalarAny(tag, s string) any {
	switch tag {
	case "!!null":
		return nil
	case "!!bool":
		b, _ := parseBool(s)
		return b
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err == nil {
			return i
		}
	case "!!float":
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		switch strings.ToLower(s) {
		case ".inf", "+.inf":
			return math.Inf(1)
		case "-.inf":
			return math.Inf(-1)
		}
	case "!!binary":
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			return string(b)
		}
	}
	return s
}

// expandTree returns n with environment references expanded in every
// scalar, keeping positions: a copy of the nodes that change, and n's own
// nodes where nothing does (most of a large config, whose tree would
// otherwise be held twice).
func (dc *decoder) expandTree(n *yaml.Node, at *place) *yaml.Node {
	n = Resolve(n)
	switch n.Kind {
	case yaml.ScalarNode:
		s, retype := dc.scalarText(n, at)
		if s == n.Value && !retype && !dc.unset[n] {
			return n
		}
		c := *n
		c.Value = s
		if retype {
			c.Tag = resolveTag(s)
		}
		if dc.unset[n] {
			dc.unset[&c] = true
		}
		return &c
	case yaml.MappingNode, yaml.SequenceNode:
		if content := dc.expandContent(n, at); content != nil {
			c := *n
			c.Content = content
			return &c
		}
	}
	return n
}

// expandContent expands the children of a mapping or sequence; it returns
// nil when none changes.
func (dc *decoder) expandContent(n *yaml.Node, at *place) []*yaml.Node {
	var content []*yaml.Node
	var p place // outside the loop, or it moves to the heap (see place)
	for i, e := range n.Content {
		var x *yaml.Node
		switch {
		case n.Kind == yaml.MappingNode && i%2 == 0:
			x = Resolve(e)
		case n.Kind == yaml.MappingNode:
			p = at.field(n.Content[i-1].Value)
			x = dc.expandTree(e, &p)
		default:
			p = at.elem(i)
			x = dc.expandTree(e, &p)
		}
		if x != e && content == nil {
			content = make([]*yaml.Node, len(n.Content))
			copy(content, n.Content[:i])
		}
		if content != nil {
			content[i] = x
		}
	}
	return content
}
