package httpkind_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// crm is a small contacts API: look up by email, create, update, tag,
// list and read one.
type crm struct {
	mu       sync.Mutex
	contacts []map[string]any
	tags     map[string][]string
}

func (c *crm) serve(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/") // contacts[/id[/tags]]
	find := func(id string) map[string]any {
		for _, ct := range c.contacts {
			if ct["id"] == id {
				return ct
			}
		}
		return nil
	}
	switch {
	case r.Method == "GET" && len(parts) == 1:
		items := []any{}
		for _, ct := range c.contacts {
			if e := r.URL.Query().Get("email"); e == "" || ct["email"] == e {
				items = append(items, map[string]any{"id": ct["id"], "email": ct["email"]})
			}
		}
		jsonReply(200, map[string]any{"items": items})(w, r)
	case r.Method == "POST" && len(parts) == 1:
		ct := map[string]any{"id": "c" + string(rune('1'+len(c.contacts))), "email": body["email"], "name": body["name"]}
		c.contacts = append(c.contacts, ct)
		jsonReply(201, ct)(w, r)
	case len(parts) >= 2 && find(parts[1]) == nil:
		jsonReply(404, map[string]any{"error": "no contact " + parts[1]})(w, r)
	case r.Method == "GET" && len(parts) == 2:
		jsonReply(200, find(parts[1]))(w, r)
	case r.Method == "PATCH" && len(parts) == 2:
		if body["name"] == "boom" {
			jsonReply(422, map[string]any{"error": "name refused"})(w, r)
			return
		}
		ct := find(parts[1])
		ct["name"] = body["name"]
		jsonReply(200, ct)(w, r)
	case r.Method == "POST" && len(parts) == 3 && parts[2] == "tags":
		c.tags[parts[1]] = append(c.tags[parts[1]], body["tag"].(string))
		jsonReply(200, map[string]any{"id": parts[1], "tags": c.tags[parts[1]]})(w, r)
	default:
		jsonReply(405, map[string]any{"error": "no"})(w, r)
	}
}

const crmTools = `
  - name: upsert_contact
    description: Create or update a contact, found by email.
    args: [{name: email, required: true}, {name: name, required: true}]
    steps:
      - call:
          as: found
          handler: {backend: api, path: /contacts, query: {email: "${{ args.email }}"}}
      - when: ${{ len(steps.found.items) > 0 }}
        call:
          as: updated
          handler:
            backend: api
            method: PATCH
            path: /contacts/${{ steps.found.items[0].id }}
            body: {json: {name: "${{ args.name }}"}}
      - when: ${{ len(steps.found.items) == 0 }}
        call:
          as: created
          handler:
            backend: api
            method: POST
            path: /contacts
            body: {json: {email: "${{ args.email }}", name: "${{ args.name }}"}}
    content:
      - text: '{{ if hasKey .steps "updated" }}updated {{ .steps.updated.id }}{{ else }}created {{ .steps.created.id }}{{ end }}'

  - name: create_tagged
    description: Create a contact, then tag it.
    args: [{name: email, required: true}, {name: tag, required: true}]
    steps:
      - call:
          as: created
          handler: {backend: api, method: POST, path: /contacts, body: {json: {email: "${{ args.email }}"}}}
    handler:
      backend: api
      method: POST
      path: /contacts/${{ steps.created.id }}/tags
      body: {json: {tag: "${{ args.tag }}"}}

  - name: first_details
    description: The details of the first contacts.
    args: [{name: n, type: integer, default: 2}]
    steps:
      - call:
          as: list
          handler: {backend: api, path: /contacts}
      - call:
          as: details
          for_each: ${{ steps.list.items[:args.n] }}
          handler: {backend: api, path: "/contacts/${{ item.id }}"}
    content:
      - text: '{{ range .steps.details }}{{ .name }};{{ end }}'
`

