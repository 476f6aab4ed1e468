package runtime

import (
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestServerInOneFile checks how server blocks of several files merge: the
// first describes the server, a later one adds its instructions, and a
// later one that sets anything else is an error naming both places.
func TestServerInOneFile(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"a.yaml": "version: 1\nserver:\n  name: a\n  instructions: Read the manual first.\n",
		"b.yaml": "version: 1\nserver:\n  name: b\n  instructions: Then ask.\ntools:\n  - {name: t, description: d, content: [{text: ok}]}\n",
		"c.yaml": "version: 1\nserver:\n  cache_hint: {ttl: 1m}\n",
	})
	files := func(names ...string) (paths []string) {
		for _, n := range names {
			paths = append(paths, filepath.Join(dir, n))
		}
		return paths
	}
	srv, ds := Compile(files("a.yaml", "b.yaml"), load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(nil)})
	if got := diagText(ds, dir); got != "" || srv == nil {
		t.Fatalf("a.yaml + b.yaml: want no diagnostics, got %s", got)
	}
	defer srv.Close()
	if srv.plan.Info.Name != "a" || srv.plan.Info.Instructions != "Read the manual first.\n\nThen ask." {
		t.Errorf("server info = %q / %q, want a's name and both instructions", srv.plan.Info.Name, srv.plan.Info.Instructions)
	}
	_, ds = Compile(files("a.yaml", "c.yaml"), load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(nil)})
	want := "c.yaml:3:15: server.cache_hint: server settings are set in more than one file; set cache_hint in the file whose server block comes first, at " +
		filepath.Join(dir, "a.yaml") + ":3:3; a later file's server block may only add instructions\n"
	if got := diagText(ds, dir); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
