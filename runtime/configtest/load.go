package configtest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"gopkg.in/yaml.v3"
)

// Suffix ends the name of a test file.
const Suffix = ".test.yaml"

// recordedSuffix ends the name of the file of recorded HTTP exchanges.
const recordedSuffix = ".recorded.yaml"

// Suite is one loaded test file.
type Suite struct {
	// Path is the test file, as found.
	Path string
	// File is its decoded contents.
	File File
	// Configs are the paths of the configs it tests.
	Configs []string
	// recorded holds the exchanges of NAME.recorded.yaml by case name.
	recorded map[string][]*Exchange
	root     *yaml.Node
	src      []byte
}

// RecordPath is the file that `--record` writes and replay reads.
func (s *Suite) RecordPath() string {
	if base, ok := strings.CutSuffix(s.Path, Suffix); ok {
		return base + recordedSuffix
	}
	// tests inside a config
	return strings.TrimSuffix(s.Path, filepath.Ext(s.Path)) + ".tests" + recordedSuffix
}

// Find expands arguments into test files: a test file itself; a config
// (its NAME.test.yaml); a directory (its *.test.yaml); DIR/... (every
// *.test.yaml under DIR). No argument means the current directory.
func Find(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var out []string
	for _, a := range args {
		found, err := find(a)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no %s files", a, "*"+Suffix)
		}
		out = append(out, found...)
	}
	return slices.Compact(out), nil
}

func find(arg string) ([]string, error) {
	if dir, ok := strings.CutSuffix(arg, "/..."); ok || arg == "..." {
		if !ok {
			dir = "."
		}
		var out []string
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isTests(p) {
				out = append(out, p)
			}
			return err
		})
		return out, err
	}
	st, err := os.Stat(arg)
	switch {
	case err != nil:
		return nil, err
	case st.IsDir():
		names, err := filepath.Glob(filepath.Join(arg, "*.yaml"))
		return slices.DeleteFunc(names, func(p string) bool { return !isTests(p) }), err
	case strings.HasSuffix(arg, Suffix):
		return []string{arg}, nil
	}
	var out []string
	if hasTests(arg) {
		out = append(out, arg)
	}
	t := strings.TrimSuffix(arg, filepath.Ext(arg)) + Suffix
	if _, err := os.Stat(t); err == nil {
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no tests in it or beside it; write them in %s", arg, t)
	}
	return out, nil
}

// isTests reports whether p is a test file or a config with tests.
func isTests(p string) bool {
	switch {
	case strings.HasSuffix(p, Suffix):
		return true
	case strings.HasSuffix(p, recordedSuffix) || !strings.HasSuffix(p, ".yaml"):
		return false
	}
	return hasTests(p)
}

// hasTests reports whether the config at p has a tests section.
func hasTests(p string) bool {
	data, err := regfile.Read(p, 0)
	if err != nil {
		return false
	}
	var doc struct {
		Version any `yaml:"version"`
		Tests   any `yaml:"tests"`
	}
	return yaml.Unmarshal(data, &doc) == nil && doc.Version != nil && doc.Tests != nil
}

// Load reads and checks a test file and the recordings beside it.
func Load(path string) (*Suite, load.Diagnostics) {
	data, err := regfile.Read(path, 0)
	if err != nil {
		return nil, load.Diagnostics{{File: path, Message: load.ReadError(err), Severity: load.Error}}
	}
	s := &Suite{Path: path, src: data}
	var root *yaml.Node
	var ds load.Diagnostics
	if strings.HasSuffix(path, Suffix) {
		root, ds = load.Decode(path, data, &s.File)
	} else {
		root, ds = s.decodeSection(data)
	}
	if root == nil {
		return nil, ds
	}
	s.root = root
	ds = append(ds, s.check()...)
	s.Configs = s.configPaths()
	ds = append(ds, s.checkConfigs()...)
	rds := s.loadRecorded()
	return s, append(ds, rds...).Sort()
}

