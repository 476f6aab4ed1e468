package load

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"gopkg.in/yaml.v3"
)

// EnvVariable names the environment variable that selects a config's
// overlay (spec.Config.Overlays).
const EnvVariable = "MCPGEN_ENV"

// origin is the file a node was read from when it is not the file being
// loaded: a node of an overlay.
type origin struct {
	file string
	src  []byte
}

// overlayKeys are the keys an overlay may not set: they decide how files
// are found, which the base file alone says.
var overlayKeys = []string{"include", "env_file", "overlays"}

// choice is what a file's overlays made of the environment EnvVariable
// names.
type choice struct {
	env   string
	names []string   // the environments of the file's overlays
	key   *yaml.Node // the key `overlays`
	found bool       // env is among names
}

// overlay merges into root, the root mapping of a config in dir, the
// overlay of the environment EnvVariable names (through lookup), recording
// the origin of the overlay's nodes in origins. It returns the overlay's
// path, or "" when none is merged, and the choice made, nil when the file
// has no overlays or no environment is named. An environment none of
// the file's overlays names is left for Files to report (checkChoices):
// a config split over files may give overlays to some files only.
func overlay(root *yaml.Node, dir string, lookup LookupEnv, d Reporter, origins map[*yaml.Node]*origin) (string, *choice) {
	list := Field(root, "overlays")
	if list == nil || list.Kind != yaml.MappingNode {
		return "", nil // none, or the decoder reports what is wrong
	}
	env, _ := lookup(EnvVariable)
	if env == "" {
		return "", nil
	}
	p, found := overlayFile(root, list, env, dir, d, origins)
	c := &choice{env: env, key: keyNode(root, "overlays"), found: found}
	for i := 0; i+1 < len(list.Content); i += 2 {
		c.names = append(c.names, list.Content[i].Value)
	}
	return p, c
}

// checkChoices reports an environment that the overlays of no file
// name: a typo, or an overlay forgotten.
func checkChoices(files []*File, list *Diagnostics) {
	var missed []*File
	for _, f := range files {
		switch {
		case f.choice == nil:
		case f.choice.found:
			return
		default:
			missed = append(missed, f)
		}
	}
	for _, f := range missed {
		c := f.choice
		hint := suggest.DidYouMean(c.env, c.names)
		if hint == "" {
			hint = "the environments are " + strings.Join(c.names, ", ")
		}
		f.Reporter(list).At(c.key, "overlays", fmt.Sprintf("%s is %q, which names no overlay", EnvVariable, c.env), hint)
	}
}

// overlayFile merges the overlay of env from the overlays list of root, if
// list names env, and returns its path ("" when it could not be read).
func overlayFile(root, list *yaml.Node, env, dir string, d Reporter, origins map[*yaml.Node]*origin) (string, bool) {
	var entry *yaml.Node
	for i := 0; i+1 < len(list.Content); i += 2 {
		if list.Content[i].Value == env {
			entry = Resolve(list.Content[i+1])
		}
	}
	if entry == nil {
		return "", false
	}
	if entry.Kind != yaml.ScalarNode || entry.Value == "" {
		return "", true // the decoder reports it
	}
	at := "overlays." + env
	if strings.Contains(entry.Value, "${") {
		d.At(entry, at, "an overlay's path is read before variables are expanded, so it cannot use them",
			"write the path as it is, relative to this file")
		return "", true
	}
	p := entry.Value
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	data, err := regfile.Read(p, 0)
	if err != nil {
		d.At(entry, at, p+": "+ReadError(err), "paths start from the directory of this file")
		return "", true
	}
	od := Reporter{file: p, list: d.list, src: data}
	over, ok := parseYAML(data, od)
	if !ok {
		return "", true
	}
	remember(over, &origin{file: p, src: data}, origins)
	for _, key := range overlayKeys {
		if k := keyNode(over, key); k != nil {
			od.At(k, key, "an overlay cannot set "+key, "set it in the file the overlay is merged into")
			removeKey(over, key)
		}
	}
	merge(root, over)
	return p, true
}

// FileOf returns the path of the file node n of f was read from: f's own,
// or its overlay's.
func (f *File) FileOf(n *yaml.Node) string {
	if o := f.origins[n]; o != nil {
		return o.file
	}
	return f.Path
}

// remember records o as the origin of n and every node under it.
func remember(n *yaml.Node, o *origin, origins map[*yaml.Node]*origin) {
	if n == nil || origins[n] != nil {
		return
	}
	origins[n] = o
	for _, c := range n.Content {
		remember(c, o, origins)
	}
	remember(n.Alias, o, origins)
}

func removeKey(n *yaml.Node, key string) {
	if i := keyAt(n, key); i >= 0 {
		n.Content = slices.Delete(n.Content, i, i+2)
	}
}

// merge merges over into base and returns the node to use: mappings merge
// key by key, a list of named mappings merges by name (an entry of a new
// name is added), and any other value of over replaces base's.
func merge(base, over *yaml.Node) *yaml.Node {
	b, o := Resolve(base), Resolve(over)
	switch {
	case b == nil || o == nil:
	case b.Kind == yaml.MappingNode && o.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(o.Content); i += 2 {
			if j := keyAt(b, o.Content[i].Value); j >= 0 {
				b.Content[j+1] = merge(b.Content[j+1], o.Content[i+1])
			} else {
				b.Content = append(b.Content, o.Content[i], o.Content[i+1])
			}
		}
		return base
	case b.Kind == yaml.SequenceNode && o.Kind == yaml.SequenceNode && named(o):
		for _, item := range o.Content {
			if j := nameIndex(b, entryName(item)); j >= 0 {
				b.Content[j] = merge(b.Content[j], item)
			} else {
				b.Content = append(b.Content, item)
			}
		}
		return base
	}
	return over
}

// keyAt returns the index of key in mapping n's contents, or -1.
func keyAt(n *yaml.Node, key string) int {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return i
		}
	}
	return -1
}

// named reports whether every entry of list is a mapping with a name.
func named(list *yaml.Node) bool {
	for _, item := range list.Content {
		if entryName(item) == "" {
			return false
		}
	}
	return len(list.Content) > 0
}

func entryName(item *yaml.Node) string {
	n := Field(item, "name")
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func nameIndex(list *yaml.Node, name string) int {
	for j, item := range list.Content {
		if entryName(item) == name {
			return j
		}
	}
	return -1
}
