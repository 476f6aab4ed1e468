package graphqlkind_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

func TestSuite(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/hang":
			select {
			case <-r.Context().Done():
			case <-hang:
			}
		case "/large":
			_, _ = w.Write([]byte(`{"data":{"whoami":"` + strings.Repeat("x", 64<<10) + `"}}`))
		case "/fail":
			_, _ = w.Write([]byte(`{"data":null,"errors":[{"message":"widget 7 is locked","path":["whoami"]}]}`))
		}
	}))
	defer srv.Close()
	defer close(hang)
	tool := func(path, extra string) string {
		return "version: 1\ntools:\n  - name: t\n    description: test tool\n    handler:\n      kind: graphql\n" +
			"      base_url: " + srv.URL + path + "\n      schema: schema.graphql\n      document: '{ whoami }'\n" +
			"      retries: {max: 0}\n" + extra
	}
	handlertest.Run(t, handlertest.Suite{
		Registry: registry(),
		Files:    files(t, nil),
		Hang:     tool("/hang", ""),
		Timeout:  tool("/hang", "      timeout: 300ms\n"),
		Large:    tool("/large", "      max_response: 1KiB\n"),
		Fail:     tool("/fail", ""),
		FailText: "GraphQL error: widget 7 is locked (at whoami)",
	})
}
