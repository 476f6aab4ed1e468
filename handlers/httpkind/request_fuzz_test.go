package httpkind

import (
	"strings"
	"testing"
)

// FuzzPathSegment proves that an argument inserted into the path stays one
// segment of it, whatever it holds: same scheme and host, same number of
// segments, and the segment decodes back to the argument.
func FuzzPathSegment(f *testing.F) {
	for _, s := range []string{"T-1", "../../admin", "a/b?admin=true", "..", ".", "%2e%2e", "//evil.example/x", "@evil.example",
		"a#b", "%0d%0aX-Injected: 1", "/tickets/x", "\r\n", "é/ü", "\x00"} {
		f.Add(s)
	}
	base := "https://api.example:8443/v1"
	cfg := &Config{Connection: Connection{BaseURL: &base}, Path: scalar("/tickets/${{ args.id }}/comments")}
	h := cfg.Build(testEnv{f}).(*handler)
	f.Fuzz(func(t *testing.T, id string) {
		u, err := h.url(map[string]any{"args": map[string]any{"id": id}})
		if id == "" || id == "." || id == ".." {
			if err == nil {
				t.Fatalf("%q was not refused: %s", id, u)
			}
			return // see TestRequestRefused
		}
		if err != nil {
			t.Fatal(err)
		}
		if u.Scheme != "https" || u.Host != "api.example:8443" || u.RawQuery != "" || u.Fragment != "" {
			t.Fatalf("%q changed the URL: %s", id, u)
		}
		segs := strings.Split(u.EscapedPath(), "/")
		if len(segs) != 5 || segs[1] != "v1" || segs[2] != "tickets" || segs[4] != "comments" {
			t.Fatalf("%q changed the path: %s", id, u.EscapedPath())
		}
		if segs[3] == "." || segs[3] == ".." {
			t.Fatalf("%q left a dot segment: %s", id, u.EscapedPath())
		}
		if got := strings.TrimSuffix(strings.TrimPrefix(u.Path, "/v1/tickets/"), "/comments"); got != id {
			t.Fatalf("%q decodes to %q", id, got)
		}
	})
}