// decodeSection decodes the tests section of a config.
func (s *Suite) decodeSection(data []byte) (*yaml.Node, load.Diagnostics) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, load.Diagnostics{{File: s.Path, Line: 1, Message: "yaml: " + err.Error(), Severity: load.Error}}
	}
	root := load.Resolve(&doc)
	n := load.Field(root, "tests")
	if n == nil {
		return nil, load.Diagnostics{{File: s.Path, Line: 1, Message: "no tests section", Severity: load.Error}}
	}
	s.File.Config = []string{filepath.Base(s.Path)}
	return root, load.DecodeNode(s.Path, data, n, &s.File.Tests, "tests")
}

func (s *Suite) configPaths() []string {
	dir := filepath.Dir(s.Path)
	if len(s.File.Config) == 0 {
		return []string{strings.TrimSuffix(s.Path, Suffix) + ".yaml"}
	}
	var out []string
	for _, c := range s.File.Config {
		out = append(out, filepath.Join(dir, c))
	}
	return out
}

// checkConfigs reports configs that are not there.
func (s *Suite) checkConfigs() load.Diagnostics {
	var ds load.Diagnostics
	r := load.NewReporter(s.Path, s.src, &ds)
	for i, c := range s.Configs {
		if _, err := os.Stat(c); err == nil {
			continue
		}
		if n := load.Field(s.root, "config"); n != nil && i < len(n.Content) {
			r.At(n.Content[i], fmt.Sprintf("config[%d]", i), fmt.Sprintf("no config %s", c), "")
		} else {
			r.At(nil, "", fmt.Sprintf("no config %s beside the tests", c), "name the config these tests are for with config: [FILE]")
		}
	}
	return ds
}

// check reports what the decoder cannot: repeated names, regular
// expressions that do not compile.
func (s *Suite) check() load.Diagnostics {
	var ds load.Diagnostics
	r := load.NewReporter(s.Path, s.src, &ds)
	seen := map[string]int{}
	for i, c := range s.File.Tests {
		if c == nil {
			continue
		}
		n := s.caseNode(i)
		if prev, dup := seen[c.Name]; dup && c.Name != "" {
			r.At(load.Field(n, "name"), fmt.Sprintf("tests[%d].name", i), fmt.Sprintf("duplicate test name %q", c.Name),
				fmt.Sprintf("tests[%d] has it too; names file recordings and select tests", prev))
		}
		seen[c.Name] = i
		if t := c.Expect.Text; t != nil && t.Matches != "" {
			if _, err := regexp.Compile(t.Matches); err != nil {
				r.At(s.at(i, "expect", "text", "matches"), fmt.Sprintf("tests[%d].expect.text.matches", i), err.Error(), "")
			}
		}
	}
	return ds
}

// caseNode returns the mapping of tests[i].
func (s *Suite) caseNode(i int) *yaml.Node {
	n := load.Field(s.root, "tests")
	if n == nil || i >= len(n.Content) {
		return s.root
	}
	return load.Resolve(n.Content[i])
}

// at returns the node at keys under tests[i], or the deepest one found.
func (s *Suite) at(i int, keys ...string) *yaml.Node {
	n := s.caseNode(i)
	for _, k := range keys {
		next := load.Field(n, k)
		if i, err := strconv.Atoi(k); err == nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
			next = load.Resolve(n.Content[i])
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

// recordFile is the file of recorded exchanges.
type recordFile struct {
	// Tests maps a case's name to the exchanges recorded while it ran.
	Tests map[string][]*Exchange `yaml:"tests"`
}

func (s *Suite) loadRecorded() load.Diagnostics {
	p := s.RecordPath()
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return load.Diagnostics{{File: p, Message: load.ReadError(err), Severity: load.Error}}
	}
	var rf recordFile
	root, ds := load.Decode(p, data, &rf)
	if root != nil {
		s.recorded = rf.Tests
	}
	return ds
}
