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

// TestOverlayServes builds a config with the overlay MCPGEN_ENV names: the
// overlay's tools are served, and what the build finds wrong in the
// overlay is reported at the overlay's own lines.
func TestOverlayServes(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml":      "version: 1\noverlays: {prod: mcpgen.prod.yaml, broken: broken.yaml}\ntools:\n  - {name: a, description: A., content: [{text: a}]}\n",
		"mcpgen.prod.yaml": "tools:\n  - {name: a, description: Prod A.}\n  - {name: p, description: P., content: [{text: p}]}\n",
		"broken.yaml":      "tools:\n\n  - {name: a, handler: {kind: nope}}\n",
		"twice.yaml":       "version: 1\noverlays: {prod: twice.prod.yaml}\ninclude: [mcpgen.yaml]\n",
		"twice.prod.yaml":  "tools:\n  - {name: a, description: A again., content: [{text: a}]}\n",
	})
	compile := func(env string) (*Server, load.Diagnostics) {
		return Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(map[string]string{"MCPGEN_ENV": env})},
			BuildOptions{Registry: testRegistry(nil)})
	}
	srv, ds := compile("prod")
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	if srv.plan.AllTools["p"] == nil || srv.plan.AllTools["a"].Def.Description != "Prod A." {
		t.Errorf("tools %v: want p, and a described by the overlay", srv.plan.AllTools)
	}
	_, ds = compile("broken")
	wantDiag(t, ds, filepath.Join(dir, "broken.yaml")+":3:", "tools[0].handler.kind", "nope")

	// an overlay changes the file that names it: a tool of an included
	// file is defined twice, and each place is the file it is written in
	_, ds = Compile([]string{filepath.Join(dir, "twice.yaml")}, load.Options{LookupEnv: envMap(map[string]string{"MCPGEN_ENV": "prod"})},
		BuildOptions{Registry: testRegistry(nil)})
	wantDiag(t, ds, `tool "a" is defined twice; first defined at `+filepath.Join(dir, "twice.prod.yaml")+":2:")
}
