package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportRefusesAConfigTooLargeToLoad: a config larger than mcpgen
// loads is not written (the limit is lowered here: the real one takes
// thousands of operations to reach).
func TestImportRefusesAConfigTooLargeToLoad(t *testing.T) {
	defer func(m int) { maxImported = m }(maxImported)
	maxImported = 2 << 10
	dir := t.TempDir()
	spec := filepath.Join(dir, "api.yaml")
	var paths strings.Builder
	for _, p := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		paths.WriteString("  /" + p + ":\n    get:\n      operationId: get_" + p + "\n      responses: {\"200\": {description: ok}}\n")
	}
	if err := os.WriteFile(spec, []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n"+paths.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "mcpgen.yaml")
	var stderr bytes.Buffer
	code := runWith(context.Background(), stdio{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &stderr}, "import", "openapi", "-o", out, spec)
	if code == exitOK || !strings.Contains(stderr.String(), "MiB mcpgen loads; select fewer operations") {
		t.Fatalf("exit %d, stderr %q; want a refusal", code, stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the config was written anyway: %v", err)
	}
}
