package openapi

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestMerge: merging adds the operations a config lacks and leaves what
// the user wrote (edits, renamed tools, comments, tools of their own) as
// it was; merging again adds nothing.
func TestMerge(t *testing.T) {
	doc, err := Load(context.Background(), "testdata/petstore-3.0.yaml")
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

// TestRenderInPieces: rendering the tools one by one gives the text
// yaml.v3's encoder gives for the whole document.
func TestRenderInPieces(t *testing.T) {
	for _, file := range []string{"testdata/petstore-3.0.yaml", "testdata/security-3.0.yaml"} {
		doc, err := Load(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		res := Convert(doc, doc.Operations(), Options{}, nil)
		whole, err := encode(res.File)
		if err != nil {
			t.Fatal(err)
		}
		pieces, err := Render(res.File)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(whole), string(pieces)); diff != "" {
			t.Errorf("%s (-encoder +Render):\n%s", file, diff)
		}
	}
}
