package runtime

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestDefinedTwiceAcrossFiles checks that a name defined in two files is
// reported at the second place, naming the first.
func TestDefinedTwiceAcrossFiles(t *testing.T) {
	t.Parallel()
	a := `version: 1
tools:
  - name: greet
    description: A.
    content: [{text: a}]
prompts:
  - name: p
    description: P.
    messages: [{text: p}]
resources:
  - uri: docs://a
    name: a
    text: a
`
	b := `version: 1

tools:
  - name: other
    description: B.
    content: [{text: b}]
  - name: greet
    description: B.
    content: [{text: b}]
prompts:
  - name: p
    description: P.
    messages: [{text: p}]
resources:
  - uri: docs://a
    name: a
    text: a
`
	dir := writeFiles(t, map[string]string{"a.yaml": a, "b.yaml": b})
	pa, pb := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	srv, ds := Compile([]string{pa, pb}, load.Options{}, BuildOptions{Registry: testRegistry(nil)})
	if srv != nil {
		t.Fatal("a config with duplicates built")
	}
	got := diagText(ds, dir)
	want := `b.yaml:7:11: tools[1].name: tool "greet" is defined twice; first defined at ` + pa + `:3:11
b.yaml:11:11: prompts[0].name: prompt "p" is defined twice; first defined at ` + pa + `:7:11
b.yaml:15:10: resources[0].uri: resource "docs://a" is defined twice; first defined at ` + pa + `:11:10
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
