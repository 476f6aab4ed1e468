package runtime

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenEnv is the environment the diagnostic goldens are loaded with.
var goldenEnv = map[string]string{"SERVER_NAME": "demo", "TITLE_SUFFIX": "", "SECRET": "s3cr3t-value",
	"API_TOKEN": "tok-123456", "REGION": "eu-west-1", "DATABASE_URL": "postgres://app:hunter22@db/shop"}

// validateText is what `mcpgen validate path` prints: the diagnostics and
// their summary, then "path: ok (...)" when the config builds.
func validateText(path string, ds load.Diagnostics, srv *Server) string {
	var b strings.Builder
	if len(ds) > 0 {
		b.WriteString(ds.Error() + "\n" + ds.Summary() + "\n")
	}
	if srv != nil {
		b.WriteString(path + ": ok (" + srv.Describe() + ")\n")
	}
	return b.String()
}

// TestDiagnosticsGolden compiles every testdata/diag/*.yaml and compares the
// report with the .golden file beside it (-update rewrites them).
func TestDiagnosticsGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "diag", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := testRegistry(new(atomic.Int64))
			srv, ds := Compile([]string{path}, load.Options{LookupEnv: envMap(goldenEnv)}, BuildOptions{Registry: reg})
			got := validateText(path, ds, srv)
			if srv != nil {
				srv.Close()
			}
			golden := strings.TrimSuffix(path, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./runtime -run TestDiagnosticsGolden -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("validate %s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestStatelessFlagWarns: `serve --stateless` (BuildOptions.Stateless) on a
// config that does not say stateless warns about the steps that cannot ask
// older clients, as server.http.stateless does.
func TestStatelessFlagWarns(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	cfg := `version: 1
tools:
  - name: summarize
    description: Summarize with the client's model.
    steps:
      - sample: {prompt: Summarize., as: summary}
    content: [{text: "{{ .steps.summary.text }}"}]
`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "tools[0].steps[0].sample: sample cannot ask clients up to 2025-11-25 on a stateless server"
	for _, stateless := range []bool{false, true} {
		reg := testRegistry(new(atomic.Int64))
		srv, ds := Compile([]string{path}, load.Options{}, BuildOptions{Registry: reg, Stateless: stateless})
		got := validateText(path, ds, srv)
		if srv != nil {
			srv.Close()
		}
		if strings.Contains(got, want) != stateless {
			t.Errorf("stateless %v: diagnostics\n%s\nwant the warning only when stateless", stateless, got)
		}
	}
}
