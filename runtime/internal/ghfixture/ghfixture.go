// Package ghfixture reads, for tests and benchmarks, the config `mcpgen
// import openapi` makes of GitHub's REST description (npm @octokit/openapi
// 23.0.2: 1,223 operations, 7.7 MB of YAML), checked in gzipped as
// runtime/testdata/github-rest.yaml.gz.
package ghfixture

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
)

// Path is where the gzipped config is, absolute.
func Path() string {
	_, file, _, _ := goruntime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "github-rest.yaml.gz")
}

// YAML returns the config, unzipped.
func YAML(tb testing.TB) []byte {
	tb.Helper()
	gz, err := os.ReadFile(Path())
	if err != nil {
		tb.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
