package openapi

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// gunzip writes the gzipped test description src into a temporary
// directory and returns the path of the plain file.
func gunzip(tb testing.TB, src string) string {
	tb.Helper()
	f, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	dst := filepath.Join(tb.TempDir(), filepath.Base(src[:len(src)-len(".gz")]))
	out, err := os.Create(dst)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// BenchmarkImportGitHub converts GitHub's REST description (1,223
// operations, 13 MB of JSON): load, resolve, convert and render. Besides
// time it reports the process's CPU time per conversion (cpu-s/op, user
// and system, the garbage collector's included), which a loaded machine
// disturbs less than elapsed time.
func BenchmarkImportGitHub(b *testing.B) {
	path := gunzip(b, "testdata/github-api.json.gz")
	b.ResetTimer()
	start := cpuTime(b)
	for b.Loop() {
		doc, err := Load(context.Background(), path, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		res := Convert(doc, doc.Operations(), Options{}, nil)
		if _, err := Render(res.File); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime(b)-start).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Skip("no CPU time here:", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkJSONBaseline decodes the same description into plain Go values:
// the floor under BenchmarkImportGitHub, to report its time against.
func BenchmarkJSONBaseline(b *testing.B) {
	path := gunzip(b, "testdata/github-api.json.gz")
	b.ResetTimer()
	for b.Loop() {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}
