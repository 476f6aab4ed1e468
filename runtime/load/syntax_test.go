package load

import (
	"strconv"
	"testing"
)

// TestSyntaxErrorPosition checks where a YAML syntax error is placed: where
// the parser stopped, not the line of the block around it that yaml.v3
// names, nor the end of a token the parser had to read in whole.
func TestSyntaxErrorPosition(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in, want string }{
		{"a second ': ' on a line", "a:\n  b: c: d\n", "2:7"},
		{"a key indented too little", "a:\n  b: 1\n c: 2\n", "3:2"},
		{"a quote never closed", "a: 1\nb: 'x\nc: 2\n", "2:4"},
		{"a [ never closed", "a: [1, 2\n", "1:9"},
		{"a token after an entry of { }", "a: {b: [c] d}\n", "1:12"},
		{"a quoted scalar after an entry of { }, over lines", "a: {m \"n: {{ x }}\"}\nb: {c: \"d\"}\n", "1:18"},
		{"a quote that ends lines below", "a:\n  b: 1\n  'c: 2\n  # it's here\n\nd: 3\n", "3:3"},
		{"a tab", "a:\n\tb: 1\n", "2:1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := firstError([]byte(tt.in))
			if err == nil {
				t.Fatalf("%q parses", tt.in)
			}
			d := syntaxError("f.yaml", []byte(tt.in), err)
			if got := strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Col); got != tt.want {
				t.Errorf("%q: at %s, want %s: %s", tt.in, got, tt.want, d.Message)
			}
		})
	}
}
