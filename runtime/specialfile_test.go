//go:build unix

package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestResourceSpecialFiles reads resources that are a named pipe without a
// writer and a device: each is refused at once (a blocking read would hang
// the call forever; /dev/zero would grow until the size cap).
func TestResourceSpecialFiles(t *testing.T) {
	t.Parallel()
	srv, dir := resourceServer(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "files", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "files", "zero")); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"files://fifo", "raw://fifo", "files://zero"} {
		t.Run(uri, func(t *testing.T) {
			res, err := readURI(t, srv, uri)
			if err == nil {
				t.Fatalf("read %s: got %+v", uri, res.Contents[0])
			}
		})
	}
}

// TestLoadSpecialFiles points every file a config names at load or build
// time at a device and at a named pipe: validate reports each, positioned,
// instead of reading forever or blocking.
func TestLoadSpecialFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, special := range []string{"/dev/zero", fifo} {
		config := `version: 1
tools:
  - name: show
    description: Shows.
    icons: [{file: ` + special + `, mime_type: image/png}]
    content:
      - image: {file: ` + special + `, mime_type: image/png}
      - resource: {uri: "x://a", file: ` + special + `}
`
		srv, ds := compileText(t, config, nil)
		if srv != nil {
			t.Errorf("%s: the config built", special)
		}
		wantDiag(t, ds, "mcpgen.yaml:5:", "icons[0].file", "cannot read file: not a regular file")
		wantDiag(t, ds, "mcpgen.yaml:7:", "content[0].image.file", "cannot read file: not a regular file")
		wantDiag(t, ds, "mcpgen.yaml:8:", "content[1].resource.file", "cannot read file: not a regular file")
	}
	for _, special := range []string{"/dev/zero", fifo} {
		_, ds := load.Files([]string{special}, load.Options{})
		if len(ds) != 1 || !strings.Contains(ds[0].Message, "not a regular file") {
			t.Errorf("loading %s as a config: %v", special, ds)
		}
	}
}