// TestCallSteps: tools that need several requests, each step feeding the
// next, with conditions, against a real HTTP API.
func TestCallSteps(t *testing.T) {
	t.Parallel()
	api := &crm{tags: map[string][]string{}}
	srv := newRecorder(t, api.serve)
	s := build(t, withBackend(srv.URL, "", crmTools))

	if got := mustSucceed(t, call(t, s, "upsert_contact", `{"email": "ann@example.com", "name": "Ann"}`)); got != "created c1" {
		t.Errorf("first upsert: %q", got)
	}
	if got := mustSucceed(t, call(t, s, "upsert_contact", `{"email": "ann@example.com", "name": "Ann B"}`)); got != "updated c1" {
		t.Errorf("second upsert: %q", got)
	}
	if len(api.contacts) != 1 || api.contacts[0]["name"] != "Ann B" {
		t.Errorf("contacts after two upserts: %v", api.contacts)
	}
	methods := []string{}
	for _, r := range srv.requests() {
		methods = append(methods, r.Method)
	}
	if got := strings.Join(methods, " "); got != "GET POST GET PATCH" {
		t.Errorf("requests: %s, want GET POST GET PATCH (a skipped step sends nothing)", got)
	}

	// a failing step stops the tool with an error naming it
	got := mustFail(t, call(t, s, "upsert_contact", `{"email": "ann@example.com", "name": "boom"}`))
	if !strings.HasPrefix(got, "step updated: ") || !strings.Contains(got, "422") {
		t.Errorf("error of a failing step: %q", got)
	}

	if got := mustSucceed(t, call(t, s, "create_tagged", `{"email": "bob@example.com", "tag": "vip"}`)); !strings.Contains(got, `"vip"`) || !strings.Contains(got, `"c2"`) {
		t.Errorf("create then attach: %s", got)
	}
	mustSucceed(t, call(t, s, "upsert_contact", `{"email": "cy@example.com", "name": "Cy"}`))
	if got := mustSucceed(t, call(t, s, "first_details", `{}`)); got != "Ann B;<no value>;" {
		t.Errorf("details of the first two: %q", got)
	}
	if got := mustSucceed(t, call(t, s, "first_details", `{"n": 3}`)); got != "Ann B;<no value>;Cy;" {
		t.Errorf("details of the first three: %q", got)
	}
}

// TestCallStepsDryRun: a dry run shows every request a tool would send,
// and says which ones depend on what earlier requests answer.
func TestCallStepsDryRun(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, (&crm{}).serve)
	s := build(t, withBackend(srv.URL, "", crmTools))
	got, err := s.DryRun(context.Background(), "upsert_contact", []byte(`{"email": "ann@example.com", "name": "Ann"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# step found\nGET " + srv.URL + "/contacts?email=ann%40example.com\n",
		"# step updated, when ${{ len(steps.found.items) > 0 }}\n(depends on the results of earlier steps: ",
		"# step created, when ${{ len(steps.found.items) == 0 }}\nPOST " + srv.URL + "/contacts\nContent-Type: application/json\n\n{\"email\":\"ann@example.com\",\"name\":\"Ann\"}\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("dry run lacks %q:\n%s", want, got)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("a dry run sent %d requests", n)
	}
}

func TestCallStepDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, steps, want string }{
		{"later step's result", "- call: {as: a, handler: {backend: api, path: '/x/${{ steps.b.id }}'}}\n- call: {as: b, handler: {backend: api, path: /y}}",
			`tools[0].steps[0].call.handler.path: `},
		{"condition not an expression", "- when: 'true'\n  call: {handler: {backend: api, path: /x}}", "tools[0].steps[0].when: when is an expression"},
		{"unknown argument", "- call: {handler: {backend: api, path: '/x/${{ args.idd }}'}}", `did you mean "id"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := withBackend("https://api.example.com", "", "  - name: t\n    description: d\n    args: [{name: id}]\n    steps:\n"+
				indent(tt.steps, "      ")+"    content: [{text: ok}]\n")
			if got := diagnose(t, cfg); !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics %q do not contain %q", got, tt.want)
			}
		})
	}
}

// TestForEachDryRun: a for_each over the arguments shows one request per
// element; over an earlier step's result, it says so.
func TestForEachDryRun(t *testing.T) {
	t.Parallel()
	s := build(t, withBackend("https://crm.example.com", "", `
  - name: t
    description: d
    args: [{name: ids, type: array, items: string}]
    steps:
      - call:
          as: each
          for_each: ${{ args.ids }}
          handler: {backend: api, path: "/contacts/${{ item }}"}
      - call:
          for_each: ${{ steps.each }}
          handler: {backend: api, path: "/contacts/${{ item.id }}/tags"}
    content: [{text: ok}]
`))
	got, err := s.DryRun(context.Background(), "t", []byte(`{"ids": ["c1", "c2"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "# step each\nGET https://crm.example.com/contacts/c1\n\nGET https://crm.example.com/contacts/c2\n\n" +
		"# step step2\n(for_each depends on the results of earlier steps: not a list)\n\n"
	if got != want {
		t.Errorf("dry run:\n%s\nwant\n%s", got, want)
	}
}
