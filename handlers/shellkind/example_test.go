package shellkind_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestExample builds examples/shell and calls each of its tools on a small
// workspace, so the example cannot rot.
func TestExample(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for name, body := range map[string]string{
		"notes.txt":      "one TODO\ntwo\n-v three\n",
		"src/main.go":    "package main\n// TODO: more\n",
		"-dash.txt":      "a b\nc\n",
		"src/empty.go":   "",
		"src/data.bin":   "TODO\x00\x01",
		"docs/readme.md": "hello\n",
	} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lookup := func(name string) (string, bool) {
		if name == "WORKSPACE" {
			return ws, true
		}
		return os.LookupEnv(name)
	}
	srv, ds := runtime.Compile([]string{"../../examples/shell/mcpgen.yaml"},
		load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: registry()})
	if len(ds) > 0 {
		t.Fatalf("the example has diagnostics:\n%v", ds)
	}
	defer srv.Close()
	for _, tt := range []struct {
		tool, args string
		check      func(text string) bool
	}{
		{"search_files", `{"pattern": "TODO"}`, func(s string) bool {
			return lines(s) == 2 && strings.Contains(s, "notes.txt:1:one TODO") && strings.Contains(s, "src/main.go:2:")
		}},
		{"search_files", `{"pattern": "-v", "path": "notes.txt"}`, func(s string) bool { return s == "3:-v three\n" }},
		{"search_files", `{"pattern": "nowhere to be found"}`, func(s string) bool { return s == "" }},
		{"count_lines", `{"files": ["notes.txt", "src/main.go"]}`, func(s string) bool {
			return lines(s) == 3 && strings.Fields(strings.Split(s, "\n")[2])[0] == "5"
		}},
		{"list_directory", `{"path": "src"}`, func(s string) bool {
			return strings.Contains(s, "main.go") && strings.Contains(s, "empty.go")
		}},
		{"disk_usage", `{"depth": 1}`, func(s string) bool { return strings.Contains(s, "./src") && strings.Contains(s, "%") }},
		{"sort_lines", `{"text": "b\na\nb\n", "unique": true}`, func(s string) bool { return s == "a\nb\n" }},
		{"sort_lines", `{"text": "b\na\nb"}`, func(s string) bool { return s == "a\nb\nb\n" }},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			res := handlertest.Call(t, context.Background(), srv, tt.tool, tt.args)
			if text := handlertest.Text(res); res.IsError || !tt.check(text) {
				t.Errorf("%s %s: isError=%v, unexpected result:\n%s", tt.tool, tt.args, res.IsError, text)
			}
		})
	}
	t.Run("checksum_files", func(t *testing.T) {
		var r progressRecorder
		res, err := handlertest.CallTool(context.Background(), srv, "checksum_files", []byte(`{"files": ["notes.txt", "src/main.go"]}`), &r)
		if text := handlertest.Text(res); err != nil || res.IsError || lines(text) != 2 || !strings.HasSuffix(text, " src/main.go\n") {
			t.Errorf("isError=%v %v, unexpected result:\n%s", res.IsError, err, text)
		}
		want := []reported{{1, 2, "1/2 notes.txt"}, {2, 2, "2/2 src/main.go"}}
		if diff := cmp.Diff(want, r.reports()); diff != "" {
			t.Errorf("progress (-want +got):\n%s", diff)
		}
	})
	t.Run("archive_workspace", func(t *testing.T) {
		res := handlertest.Call(t, context.Background(), srv, "archive_workspace", `{"path": "src"}`)
		out := strings.Fields(handlertest.Text(res))
		if res.IsError || len(out) != 2 {
			t.Fatalf("isError=%v, unexpected result: %q", res.IsError, out)
		}
		defer os.Remove(out[0])
		list, err := exec.Command("tar", "-tzf", out[0]).Output()
		if err != nil || !strings.Contains(string(list), "src/main.go") {
			t.Errorf("the archive holds %q (%v); want src/main.go", list, err)
		}
	})
	t.Run("file_stats", func(t *testing.T) {
		res := handlertest.Call(t, context.Background(), srv, "file_stats", `{"file": "-dash.txt"}`)
		want := map[string]any{"lines": int64(2), "words": int64(3), "bytes": int64(6)}
		if diff := cmp.Diff(want, res.StructuredContent); diff != "" || res.IsError {
			t.Errorf("isError=%v %s, structured (-want +got):\n%s", res.IsError, handlertest.Text(res), diff)
		}
	})
}

func lines(s string) int { return strings.Count(s, "\n") }
