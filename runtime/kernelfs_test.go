package runtime

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestKernelFilesystemsRefused proves that the server's own environment
// cannot be served: resources rooted at or above /proc or /sys, and
// content read from them, are refused when the config loads.
func TestKernelFilesystemsRefused(t *testing.T) {
	t.Parallel()
	if goruntime.GOOS != "linux" {
		t.Skip("kernel filesystems are looked for on Linux")
	}
	dir := t.TempDir()
	if err := os.Symlink("/proc/self", filepath.Join(dir, "self")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "files", "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, config, want string }{
		{"proc root", "resources:\n  - {uri: x://env, name: env, file: environ, root: /proc/self}", "resources[0].root: /proc/"},
		{"sys root", "resources:\n  - {uri: x://k, name: k, file: kernel/hostname, root: /sys}", "resources[0].root: /sys is or holds /sys (sysfs)"},
		{"root above proc", "resources:\n  - {uri: x://env, name: env, file: proc/self/environ, root: /}", "resources[0].root: / is or holds /proc (proc)"},
		{"root through a link", "resources:\n  - {uri: x://env, name: env, file: environ, root: self}", "resources[0].root: " + filepath.Join(dir, "self") + " is or holds /proc/"},
		{"template root", "resource_templates:\n  - {uri_template: \"x://{name}\", name: env, file: \"{{ .args.name }}\", root: /proc/self}", "resource_templates[0].root: /proc/"},
		{"image file", "prompts:\n  - name: p\n    messages: [{image: {file: /proc/self/environ, mime_type: image/png}}]", "prompts[0].messages[0].image.file: /proc/self/environ is or holds /proc/"},
		{"embedded file", "prompts:\n  - name: p\n    messages: [{resource: {uri: x://e, file: self/environ, mime_type: text/plain}}]", "prompts[0].messages[0].resource.file: " + filepath.Join(dir, "self/environ") + " is or holds /proc/"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".yaml")
			if err := os.WriteFile(path, []byte("version: 1\n"+tt.config+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			srv, ds := Compile([]string{path}, load.Options{}, BuildOptions{Registry: testRegistry(nil)})
			if srv != nil {
				srv.Close()
				t.Fatalf("the config builds; want an error saying %q", tt.want)
			}
			if !strings.Contains(ds.Error(), tt.want) {
				t.Errorf("got\n%v\nwant an error containing %q", ds, tt.want)
			}
		})
	}
	path := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nresources:\n  - {uri: x://f, name: f, file: a.txt, root: files}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, ds := Compile([]string{path}, load.Options{}, BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatalf("a root of its own is refused: %v", ds)
	}
	srv.Close()
}
