package httpkind_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// versioned serves a document whose version the test sets, with an ETag
// (or, validator "modified", a Last-Modified date), and answers 304 to a
// request that names the version it has.
func versioned(t *testing.T, version *atomic.Value, validator string) *recorder {
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		v := version.Load().(string)
		tag := `"` + v + `"`
		date := "Mon, 02 Jan 2006 15:04:0" + v[len(v)-1:] + " GMT"
		if validator == "etag" && r.Header.Get("If-None-Match") == tag ||
			validator == "modified" && r.Header.Get("If-Modified-Since") == date {
			w.Header().Set("X-RateLimit-Remaining", "41")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if validator == "etag" {
			w.Header().Set("ETag", tag)
		} else {
			w.Header().Set("Last-Modified", date)
		}
		jsonReply(200, map[string]any{"version": v, "user": r.Header.Get("X-User")})(w, r)
	})
}

func TestRevalidate(t *testing.T) {
	t.Parallel()
	for _, validator := range []string{"etag", "modified"} {
		t.Run(validator, func(t *testing.T) {
			t.Parallel()
			var version atomic.Value
			version.Store("v1")
			srv := versioned(t, &version, validator)
			s := build(t, withBackend(srv.URL, "", tool("- {name: user}",
				"path: /doc\nrevalidate: true\nheaders: {X-User: '${{ args.user }}'}\ntext: '{{ .result.version }} for {{ .result.user }}, {{ .response.status }}'")))
			for i, step := range []struct{ version, user, want, condition string }{
				{"v1", "ann", "v1 for ann, 200", ""},
				{"v1", "ann", "v1 for ann, 200", "v1"}, // 304: the kept response
				{"v1", "bob", "v1 for bob, 200", ""},   // another request: nothing kept for it
				{"v2", "ann", "v2 for ann, 200", "v1"}, // changed: the new one
				{"v2", "ann", "v2 for ann, 200", "v2"},
			} {
				version.Store(step.version)
				got := mustSucceed(t, call(t, s, "t", `{"user": "`+step.user+`"}`))
				if got != step.want {
					t.Errorf("call %d: %q, want %q", i+1, got, step.want)
				}
				h := srv.last(t).Header
				sent := h.Get("If-None-Match") + h.Get("If-Modified-Since")
				if step.condition == "" && sent != "" || step.condition != "" && !strings.Contains(sent, step.condition[1:]) {
					t.Errorf("call %d sent the condition %q, want one for %q", i+1, sent, step.condition)
				}
			}
		})
	}
	// twice calls a tool of config twice over a v1 document; it returns
	// the second result and the If-None-Match the second request sent.
	twice := func(t *testing.T, backendExtra, args, handler, call1, call2 string) (string, string) {
		var version atomic.Value
		version.Store("v1")
		srv := versioned(t, &version, "etag")
		s := build(t, withBackend(srv.URL, backendExtra, tool(args, handler)))
		call(t, s, "t", call1)
		got := mustSucceed(t, call(t, s, "t", call2))
		return got, srv.last(t).Header.Get("If-None-Match")
	}
	t.Run("without revalidate nothing is kept", func(t *testing.T) {
		t.Parallel()
		if _, sent := twice(t, "", "", "path: /doc", `{}`, `{}`); sent != "" {
			t.Errorf("sent If-None-Match %q without revalidate", sent)
		}
	})
	t.Run("a backend's revalidate", func(t *testing.T) {
		t.Parallel()
		got, sent := twice(t, "revalidate: true\n", "", "path: /doc\ntext: '{{ .result.version }}'", `{}`, `{}`)
		if got != "v1" || sent != `"v1"` {
			t.Errorf("got %q after sending If-None-Match %q, want v1 revalidated", got, sent)
		}
	})
	t.Run("a tool's own condition", func(t *testing.T) {
		t.Parallel()
		got, _ := twice(t, "revalidate: true\n", "- {name: tag}",
			"path: /doc\nheaders: {If-None-Match: '${{ args.tag }}'}\nsuccess: ['200', '304']\ntext: '{{ .response.status }}'",
			`{"tag": "\"v0\""}`, `{"tag": "\"v1\""}`)
		if got != "304" {
			t.Errorf("a tool that sets If-None-Match itself got %q, want the API's 304", got)
		}
	})
}
