package httpkind

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, ctype, body string
		kind              bodyKind
		want              any
	}{
		{"json", "application/json", `{"a":1,"b":2.5,"c":[true,null]}`, kindJSON, map[string]any{"a": int64(1), "b": 2.5, "c": []any{true, nil}}},
		{"problem json", "application/problem+json", `{"title":"x"}`, kindJSON, map[string]any{"title": "x"}},
		{"invalid UTF-8 inside JSON", "application/json", "{\"a\":\"caf\xe9\"}", kindJSON, map[string]any{"a": "caf\uFFFD"}},
		{"not JSON after all", "application/json", `<html>`, kindText, "<html>"},
		{"two JSON values", "application/json", `{} {}`, kindText, "{} {}"},
		{"JSON sent as text/plain", "text/plain", ` [1, 2]`, kindJSON, []any{int64(1), int64(2)}},
		{"JSON without a type", "", `{"a": "b"}`, kindJSON, map[string]any{"a": "b"}},
		{"HTML stays text", "text/html", `{"a": 1}`, kindText, `{"a": 1}`},
		{"big integers become floats", "application/json", `[123456789012345678901]`, kindJSON, []any{1.2345678901234568e+20}},
		{"binary without a type", "", "\x00\x01\xff", kindBinary, nil},
		{"octet stream", "application/octet-stream", "abc", kindBinary, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			if tt.ctype != "" {
				h.Set("Content-Type", tt.ctype)
			}
			p := parse(&response{status: 200, header: h, body: []byte(tt.body)})
			if p.kind != tt.kind {
				t.Errorf("kind = %v, want %v", p.kind, tt.kind)
			}
			if diff := cmp.Diff(tt.want, p.body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}
