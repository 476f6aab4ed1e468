package runtime

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestIncludeServes serves a config split over files: the tools of every
// included file, a secret read from a file masked in results, and a
// duplicate across files reported at each file's own line.
func TestIncludeServes(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml": "version: 1\nserver: {name: split}\ninclude: [\"tools/*.yaml\"]\n",
		"tools/a.yaml": `version: 1
tools:
  - name: leak
    description: Leaks the token.
    handler: {kind: echo, result: "token=${file:../secrets/api_token}"}
`,
		"tools/b.yaml":      "version: 1\ntools:\n  - {name: hello, description: Says hello., content: [{text: hello}]}\n",
		"secrets/api_token": "tok-from-file\n",
	})
	var referenced []string
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(nil), Referenced: func(p string) { referenced = append(referenced, p) }})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	if srv.plan.AllTools["hello"] == nil || srv.plan.AllTools["leak"] == nil || srv.plan.Info.Name != "split" {
		t.Errorf("tools %v, name %q: want leak and hello from the included files", srv.plan.AllTools, srv.plan.Info.Name)
	}
	res, err := srv.CallTool(context.Background(), "leak", []byte(`{}`), nil)
	if err != nil || textOf(res.Content) != "token=****" {
		t.Errorf("result: %v %q, want the secret masked", err, textOf(res.Content))
	}
	for _, want := range []string{"tools/a.yaml", "tools/b.yaml"} {
		if !slices.Contains(referenced, filepath.Join(dir, want)) {
			t.Errorf("%s is not among the referenced files %v (reload watches them, pack bundles them)", want, referenced)
		}
	}

	dup := writeFiles(t, map[string]string{
		"mcpgen.yaml": "version: 1\ninclude: [more.yaml]\ntools:\n  - {name: t, description: T., content: [{text: a}]}\n",
		"more.yaml":   "version: 1\n\ntools:\n  - {name: t, description: T., content: [{text: b}]}\n",
	})
	_, ds = Compile([]string{filepath.Join(dup, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(nil)})
	wantDiag(t, ds, filepath.Join(dup, "more.yaml")+":4:", "tools[0]")
}
