package templates

import "testing"

// BenchmarkParse measures parsing a short template, as a config holds
// thousands of them.
func BenchmarkParse(b *testing.B) {
	roots := map[string][]string{"args": {"id", "mode"}, "result": nil}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("t", "Record {{ .args.id }} ({{ .args.mode }}): {{ .result }}", roots); err != nil {
			b.Fatal(err)
		}
	}
}
