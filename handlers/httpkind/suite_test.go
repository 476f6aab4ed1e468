package httpkind_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

func TestSuite(t *testing.T) {
	hang := make(chan struct{})
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hang":
			select {
			case <-r.Context().Done():
			case <-hang:
			}
		case "/large":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte(strings.Repeat("x", 64<<10)))
		case "/fail":
			jsonReply(http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "widget 7 is locked"}})(w, r)
		}
	})
	defer close(hang)
	tool := func(path, extra string) string {
		return "version: 1\ntools:\n  - name: t\n    description: test tool\n    handler:\n      kind: http\n" +
			"      base_url: " + srv.URL + "\n      path: " + path + "\n" + indent(extra, "      ")
	}
	handlertest.Run(t, handlertest.Suite{
		Registry: registry(),
		Hang:     tool("/hang", ""),
		Timeout:  tool("/hang", "timeout: 300ms"),
		Large:    tool("/large", "max_response: 1KiB"),
		Fail:     tool("/fail", ""),
		FailText: "widget 7 is locked",
	})
}
