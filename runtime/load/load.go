// Package runtime loads mcpgen configs, builds them into a server and serves
// it over MCP.
//
// Load reads YAML files strictly, keeping every node's position; Build
// compiles schemas, expressions and templates and asks each backend kind to
// build its handlers; the Server it returns is registered on the official
// MCP Go SDK and served over stdio or Streamable HTTP. Every problem in a
// config is a Diagnostic with a position in the user's own file.
package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"

	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/runtime/load/yamlsplit"
	"github.com/mcpgen/mcpgen/spec"
	"gopkg.in/yaml.v3"
)

// Options control how configs are read.
type Options struct {
	// LookupEnv resolves ${VAR} references; os.LookupEnv when nil.
	LookupEnv LookupEnv
	// SkipEnv leaves unset variables without a default unreported, for
	// validating on machines that do not hold the secrets.
	SkipEnv bool
}

// File is one loaded config file.
type File struct {
	Path   string       // as given by the user; used in diagnostics
	Dir    string       // directory that relative paths in the file start from
	Config *spec.Config // decoded contents
	Root   *yaml.Node   // the document's root mapping, for positions
	// Overlay is the path of the overlay merged into the file
	// (spec.Config.Overlays), or "".
	Overlay string
	// SecretFiles are the files holding secrets that the file read, or
	// tried to: its env_file and the files of ${file:PATH}. Reload watches
	// them; pack never bundles them.
	SecretFiles []string
	// Secrets are the values the file took from the environment, and the
	// policy for them.
	Secrets Secrets
	src     []byte // the file's contents, to place positions inside scalars
	// unset holds scalars that miss a variable: reported as unset, or
	// skipped (SkipEnv).
	unset   map[*yaml.Node]bool
	lookup  LookupEnv // as for ${VAR}, for expressions' env.NAME
	origins map[*yaml.Node]*origin
	choice  *choice // of an overlay, for Files to check
	skipEnv bool
}

// EnvAt returns the reader of environment variables for the expressions
// of the field at path (env.NAME), which works by the same rules as
// ${NAME}: the value is recorded in Secrets (a secret when path is a
// CredentialField), and ok is false when it is not set, unless
// Options.SkipEnv lets it be empty.
func (f *File) EnvAt(path string) func(name string) (value string, ok bool) {
	cred := CredentialField(path)
	return func(name string) (string, bool) {
		if f.lookup == nil {
			return "", f.skipEnv
		}
		v, ok := f.lookup(name)
		if !ok {
			return "", f.skipEnv
		}
		f.Secrets.add(name, v, cred)
		return v, true
	}
}

// Files reads and decodes the config files at paths and the files they
// include (see spec.Config.Include), each once, every file followed by
// those it includes. It returns the files that parsed, and every problem
// found in any of them.
func Files(paths []string, opts Options) ([]*File, Diagnostics) {
	l := &loader{opts: opts, seen: map[string]bool{}}
	for _, p := range paths {
		l.load(p, opts.LookupEnv, nil)
	}
	checkChoices(l.files, &l.ds)
	return l.files, l.ds
}

// ReadError words a failure to read a file for a diagnostic: the reason,
// without the path that the diagnostic gives already.
func ReadError(err error) string {
	return "cannot read file: " + regfile.Message(err)
}

