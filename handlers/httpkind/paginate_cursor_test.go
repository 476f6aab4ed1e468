package httpkind_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bodyPages serves items 1..5, two per page, reading the offset from the
// JSON body of a POST (and from the X-Offset header when there is one),
// as search APIs do; it ignores the query.
func bodyPages(t *testing.T) *recorder {
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query string `json:"query"`
			Page  struct {
				Offset int `json:"offset"`
			} `json:"page"`
			Offset int `json:"offset"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		start := req.Offset + req.Page.Offset
		if h := r.Header.Get("X-Offset"); h != "" {
			start, _ = strconv.Atoi(h)
		}
		var items []int
		for i := start; i < min(start+2, 5); i++ {
			items = append(items, i+1)
		}
		reply := map[string]any{"data": items, "next": nil}
		if start+2 < 5 {
			reply["next"] = start + 2
		}
		jsonReply(200, reply)(w, r)
	})
}

// TestPaginationCursorPlacement checks that a follow-mode cursor goes
// where the API reads it, and that a cursor the API does not read stops
// with a note instead of repeating the first page.
func TestPaginationCursorPlacement(t *testing.T) {
	t.Parallel()
	const page = "pagination:\n  mode: follow\n  next: ${{ response.body.next }}\n  items: ${{ response.body.data }}\n"
	for _, tt := range []struct {
		name, handler, want string
		bodies              []string
	}{
		{name: "body field", handler: "body:\n  json: {query: x, offset: 0}\n" + page + "  cursor_field: offset",
			want:   `{"items":[1,2,3,4,5],"pages":3}`,
			bodies: []string{`{"offset":0,"query":"x"}`, `{"offset":2,"query":"x"}`, `{"offset":4,"query":"x"}`}},
		{name: "nested body field created", handler: "body:\n  json: {query: x}\n" + page + "  cursor_field: page.offset",
			want:   `{"items":[1,2,3,4,5],"pages":3}`,
			bodies: []string{`{"query":"x"}`, `{"page":{"offset":2},"query":"x"}`, `{"page":{"offset":4},"query":"x"}`}},
		{name: "header", handler: "body:\n  json: {query: x}\n" + page + "  cursor_header: X-Offset",
			want:   `{"items":[1,2,3,4,5],"pages":3}`,
			bodies: []string{`{"query":"x"}`, `{"query":"x"}`, `{"query":"x"}`}},
		{name: "a query cursor the API ignores stops at the repeated page",
			handler: "body:\n  json: {query: x}\n" + page + "  cursor_param: offset",
			want: `{"items":[1,2],"note":"pagination stopped: page 2 was the same as page 1, so it was not added: ` +
				`the API does not read the cursor where it is sent","pages":1}`,
			bodies: []string{`{"query":"x"}`, `{"query":"x"}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := bodyPages(t)
			s := build(t, withBackend(srv.URL, "", tool("", "method: POST\npath: /search\n"+tt.handler)))
			res := call(t, s, "t", `{}`)
			mustSucceed(t, res)
			if diff := cmp.Diff(tt.want, structured(t, res.StructuredContent)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			var bodies []string
			for _, r := range srv.requests() {
				bodies = append(bodies, r.Body)
			}
			if diff := cmp.Diff(tt.bodies, bodies); diff != "" {
				t.Errorf("request bodies (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPaginationStopsOnAnUnchangedCursor checks that pages which differ but
// give the same next cursor end the list instead of looping to max_pages.
func TestPaginationStopsOnAnUnchangedCursor(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(200, map[string]any{"data": []int64{n.Add(1)}, "next": "same"})(w, r)
	})
	s := build(t, withBackend(srv.URL, "", tool("", "path: /items\npagination:\n  mode: follow\n"+
		"  next: ${{ response.body.next }}\n  cursor_param: cursor\n  items: ${{ response.body.data }}")))
	res := call(t, s, "t", `{}`)
	mustSucceed(t, res)
	want := `{"items":[1,2],"note":"pagination stopped: page 2 gave the same next cursor as page 1, so there is no new page to fetch","pages":2}`
	if diff := cmp.Diff(want, structured(t, res.StructuredContent)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if got := len(srv.requests()); got != 2 {
		t.Errorf("%d requests, want 2", got)
	}
}

// TestPaginationThatCannotAdvance checks the configs whose follow-mode
// pagination could never reach a second page are load errors.
func TestPaginationThatCannotAdvance(t *testing.T) {
	t.Parallel()
	const page = "pagination:\n  mode: follow\n  items: ${{ response.body.data }}\n"
	for _, tt := range []struct{ name, handler, want string }{
		{"query cursor the JSON body also sets", "method: POST\nbody:\n  json: {offset: 0}\n" + page +
			"  next: ${{ response.body.next }}\n  cursor_param: offset",
			`pagination.cursor_param: cursor_param would put the cursor in the query as ?offset=, but the JSON body sets "offset" itself`},
		{"body field without a JSON body", page + "  next: ${{ response.body.next }}\n  cursor_field: offset",
			"pagination.cursor_field: cursor_field puts the cursor in the JSON body, but the request sends no JSON object"},
		{"constant next", page + "  next: 2\n  cursor_param: offset",
			"pagination.next: next is the same for every page, so pagination cannot advance"},
		{"two places", "method: POST\nbody:\n  json: {}\n" + page + "  next: ${{ response.body.next }}\n  cursor_param: offset\n  cursor_header: X-Offset",
			"pagination.cursor_header: give at most one of cursor_param, cursor_field, cursor_header; found cursor_param and cursor_header"},
		{"cursor mode", "query: {c: x}\nresult: ${{ response.body }}\npagination:\n  mode: cursor\n  next: ${{ response.body.next }}\n  cursor_header: X-Offset",
			"pagination.cursor_header: cursor_header is for follow mode"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := diagnose(t, withBackend("http://127.0.0.1:1", "", tool("", "path: /items\n"+tt.handler)))
			if !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics:\n%s\nwant them to contain %q", got, tt.want)
			}
		})
	}
}

// jqlPages serves items 1..5, two per page, to a search whose query
// language carries the cursor: `id > N` inside the JQL string, as issue
// trackers' search APIs take it.
func jqlPages(t *testing.T) *recorder {
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			JQL string `json:"jql"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		after := 0
		if _, rest, ok := strings.Cut(req.JQL, "id > "); ok {
			after, _ = strconv.Atoi(strings.Fields(rest)[0])
		}
		var items []int
		for i := after + 1; i <= min(after+2, 5); i++ {
			items = append(items, i)
		}
		reply := map[string]any{"issues": items, "last": nil}
		if len(items) > 0 && items[len(items)-1] < 5 {
			reply["last"] = items[len(items)-1]
		}
		jsonReply(200, reply)(w, r)
	})
}

