package load

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/rule"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"gopkg.in/yaml.v3"
)

// decoder fills Go values from YAML nodes strictly: unknown and duplicate
// keys, wrong types and missing required fields are diagnostics, and
// environment references in scalars are expanded first.
type decoder struct {
	d      Reporter
	lookup LookupEnv
	// readFile reads the files of ${file:PATH}; nil reads none
	readFile func(path string) (string, error)
	skipEnv  bool     // leave unset variables and missing files alone (validate on CI machines)
	secrets  *Secrets // receives the values taken from the environment
	raw      bool     // scalars were expanded already: take them as they are
	// unset holds the scalars that referred to a variable skipped as unset
	// (SkipEnv): an empty value there is expected, not a mistake.
	unset map[*yaml.Node]bool
	// server is set while decoding what stays on the server (handlers,
	// backends, file paths): elsewhere, values go to clients as they are,
	// and a secret from the environment is refused.
	server bool
}

var (
	valueType    = reflect.TypeFor[spec.Value]()
	nodeType     = reflect.TypeFor[*yaml.Node]()
	handlerType  = reflect.TypeFor[spec.Handler]()
	durationType = reflect.TypeFor[spec.Duration]()
	sizeType     = reflect.TypeFor[spec.Size]()
)

// place is the diagnostic path of a node being decoded (tools[1].handler),
// kept as the place of its parent and its last step: a mapping key or a
// list index. It is written out only when it is needed (String), by a
// diagnostic or a setting read by its field's name, which most nodes of a
// config never are.
//
// Places live on the stack, each in the frame that decodes its node: the
// variable of a step is declared outside its loop, as escape analysis
// moves a variable declared in a loop whose address reaches a recursive
// call to the heap; and String copies the keys instead of returning one.
type place struct {
	parent *place
	key    string // a mapping key when index < 0; at the root, the whole path
	index  int
}

// rootPlace is the place of the node a decoding starts from.
func rootPlace(path string) *place { return &place{key: path, index: -1} }

// field is the place of the value of key in the mapping at p.
func (p *place) field(key string) place { return place{parent: p, key: key, index: -1} }

// elem is the place of element i of the list at p.
func (p *place) elem(i int) place { return place{parent: p, index: i} }

// String writes the path out: tools[1].handler.
func (p *place) String() string { return string(p.appendTo(nil)) }

func (p *place) appendTo(b []byte) []byte {
	switch {
	case p.parent == nil:
		return append(b, p.key...)
	case p.index >= 0:
		b = p.parent.appendTo(b)
		return append(strconv.AppendInt(append(b, '['), int64(p.index), 10), ']')
	}
	b = p.parent.appendTo(b)
	if len(b) > 0 {
		b = append(b, '.')
	}
	return append(b, p.key...)
}

// decode fills v from n; at names n in diagnostics.
func (dc *decoder) decode(n *yaml.Node, v reflect.Value, at *place) {
	n = Resolve(n)
	if n == nil {
		return
	}
	t := v.Type()
	switch {
	case t == valueType:
		v.Set(reflect.ValueOf(spec.Value{Node: dc.expandTree(n, at)}))
		return
	case t == nodeType:
		v.Set(reflect.ValueOf(dc.expandTree(n, at)))
		return
	case t == handlerType:
		dc.decodeHandler(n, v, at)
		return
	}
	if t.Kind() == reflect.Pointer {
		if isNull(n) {
			return
		}
		p := reflect.New(t.Elem())
		dc.decode(n, p.Elem(), at)
		v.Set(p)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		dc.decodeStruct(n, v, at)
	case reflect.Slice:
		dc.decodeSlice(n, v, at)
	case reflect.Map:
		dc.decodeMap(n, v, at)
	case reflect.Interface:
		if x, ok := dc.toAny(n, at); ok {
			if x != nil {
				v.Set(reflect.ValueOf(x))
			}
		}
	default:
		dc.decodeScalar(n, v, at)
	}
}

// Resolve follows aliases and documents to the node they stand for; it
// returns nil for an empty document.
func Resolve(n *yaml.Node) *yaml.Node {
	for n != nil && (n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode) {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) > 0 {
			n = n.Content[0]
		} else {
			return nil
		}
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// describe names a node's YAML type for "expected X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!null":
		return "nothing (null)"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	}
	return fmt.Sprintf("the string %q", suggest.Truncate(n.Value, 40))
}

// expectKind reports a diagnostic unless n has kind k.
func (dc *decoder) expectKind(n *yaml.Node, k yaml.Kind, want string, at *place) bool {
	if n.Kind == k {
		return true
	}
	if k != yaml.ScalarNode && isNull(n) {
		return false // an empty section: nothing to decode
	}
	dc.d.At(n, at.String(), fmt.Sprintf("expected %s, got %s", want, describe(n)), "")
	return false
}

