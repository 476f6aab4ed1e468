package httpkind_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pages serves items 1..5, two per page, by cursor (?cursor=N) and by link.
func pages(t *testing.T) *recorder {
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		start := 0
		if c := r.URL.Query().Get("cursor"); c != "" {
			start = int(c[0] - '0')
		}
		var items []int
		for i := start; i < min(start+2, 5); i++ {
			items = append(items, i+1)
		}
		reply := map[string]any{"data": items, "next_cursor": nil, "links": map[string]any{}}
		if start+2 < 5 {
			next := string(rune('0' + start + 2))
			reply["next_cursor"] = next
			reply["links"] = map[string]any{"next": "/api/items?cursor=" + next, "foreign": "http://evil.example/steal"}
		}
		jsonReply(200, reply)(w, r)
	})
}

func structured(t *testing.T, res any) string {
	t.Helper()
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestPagination(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, args, handler, call, want string
		requests                        int
	}{
		{name: "follow a cursor", handler: "pagination:\n  mode: follow\n  next: ${{ response.body.next_cursor }}\n  cursor_param: cursor\n  items: ${{ response.body.data }}",
			want: `{"items":[1,2,3,4,5],"pages":3}`, requests: 3},
		{name: "follow a link", handler: "pagination:\n  mode: follow\n  next: ${{ response.body.links.next }}\n  items: ${{ response.body.data }}",
			want: `{"items":[1,2,3,4,5],"pages":3}`, requests: 3},
		{name: "stop at max_pages", handler: "pagination:\n  mode: follow\n  next: ${{ response.body.next_cursor }}\n  cursor_param: cursor\n  items: ${{ response.body.data }}\n  max_pages: 2",
			want: `{"items":[1,2,3,4],"more":true,"note":"pagination stopped at max_pages (2): the API has more items than these; narrow the call to see the rest","pages":2}`, requests: 2},
		{name: "cursor mode returns nextCursor", args: "- {name: cursor}",
			handler: "query:\n  cursor: ${{ args.cursor }}\nresult: ${{ response.body.data }}\npagination:\n  mode: cursor\n  next: ${{ response.body.next_cursor }}",
			call:    `{"cursor": "2"}`, want: `{"items":[3,4],"nextCursor":"4"}`, requests: 1},
		{name: "cursor mode on the last page", args: "- {name: cursor}",
			handler: "query:\n  cursor: ${{ args.cursor }}\nresult: ${{ response.body.data }}\npagination:\n  mode: cursor\n  next: ${{ response.body.next_cursor }}",
			call:    `{"cursor": "4"}`, want: `{"items":[5]}`, requests: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := pages(t)
			s := build(t, withBackend(srv.URL+"/api", "", tool(tt.args, "path: /items\n"+tt.handler)))
			res := call(t, s, "t", or(tt.call, `{}`))
			mustSucceed(t, res)
			if diff := cmp.Diff(tt.want, structured(t, res.StructuredContent)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if n := len(srv.requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
		})
	}
}

func TestPaginationRefusesAForeignLink(t *testing.T) {
	t.Parallel()
	srv := pages(t)
	s := build(t, withBackend(srv.URL, "auth: {bearer: tok-123456}\n", tool("",
		"pagination:\n  mode: follow\n  next: ${{ response.body.links.foreign }}\n  items: ${{ response.body.data }}")))
	if got := mustFail(t, call(t, s, "t", `{}`)); !strings.Contains(got, "another host") {
		t.Errorf("error %q does not refuse the foreign link", got)
	}
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestPaginationItemsMustBeAList(t *testing.T) {
	t.Parallel()
	srv := pages(t)
	s := build(t, withBackend(srv.URL, "", tool("", "pagination:\n  mode: follow\n  next: ${{ response.body.next_cursor }}\n  cursor_param: cursor\n  items: ${{ response.body.links }}")))
	if got := mustFail(t, call(t, s, "t", `{}`)); got != "pagination.items: page 1 gave an object, not a list" {
		t.Errorf("got %q", got)
	}
}