// TestPaginationCursorInsideTheRequest: a request that reads `page` is
// built again for each page with the cursor `next` gave, so the cursor can
// sit inside a query-language string; `next` sees the arguments and the
// previous cursor.
func TestPaginationCursorInsideTheRequest(t *testing.T) {
	t.Parallel()
	srv := jqlPages(t)
	handler := `method: POST
path: /search
idempotent: true
body:
  json:
    jql: "${{ 'project = ' + args.project + (page.cursor == nil ? '' : ' AND id > ' + string(page.cursor)) + ' ORDER BY id' }}"
    page: ${{ page.number }}
pagination:
  mode: follow
  next: "${{ response.body.last != nil && page.number < 10 ? response.body.last : nil }}"
  items: ${{ response.body.issues }}
`
	s := build(t, withBackend(srv.URL, "", tool("- {name: project, required: true}", handler)))
	res := call(t, s, "t", `{"project":"OPS"}`)
	mustSucceed(t, res)
	if diff := cmp.Diff(`{"items":[1,2,3,4,5],"pages":3}`, structured(t, res.StructuredContent)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	var bodies []string
	for _, r := range srv.requests() {
		bodies = append(bodies, r.Body)
	}
	want := []string{`{"jql":"project = OPS ORDER BY id","page":1}`,
		`{"jql":"project = OPS AND id > 2 ORDER BY id","page":2}`,
		`{"jql":"project = OPS AND id > 4 ORDER BY id","page":3}`}
	if diff := cmp.Diff(want, bodies); diff != "" {
		t.Errorf("request bodies (-want +got):\n%s", diff)
	}
}

// TestPageOnlyWhenFollowing: `page` in a request of a tool that does not
// follow pages is a load error at the field that reads it.
func TestPageOnlyWhenFollowing(t *testing.T) {
	t.Parallel()
	for _, handler := range []string{
		"path: /items\nquery: {after: '${{ page.cursor }}'}",
		"path: /items\nquery: {after: '${{ page.cursor }}'}\nresult: ${{ response.body }}\npagination:\n  mode: cursor\n  next: ${{ response.body.next }}",
	} {
		got := diagnose(t, withBackend("http://127.0.0.1:1", "", tool("", handler)))
		if want := "query.after: page is set only while pagination follows pages"; !strings.Contains(got, want) {
			t.Errorf("diagnostics:\n%s\nwant them to contain %q", got, want)
		}
	}
}

// TestPageInNextOnly: `next` may read `page` though the request does not:
// here it stops after the second page by its number.
func TestPageInNextOnly(t *testing.T) {
	t.Parallel()
	srv := bodyPages(t)
	handler := "method: POST\npath: /search\nbody:\n  json: {query: x, offset: 0}\npagination:\n  mode: follow\n" +
		"  next: \"${{ page.number < 2 ? response.body.next : nil }}\"\n  items: ${{ response.body.data }}\n  cursor_field: offset"
	s := build(t, withBackend(srv.URL, "", tool("", handler)))
	res := call(t, s, "t", `{}`)
	mustSucceed(t, res)
	if diff := cmp.Diff(`{"items":[1,2,3,4],"pages":2}`, structured(t, res.StructuredContent)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}
