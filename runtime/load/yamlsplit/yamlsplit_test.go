package yamlsplit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/ghfixture"
	"gopkg.in/yaml.v3"
)

// whole parses data as the loader does without this package.
func whole(t *testing.T, data []byte) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

// parts parses data in the given number of parts, small or not.
func parts(data []byte, n int) (*yaml.Node, bool) {
	l, ok := split(data, n)
	if !ok {
		return nil, false
	}
	return l.parse()
}

// diff returns where two trees differ in anything but comments, or "".
func diff(a, b *yaml.Node, path string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return path + ": one is nil"
		}
		return ""
	case a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content):
		return fmt.Sprintf("%s: %+v\nvs %+v", path, *a, *b)
	case a.Alias != nil || b.Alias != nil:
		if a.Alias == nil || b.Alias == nil || a.Alias.Line != b.Alias.Line || a.Alias.Column != b.Alias.Column {
			return path + ": aliases differ"
		}
	}
	for i := range a.Content {
		if d := diff(a.Content[i], b.Content[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// TestGitHubAsWhole: the GitHub REST config, in 2, 3 and 8 parts, with
// LF and CRLF line ends, parses to the tree of one parse.
func TestGitHubAsWhole(t *testing.T) {
	data := ghfixture.YAML(t)
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	for _, tt := range []struct {
		name string
		data []byte
	}{{"lf", data}, {"crlf", crlf}} {
		want := whole(t, tt.data)
		for _, n := range []int{2, 5} {
			got, ok := parts(tt.data, n)
			if !ok {
				t.Fatalf("%s, %d parts: not parsed in parts", tt.name, n)
			}
			if d := diff(want, got, "doc"); d != "" {
				t.Fatalf("%s, %d parts: %s", tt.name, n, d)
			}
		}
	}
	if _, ok := Parse(data); !ok {
		t.Error("Parse did not take the GitHub REST config")
	}
}

// tool is a list item of the shape imports write.
func tool(i int, extra string) string {
	return fmt.Sprintf("  # tool %d\n  - name: t%d\n    description: |-\n      Tool %d.\n\n      - not an item\n    input_schema:\n"+
		"      type: object\n      properties: {id: {type: integer}}\n%s", i, i, i, extra)
}

func config(head, tail string, tools ...string) []byte {
	return []byte("version: 1\n" + head + "tools:\n" + strings.Join(tools, "") + tail)
}

// TestSameTreeOrWhole: a config of the shape is parsed in parts to the
// tree of one parse; one that is not, or whose parts do not parse alone,
// is left to the whole parse (false), never parsed differently.
func TestSameTreeOrWhole(t *testing.T) {
	var many []string
	for i := range 12 {
		many = append(many, tool(i, ""))
	}
	for _, tt := range []struct {
		name  string
		data  []byte
		parts bool
	}{
		{"plain", config("", "", many...), true},
		{"keys after the list", config("server: {name: x}\n", "prompts:\n  - name: p\n", many...), true},
		{"comments at the margin inside", config("", "", append(append(many[:6:6], "# between\n"), many[6:]...)...), true},
		{"anchor and alias in one item", config("", "", append(many[:11:11],
			tool(11, "    annotations: &a {read_only: true}\n    meta: *a\n"))...), true},
		{"alias to an anchor in another part", config("", "", append(append([]string{tool(0, "    annotations: &a {read_only: true}\n")}, many[1:11]...),
			tool(11, "    annotations: *a\n"))...), false},
		{"alias to an anchor before the list", config("defaults: &d {read_only: true}\n", "", append(many[:11:11], tool(11, "    annotations: *d\n"))...), false},
		{"quoted scalar over an item line", config("", "", append(append(many[:6:6], "  - name: q\n    description: \"a\n  - b\"\n    content: [{text: x}]\n"), many[6:]...)...), false},
		{"flow list over lines", config("", "", append(append(many[:6:6], "  - name: f\n    tags: [a,\n  b]\n"), many[6:]...)...), false},
		{"item value on the next line", config("", "", append(append(many[:6:6], "  -\n    name: n\n"), many[6:]...)...), false},
		{"list at the margin", []byte("version: 1\ntools:\n- name: a\n- name: b\n- name: c\n"), false},
		{"flow list", []byte("version: 1\ntools: [{name: a}, {name: b}]\n"), false},
		{"two documents", append(config("", "", many...), "---\nversion: 1\n"...), false},
		{"no tools", []byte("version: 1\nprompts:\n  - name: a\n  - name: b\n"), false},
		{"tab indentation", config("", "\tbad: 1\n", many...), false},
		{"syntax error in a part", config("", "", append(many[:11:11], "  - name: [\n")...), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var want *yaml.Node
			var doc yaml.Node
			if yaml.Unmarshal(tt.data, &doc) == nil {
				want = &doc
			}
			got, ok := parts(tt.data, 3)
			if ok != tt.parts {
				t.Fatalf("parsed in parts: %v, want %v", ok, tt.parts)
			}
			if !ok {
				return
			}
			if want == nil {
				t.Fatal("parsed in parts what does not parse whole")
			}
			if d := diff(want, got, "doc"); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// TestSmallLeftWhole: a file under MinSize is not worth the goroutines.
func TestSmallLeftWhole(t *testing.T) {
	if _, ok := Parse(config("", "", tool(0, ""), tool(1, ""), tool(2, ""))); ok {
		t.Error("a small file was parsed in parts")
	}
}

// BenchmarkGitHub compares the GitHub REST config parsed whole and in
// parts (wall time: the parts run at once on a machine with cores to
// spare).
func BenchmarkGitHub(b *testing.B) {
	data := ghfixture.YAML(b)
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			var doc yaml.Node
			if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parts", func(b *testing.B) {
		for b.Loop() {
			if _, ok := Parse(data); !ok {
				b.Fatal("not parsed in parts")
			}
		}
	})
}

// FuzzSameTree: whatever the bytes, a file parsed in parts gives the tree
// of one parse, or is left to it. Seeded with the examples, whole, and
// with lists of tools of the imported shape.
func FuzzSameTree(f *testing.F) {
	paths, _ := filepath.Glob(filepath.FromSlash("../../../examples/*/*.yaml"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add(config("server: {name: x}\n", "prompts:\n  - name: p\n", tool(0, ""), tool(1, "    annotations: &a {read_only: true}\n    meta: *a\n"), tool(2, "")))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := parts(data, 3)
		if !ok {
			return
		}
		var doc yaml.Node
		if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
			t.Fatalf("parsed in parts what does not parse whole: %v", err)
		}
		if d := diff(&doc, got, "doc"); d != "" {
			t.Fatal(d)
		}
	})
}