// Bytes decodes one config file's contents; path names it in diagnostics
// and relative paths in it start from its directory. It returns nil and
// the problem when the YAML does not parse.
func Bytes(path string, data []byte, opts Options) (*File, Diagnostics) {
	var ds Diagnostics
	d := Reporter{file: path, list: &ds, src: data}
	root, ok := parseYAML(data, d)
	if !ok {
		return nil, ds
	}
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	dir := filepath.Dir(path)
	d.origins = map[*yaml.Node]*origin{}
	f := &File{Path: path, Dir: dir, Config: &spec.Config{}, Root: root, src: data,
		skipEnv: opts.SkipEnv, origins: d.origins}
	seen := func(p string) { f.SecretFiles = appendNew(f.SecretFiles, p) }
	lookup = envFile(root, dir, lookup, d, seen)
	f.lookup = lookup
	f.Overlay, f.choice = overlay(root, dir, lookup, d, d.origins)
	f.unset = map[*yaml.Node]bool{}
	declareSecrets(root, d, &f.Secrets)
	dc := &decoder{d: d, lookup: lookup, skipEnv: opts.SkipEnv, secrets: &f.Secrets,
		unset: f.unset, readFile: secretFileReader(f.Dir, seen)}
	dc.decode(root, reflect.ValueOf(f.Config).Elem(), rootPlace(""))
	// a missing or mistyped version has been reported by the decoder
	if n := Field(root, "version"); n != nil && f.Config.Version != 1 && !ds.Reported(path, "version") {
		msg := "expected 1, got " + describe(n)
		if n.Tag == "!!int" {
			msg = "unsupported version " + n.Value
		}
		d.At(n, "version", msg, "this mcpgen reads version: 1")
	}
	return f, ds
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// decodeDoc decodes the next document of dec into doc, reporting a syntax
// error with its line, column and the line itself (syntaxError), and an
// empty file with empty.
func decodeDoc(dec *yaml.Decoder, doc *yaml.Node, d Reporter, empty string) bool {
	err := dec.Decode(doc)
	if err == nil {
		return true
	}
	if err.Error() == "EOF" {
		*d.list = append(*d.list, Diagnostic{File: d.file, Line: 1, Message: "yaml: " + empty, Severity: Error})
	} else {
		*d.list = append(*d.list, syntaxError(d.file, d.src, err))
	}
	return false
}

// parseYAML parses one YAML document, reporting syntax errors with a line.
func parseYAML(data []byte, d Reporter) (*yaml.Node, bool) {
	doc, ok := yamlsplit.Parse(data) // a large file, on several cores
	if !ok {
		doc = &yaml.Node{}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		if !decodeDoc(dec, doc, d, "the file is empty; it needs at least `version: 1`") {
			return nil, false
		}
		var extra yaml.Node
		if err := dec.Decode(&extra); err == nil {
			d.At(&extra, "", "a config file holds one YAML document", "split documents into separate files")
		}
	}
	root := Resolve(doc)
	if root == nil || root.Kind != yaml.MappingNode {
		n := root
		if n == nil {
			n = doc
		}
		d.At(n, "", "a config file is a mapping with at least `version: 1`", "")
		return nil, false
	}
	if expandedSize(root, map[*yaml.Node]int{}) > maxValues {
		d.At(root, "", fmt.Sprintf("aliases expand the file to more than %d values", maxValues),
			"repeat less through anchors and aliases")
		return nil, false
	}
	splitExpressions(root, d)
	return root, true
}

// maxValues bounds the number of YAML values a file may expand to through
// aliases, so that a few lines of nested aliases cannot exhaust memory.
const maxValues = 1 << 20

// expandedSize counts the nodes of n with every alias expanded, stopping
// early once past maxValues; sizes holds the sizes of anchored nodes
// already counted (only they can be reached again, through an alias).
func expandedSize(n *yaml.Node, sizes map[*yaml.Node]int) int {
	if n == nil {
		return 0
	}
	if n.Kind == yaml.AliasNode {
		return expandedSize(n.Alias, sizes)
	}
	if n.Anchor != "" {
		if s, ok := sizes[n]; ok {
			return s
		}
		// until it is counted: an alias inside n to n itself (a: &a [*a])
		// expands without end
		sizes[n] = maxValues + 1
	}
	size := 1
	for _, c := range n.Content {
		if size += expandedSize(c, sizes); size > maxValues {
			break
		}
	}
	if n.Anchor != "" {
		sizes[n] = size
	}
	return size
}

// Field returns the value of key in mapping n, aliases resolved, or nil.
func Field(n *yaml.Node, key string) *yaml.Node {
	_, v := entry(n, key)
	return Resolve(v)
}

// keyNode returns the key node of key in mapping n, or nil.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	k, _ := entry(n, key)
	return k
}

// entry returns the key and value nodes of key in mapping n, or nils.
func entry(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}
