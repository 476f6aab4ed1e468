package httpkind_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// linkPages serves items 1..5, two per page (?page=N), linking to the
// next page with a Link header of absolute URLs beside other relations,
// as GitHub does; relative answers with relative links over two fields.
func linkPages(t *testing.T, relative bool) *recorder {
	var r *recorder
	r = newRecorder(t, func(w http.ResponseWriter, req *http.Request) {
		page, _ := strconv.Atoi(req.URL.Query().Get("page"))
		page = max(page, 1)
		var items []int
		for i := (page-1)*2 + 1; i <= min(page*2, 5); i++ {
			items = append(items, i)
		}
		base := r.URL
		if relative {
			base = ""
		}
		if page < 3 {
			next := fmt.Sprintf(`<%s/items?page=%d&per_page=2>; rel="next"`, base, page+1)
			if relative {
				w.Header().Add("Link", `</items?page=1&per_page=2>; rel="first", </items?page=3>; rel="last"`)
				w.Header().Add("Link", next)
			} else {
				w.Header().Set("Link", fmt.Sprintf(`<%s/items?page=1&per_page=2>; rel="first", %s, <%s/items?page=3&per_page=2>; rel="last"`,
					base, next, base))
			}
		}
		jsonReply(200, items)(w, req)
	})
	return r
}

func TestLinkPagination(t *testing.T) {
	t.Parallel()
	for _, relative := range []bool{false, true} {
		t.Run(fmt.Sprintf("follow, relative=%v", relative), func(t *testing.T) {
			t.Parallel()
			srv := linkPages(t, relative)
			s := build(t, withBackend(srv.URL, "", tool("",
				"path: /items\nquery: {per_page: 2}\npagination: {mode: follow, link: next, items: '${{ response.body }}'}")))
			if got := mustSucceed(t, call(t, s, "t", `{}`)); !strings.Contains(strings.Join(strings.Fields(got), ""), `"items":[1,2,3,4,5],"pages":3`) {
				t.Errorf("result %s, want the five items over three pages", got)
			}
			var queries []string
			for _, r := range srv.requests() {
				queries = append(queries, r.RawQuery)
			}
			if want := "per_page=2 page=2&per_page=2 page=3&per_page=2"; strings.Join(queries, " ") != want {
				t.Errorf("queries %q, want %q", queries, want)
			}
		})
	}
	t.Run("cursor", func(t *testing.T) {
		t.Parallel()
		srv := linkPages(t, false)
		s := build(t, withBackend(srv.URL, "", tool("- {name: cursor, description: nextCursor of the previous page}",
			"path: /items\nquery: {per_page: 2}\npagination: {mode: cursor, link: next}")))
		res := call(t, s, "t", `{}`)
		mustSucceed(t, res)
		next, _ := res.StructuredContent.(map[string]any)["nextCursor"].(string)
		if want := srv.URL + "/items?page=2&per_page=2"; next != want {
			t.Fatalf("nextCursor %q, want %q", next, want)
		}
		args, _ := json.Marshal(map[string]string{"cursor": next})
		mustSucceed(t, call(t, s, "t", string(args)))
		if got := srv.last(t).RawQuery; got != "page=2&per_page=2" {
			t.Errorf("the second call asked for %q, want the link's page=2&per_page=2", got)
		}
		got := mustFail(t, call(t, s, "t", `{"cursor": "https://evil.example/items?page=2"}`))
		if !strings.Contains(got, "not a link to the next page of this API") {
			t.Errorf("a link to another host: %q", got)
		}
		if n := len(srv.requests()); n != 2 {
			t.Errorf("%d requests, want 2: the foreign link must not be fetched", n)
		}
	})
}

func TestLinkPaginationDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, args, handler, want string }{
		{"cursor mode without a cursor argument", "", "pagination: {mode: cursor, link: next}",
			"declare it: args: [{name: cursor, description: nextCursor of the previous page}]"},
		{"link with cursor_param", "", "pagination: {mode: follow, link: next, cursor_param: page, items: '${{ response.body }}'}",
			"cursor_param, cursor_field and cursor_header do not apply"},
		{"link and next", "", "pagination: {mode: follow, link: next, next: '${{ response.body.next }}', items: '${{ response.body }}'}",
			"give exactly one of next, link"},
		{"neither link nor next", "", "pagination: {mode: follow, items: '${{ response.body }}'}",
			"give exactly one of next, link"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := diagnose(t, withBackend("http://127.0.0.1:1", "", tool(tt.args, tt.handler))); !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics %q, want %q", got, tt.want)
			}
		})
	}
}
