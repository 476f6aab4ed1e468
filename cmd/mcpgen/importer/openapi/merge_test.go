package openapi

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestMerge: merging adds the operations a config lacks and leaves what
// the user wrote (edits, renamed tools, comments, tools of their own) as
// it was; merging again adds nothing.
func TestMerge(t *testing.T) {
	doc, err := Load(context.Background(), "testdata/petstore-3.0.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	store, err := Filter{Tags: []string{"store"}}.Select(doc.Operations())
	if err != nil {
		t.Fatal(err)
	}
	first, err := Render(Convert(doc, store, Options{}, nil).File)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.NewReplacer(
		"name: get_inventory\n", "name: get_inventory\n    # counts only pets for sale\n",
		"name: place_order\n", "name: order_pet\n", // renamed; its comment still names the operation
		"title: Returns pet inventories by status\n", "title: Stock per status\n",
	).Replace(string(first)) + `  - name: hello
    description: Says hello.
    content: [{text: hello}]
`
	e, err := ReadExisting([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	var ops []*Operation
	for _, o := range doc.Operations() {
		if !e.Has(o) {
			ops = append(ops, o)
		}
	}
	added := e.Add(Convert(doc, ops, Options{}, e.Names))
	if len(added) != 16 {
		t.Errorf("added %d tools, want 16: %v", len(added), added)
	}
	merged, err := e.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"# counts only pets for sale", "name: order_pet", "title: Stock per status", "name: hello"} {
		if !strings.Contains(string(merged), kept) {
			t.Errorf("the merged config lost %q", kept)
		}
	}
	if strings.Contains(string(merged), "name: place_order") {
		t.Error("the renamed tool was added again")
	}
	if diff := cmp.Diff(toolsOf(t, []byte(edited)), toolsOf(t, merged)[:5]); diff != "" {
		t.Errorf("the user's tools changed (-before +after):\n%s", diff)
	}
	again, err := ReadExisting(merged)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range doc.Operations() {
		if !again.Has(o) {
			t.Errorf("after merging, %s is still missing", o.Key())
		}
	}
}

func toolsOf(t *testing.T, data []byte) []any {
	t.Helper()
	var c struct {
		Tools []any `yaml:"tools"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c.Tools
}

// TestEmitMatchesEncoder: Render writes the text yaml.v3's encoder gives
// for every test description. GitHub's is compared tool by tool, the way
// the encoder can write it in reasonable time.
func TestEmitMatchesEncoder(t *testing.T) {
	files := []string{"testdata/petstore-3.0.yaml", "testdata/petstore-3.1.yaml", "testdata/petstore-2.0.json",
		"testdata/security-3.0.yaml", "testdata/server-variables-3.0.yaml", "testdata/split/openapi.yaml"}
	if !testing.Short() && !raceEnabled {
		files = append(files, "testdata/github-api.json.gz")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			path := file
			if strings.HasSuffix(file, ".gz") {
				path = gunzip(t, file)
			}
			doc, err := Load(context.Background(), path, LoadOptions{FileRefs: true})
			if err != nil {
				t.Fatal(err)
			}
			res := Convert(doc, doc.Operations(), Options{}, nil)
			want, err := encode(res.File)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) > 100 {
				want = encodeInPieces(t, res.File)
			}
			got, err := Render(res.File)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("(-encoder +Render):\n%s", diff)
			}
		})
	}
}

// encodeInPieces encodes a config with yaml.v3: the tools one by one, the
// encoder being slow on one huge document, and the rest as a whole.
func encodeInPieces(t *testing.T, doc *yaml.Node) []byte {
	root := doc.Content[0]
	head := *root
	head.Content = nil
	var tools *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "tools" {
			tools = root.Content[i+1]
			continue
		}
		head.Content = append(head.Content, root.Content[i], root.Content[i+1])
	}
	out, err := encode(&head)
	if err != nil {
		t.Fatal(err)
	}
	if tools == nil {
		return out
	}
	out = append(out, "tools:\n"...)
	for _, tool := range tools.Content {
		piece, err := encode(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{tool}})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(piece, []byte("\n")) {
			if len(line) > 1 {
				out = append(out, "  "...)
			}
			out = append(out, line...)
		}
	}
	return out
}