// fieldInfo is one YAML key of a struct, possibly reached through inlined
// structs.
type fieldInfo struct {
	index    []int
	required bool
	enum     []string // allowed values of a string field
	server   bool     // tagged mcpgen:"server": never sent to clients
}

// structInfo is the YAML keys of a struct type, in declaration order, and
// the groups of them declared exclusive.
type structInfo struct {
	fields   map[string]fieldInfo
	order    []string
	required []string // the required keys, in order
	groups   []rule.Group
}

var structCache sync.Map // reflect.Type -> *structInfo; derived from types, never changes

func structFields(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	fields, order := reflectFields(t)
	si := &structInfo{fields: fields, order: order, groups: rule.Groups(t)}
	for _, name := range order {
		if fields[name].required {
			si.required = append(si.required, name)
		}
	}
	structCache.Store(t, si)
	return si
}

func reflectFields(t reflect.Type) (map[string]fieldInfo, []string) {
	fields := map[string]fieldInfo{}
	var order []string
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			idx := append(append([]int(nil), prefix...), i)
			if strings.Contains(opts, "inline") {
				walk(f.Type, idx)
				continue
			}
			_, server := rule.Option(f, "server")
			info := fieldInfo{index: idx, server: server}
			for _, opt := range strings.Split(f.Tag.Get("jsonschema"), ",") {
				if opt == "required" {
					info.required = true
				} else if v, ok := strings.CutPrefix(opt, "enum="); ok && f.Type.Kind() == reflect.String {
					info.enum = append(info.enum, v)
				}
			}
			fields[name] = info
			order = append(order, name)
		}
	}
	walk(t, nil)
	return fields, order
}

func (dc *decoder) decodeStruct(n *yaml.Node, v reflect.Value, at *place) {
	if !dc.expectKind(n, yaml.MappingNode, "a mapping", at) {
		return
	}
	si := structFields(v.Type())
	fields, order := si.fields, si.order
	seen := newKeyIndex(n)
	var p place // outside the loop, or it moves to the heap (see place)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if isMerge(k) {
			dc.d.At(k, at.String(), "merge keys (<<) are not supported", "repeat the keys or use an anchor for the whole value")
			continue
		}
		p = at.field(k.Value)
		if prev := seen.first(k.Value, i); prev != nil {
			dc.d.At(k, p.String(), fmt.Sprintf("duplicate key %q", k.Value), fmt.Sprintf("first defined at line %d", prev.Line))
			continue
		}
		seen.add(k)
		f, ok := fields[k.Value]
		if !ok {
			dc.d.At(k, at.String(), fmt.Sprintf("unknown field %q", k.Value), suggest.DidYouMean(k.Value, order))
			continue
		}
		fv := v.FieldByIndex(f.index)
		if f.server && !dc.server {
			dc.server = true
			dc.decode(val, fv, &p)
			dc.server = false
		} else {
			dc.decode(val, fv, &p)
		}
		if f.required && fv.Kind() == reflect.String && fv.String() == "" && val.Kind == yaml.ScalarNode &&
			!dc.unset[Resolve(val)] {
			dc.d.At(val, p.String(), fmt.Sprintf("%q must not be empty", k.Value), "")
		}
		if f.enum != nil { // only string fields have one: fv.String() renders others
			if s := fv.String(); s != "" && !slices.Contains(f.enum, s) {
				dc.d.At(val, p.String(), fmt.Sprintf("expected one of %s, got %q", strings.Join(f.enum, ", "), s),
					suggest.DidYouMean(s, f.enum))
			}
		}
	}
	for _, name := range si.required {
		if seen.first(name, len(n.Content)) == nil {
			dc.d.At(n, at.String(), fmt.Sprintf("missing required field %q", name), "")
		}
	}
	dc.checkGroups(n, si.groups, at)
}

func isMerge(k *yaml.Node) bool { return k.Value == "<<" && k.Tag == "!!merge" }

// keyIndex finds the first key of a mapping with a given text, merge keys
// aside: by looking back over the keys while the mapping is small, as most
// are, and in a map past that.
type keyIndex struct {
	n     *yaml.Node
	byKey map[string]*yaml.Node // nil for a small mapping
}

// smallMapping is the number of keys up to which keyIndex looks back.
const smallMapping = 16

func newKeyIndex(n *yaml.Node) keyIndex {
	if len(n.Content) <= 2*smallMapping {
		return keyIndex{n: n}
	}
	return keyIndex{n: n, byKey: map[string]*yaml.Node{}}
}

// add records k, a key that first returned nil for.
func (ki keyIndex) add(k *yaml.Node) {
	if ki.byKey != nil {
		ki.byKey[k.Value] = k
	}
}

