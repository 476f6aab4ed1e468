package shellkind_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// TestPathArgs confines path arguments to the working directory: a path
// inside it is read, any way out (an absolute path, a ".." segment, a
// symbolic link) is refused before the command runs.
func TestPathArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	for name, body := range map[string]string{"work/notes.txt": "in here\n", "work/sub/a.txt": "a\n", "secret.txt": "top secret\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(work, "link.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(dir, filepath.Join(work, "up")); err != nil {
		t.Fatal(err)
	}
	srv := build(t, `version: 1
tools:
  - name: t
    description: Reads files.
    args: [{name: path, required: true}, {name: files, type: array, items: string}]
    handler:
      kind: shell
      command: [cat, --, "${{ args.path }}", "${{ args.files ?? [] }}"]
      dir: `+work+`
      path_args: [path, files]
`)
	for _, tt := range []struct {
		name, args, want string
		refused          bool
	}{
		{"inside", `{"path": "notes.txt"}`, "in here\n", false},
		{"inside, below", `{"path": "sub/../notes.txt"}`, `holds a ".." segment`, true},
		{"a list inside", `{"path": "notes.txt", "files": ["sub/a.txt"]}`, "in here\na\n", false},
		{"absolute", `{"path": "/etc/passwd"}`, "is an absolute path", true},
		{"dot dot", `{"path": "../secret.txt"}`, `holds a ".." segment`, true},
		{"dot dot in a list", `{"path": "notes.txt", "files": ["../secret.txt"]}`, `argument files: "../secret.txt" holds a ".." segment`, true},
		{"symbolic link out", `{"path": "link.txt"}`, "leads outside the working directory", true},
		{"through a linked directory", `{"path": "up/secret.txt"}`, "leads outside the working directory", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := handlertest.Call(t, context.Background(), srv, "t", tt.args)
			text := handlertest.Text(res)
			if strings.Contains(text, "top secret") {
				t.Fatalf("read outside the working directory: %q", text)
			}
			if res.IsError != tt.refused || !strings.Contains(text, tt.want) {
				t.Errorf("isError=%v %q; want isError=%v and %q", res.IsError, text, tt.refused, tt.want)
			}
		})
	}
}

func TestPathArgsDiagnostics(t *testing.T) {
	t.Parallel()
	ds := handlertest.Diagnose(t, registry(), tool([]string{"path"}, "command: [ls]\npath_args: ['a b']"))
	if !strings.Contains(ds.Error(), `tools[0].handler.path_args[0]: "a b" is not an argument name`) {
		t.Errorf("got %v", ds)
	}
	// A misspelt name would confine nothing: it must name an argument.
	ds = handlertest.Diagnose(t, registry(), tool([]string{"path"}, "command: [ls]\npath_args: [paht]"))
	if !strings.Contains(ds.Error(), `tools[0].handler.path_args[0]: the tool has no argument "paht": it would confine nothing; did you mean "path"?`) {
		t.Errorf("got %v", ds)
	}
}
