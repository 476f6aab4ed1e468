package reload

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// BenchmarkReload200: one reload of a config of 200 tools, each with a
// typed argument list, on a shared backend that is carried over: load,
// build, swap in, tell the (no) clients. The budget is 100 ms of
// CPU per reload.
func BenchmarkReload200(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("version: 1\nbackends:\n  db: {kind: pool, label: one}\ntools:\n")
	for i := range 200 {
		fmt.Fprintf(&sb, `  - name: tool_%d
    description: Tool number %d, which looks something up.
    args:
      - {name: id, type: integer, required: true, minimum: 1, description: The id.}
      - {name: mode, type: string, enum: [fast, full], default: fast, description: How.}
      - {name: tags, type: array, items: string, description: Tags.}
    handler: {backend: db}
`, i, i)
	}
	path := filepath.Join(b.TempDir(), "mcpgen.yaml")
	write(b, path, sb.String())
	m := observe.NewMetrics()
	r, ds := Start(Options{Paths: []string{path}, Metrics: m,
		Build: runtime.BuildOptions{Registry: poolRegistry(&pools{}), Observer: &observe.Observer{Metrics: m}}}, false)
	if r == nil {
		b.Fatal(ds)
	}
	defer r.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if !r.Reload(ctx) {
			b.Fatal(r.Diagnostics())
		}
	}
}