// first returns the first key named key among the mapping's keys before
// position end (of its Content) that were added, or nil.
func (ki keyIndex) first(key string, end int) *yaml.Node {
	if ki.byKey != nil {
		return ki.byKey[key]
	}
	for i := 0; i < end && i+1 < len(ki.n.Content); i += 2 {
		if k := ki.n.Content[i]; k.Value == key && !isMerge(k) {
			return k
		}
	}
	return nil
}

// checkGroups reports a mapping that gives none of a group of which it
// needs exactly one, or more than one key of a group; a key whose value is
// null counts as not given.
func (dc *decoder) checkGroups(n *yaml.Node, groups []rule.Group, at *place) {
	for _, g := range groups {
		var given []string
		var keys []*yaml.Node
		for _, name := range g.Names {
			if k := keyNode(n, name); k != nil && !isNull(Resolve(Field(n, name))) {
				given, keys = append(given, name), append(keys, k)
			}
		}
		switch {
		case len(given) > 1:
			// point at the second key as written: the first one too many
			slices.SortFunc(keys, func(a, b *yaml.Node) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
			dc.d.At(keys[1], JoinPath(at.String(), keys[1].Value), g.Message(), rule.Found(given))
		case len(given) == 0 && g.Exactly:
			dc.d.At(n, at.String(), g.Message(), "")
		}
	}
}

// nullElement reports a list element left empty where its type needs one
// key of a group and nothing else (a content block, a step); the builder
// reports other empty elements with what they need most.
func (dc *decoder) nullElement(n *yaml.Node, t reflect.Type, at *place) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	si := structFields(t)
	for _, f := range si.fields {
		if f.required {
			return
		}
	}
	for _, g := range si.groups {
		if g.Exactly {
			dc.d.At(n, at.String(), g.Message(), "")
		}
	}
}

// JoinPath appends key to a diagnostic path such as tools[1].handler.
func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// IndexPath appends an index to a diagnostic path: tools[1]. It is
// fmt.Sprintf("%s[%d]", path, i), which costs more for every list element
// of a config.
func IndexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func (dc *decoder) decodeSlice(n *yaml.Node, v reflect.Value, at *place) {
	if !dc.expectKind(n, yaml.SequenceNode, "a list", at) {
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	var p place // outside the loop, or it moves to the heap (see place)
	for i, e := range n.Content {
		p = at.elem(i)
		if isNull(Resolve(e)) {
			dc.nullElement(e, v.Type().Elem(), &p)
		}
		dc.decode(e, s.Index(i), &p)
	}
	v.Set(s)
}

func (dc *decoder) decodeMap(n *yaml.Node, v reflect.Value, at *place) {
	if !dc.expectKind(n, yaml.MappingNode, "a mapping", at) {
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	seen := map[string]*yaml.Node{}
	var p place // outside the loop, or it moves to the heap (see place)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		p = at.field(k.Value)
		if prev, dup := seen[k.Value]; dup {
			dc.d.At(k, p.String(), fmt.Sprintf("duplicate key %q", k.Value), fmt.Sprintf("first defined at line %d", prev.Line))
			continue
		}
		seen[k.Value] = k
		e := reflect.New(v.Type().Elem()).Elem()
		dc.decode(val, e, &p)
		m.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), e)
	}
	v.Set(m)
}

// backendKeys are the keys of a named backend that mcpgen reads itself,
// whatever the backend's kind.
var backendKeys = []string{"readiness", "concurrency"}

// isBackendPath reports whether path is an entry of the top-level
// `backends` (where backendKeys are read), not a tool's handler.
func isBackendPath(path string) bool {
	return strings.HasPrefix(path, "backends.")
}

// decodeHandler reads kind and backend and keeps the whole mapping for the
// kind to decode when the config is built.
func (dc *decoder) decodeHandler(n *yaml.Node, v reflect.Value, at *place) {
	if !dc.expectKind(n, yaml.MappingNode, "a mapping", at) {
		return
	}
	server := dc.server
	dc.server = true // a handler's settings never reach clients
	n = dc.expandTree(n, at)
	dc.server = server
	h := spec.Handler{Body: n}
	var p place // outside the loop, or it moves to the heap (see place)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], Resolve(n.Content[i+1])
		p = at.field(k.Value)
		switch k.Value {
		case "kind":
			dc.decodeScalar(val, reflect.ValueOf(&h.Kind).Elem(), &p)
		case "backend":
			dc.decodeScalar(val, reflect.ValueOf(&h.Backend).Elem(), &p)
		case "readiness":
			if isBackendPath(at.String()) {
				dc.decode(val, reflect.ValueOf(&h.Readiness).Elem(), &p)
			}
		case "concurrency":
			if isBackendPath(at.String()) {
				dc.decode(val, reflect.ValueOf(&h.Concurrency).Elem(), &p)
			}
		}
	}
	if h.Kind == "" && h.Backend == "" {
		dc.d.At(n, at.String(), `missing required field "kind"`, "")
	}
	v.Set(reflect.ValueOf(h))
}
