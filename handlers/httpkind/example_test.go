package httpkind_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const exampleConfig = "../../examples/http-api/mcpgen.yaml"

// exampleEnv is the environment of examples/http-api with the fake tracker
// at url.
func exampleEnv(url string) map[string]string {
	return map[string]string{"TRACKER_URL": url, "TRACKER_TOKEN": trackerToken, "ATTACHMENTS_KEY": attachmentsKey,
		"REPORTS_CLIENT_ID": "reports-client", "REPORTS_CLIENT_SECRET": reportsSecret,
		"TIMESHEET_USER": "ann", "TIMESHEET_PASSWORD": "pw-0123456789", "RENDER_KEY": renderKey,
		"EXCHANGE_CLIENT_ID": "exchange-client", "EXCHANGE_CLIENT_SECRET": exchangeSecret,
		"MCP_URL": "https://mcp.test/mcp", "OAUTH_ISSUER": "https://idp.test"}
}

// example builds examples/http-api against a fake tracker.
func example(t *testing.T) (*tracker, *runtime.Server) {
	t.Helper()
	tr := newTracker(t)
	env := exampleEnv(tr.URL)
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv, ds := runtime.Compile([]string{exampleConfig}, load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: registry()})
	if ds.Errors() > 0 || ds.Warnings() > 0 {
		t.Fatalf("the example does not build cleanly:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	return tr, srv
}

func TestExample(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, tool, args string
		wantErr          bool
		want             string
	}{
		{"search by labels, first page", "search_tickets", `{"labels": ["hardware", "urgent"], "limit": 1}`, false,
			"T-1 [open] Printer on fire\nmore: cursor 1"},
		{"search, next page", "search_tickets", `{"labels": ["hardware", "urgent"], "limit": 1, "cursor": "1"}`, false,
			"T-4 [open] Badge reader\n"},
		{"search, nothing", "search_tickets", `{"query": "unicorn"}`, false, "no tickets found\n"},
		{"get", "get_ticket", `{"id": "T-2"}`, false, `"title": "VPN drops"`},
		{"get a missing ticket", "get_ticket", `{"id": "T-999"}`, true,
			"There is no ticket T-999. Use search_tickets to find the right id."},
		{"get an archived ticket", "get_ticket", `{"id": "T-3"}`, true,
			"Ticket T-3 is archived. Use export_open_tickets for live tickets."},
		{"a hostile id is refused by the schema", "get_ticket", `{"id": "../../admin"}`, true, "invalid arguments"},
		{"create", "create_ticket", `{"title": "Coffee machine \"leaks\"", "labels": ["kitchen"], "estimate_hours": 1.5}`, false,
			`Created T-5: Coffee machine "leaks"`},
		{"update through a method override", "update_ticket", `{"id": "T-1", "status": "closed"}`, false, `"status": "closed"`},
		{"comment", "comment_ticket", `{"id": "T-2", "body": "Rebooted the *router*."}`, false, "Comment C-1 added to T-2."},
		{"comment on a missing ticket", "comment_ticket", `{"id": "T-77", "body": "hello"}`, true, "HTTP 404 Not Found: no such ticket"},
		{"export follows pages", "export_open_tickets", `{"label": "urgent"}`, false, `"pages": 1`},
		{"preview markdown", "preview_markdown", `{"text": "**bold"}`, false, "<p><b>bold</p>\n<!-- text/markdown; charset=utf-8 -->"},
		{"team stats over OAuth with indexed labels", "team_stats", `{"team": "it", "labels": ["urgent", "network"]}`, false,
			"2 open, 40 closed; median cycle time 3.5 days"},
		{"a report job polled after 202", "yearly_report", `{"team": "it", "year": 2025}`, false,
			"Report for it 2025: https://reports.test/it-1.pdf"},
		{"log time with basic auth and a form", "log_time", `{"id": "T-1", "hours": 1.5, "tags": ["onsite", "urgent"]}`, false, "OK"},
		{"a legacy error inside a 200", "log_time", `{"id": "T-91", "hours": 2}`, true,
			"The timesheet system refused the entry: ERROR: unknown ticket"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, srv := example(t)
			res := call(t, srv, tt.tool, tt.args)
			var got string
			if tt.wantErr {
				got = mustFail(t, res)
			} else {
				got = mustSucceed(t, res)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("result %q does not contain %q", got, tt.want)
			}
		})
	}
}

func TestExampleWrites(t *testing.T) {
	t.Parallel()
	tr, srv := example(t)
	mustSucceed(t, call(t, srv, "create_ticket", `{"title": "Coffee", "priority": 2, "estimate_hours": 1.5}`))
	tr.mu.Lock()
	created := tr.tickets[len(tr.tickets)-1]
	hdr := tr.lastHdrs
	tr.mu.Unlock()
	data, _ := json.Marshal(created)
	want := `{"estimate":1.5,"id":"T-5","priority":2,"source":{"kind":"assistant","version":1},"status":"open","title":"Coffee"}`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("created ticket (-want +got):\n%s", diff)
	}
	if hdr.Get("X-Request-Source") != "mcpgen" || hdr.Get("User-Agent") != "mcpgen-tracker/1" {
		t.Errorf("headers: %v", hdr)
	}

	mustSucceed(t, call(t, srv, "update_ticket", `{"id": "T-1", "status": "closed"}`))
	got := mustFail(t, call(t, srv, "update_ticket", `{"id": "T-1", "status": "in_progress"}`))
	if want := "a closed ticket cannot move to in_progress. Reopen the ticket first (status: open)."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	mustSucceed(t, call(t, srv, "upload_attachment", `{"id": "T-2", "filename": "vpn.log", "content": "line 1\nline 2\n"}`))
	tr.mu.Lock()
	up := tr.uploads
	tr.mu.Unlock()
	wantUp := []map[string]string{{"ticket": "T-2", "filename": "vpn.log", "content": "line 1\nline 2\n", "meta": `{"name":"vpn.log","source":"mcpgen"}`}}
	if diff := cmp.Diff(wantUp, up); diff != "" {
		t.Errorf("uploads (-want +got):\n%s", diff)
	}

	mustSucceed(t, call(t, srv, "log_time", `{"id": "T-1", "hours": 1.5, "tags": ["onsite", "urgent"]}`))
	tr.mu.Lock()
	hours := tr.hours
	tr.mu.Unlock()
	if diff := cmp.Diff([]string{"hours=1.5&tag=onsite&tag=urgent&ticket=T-1"}, hours); diff != "" {
		t.Errorf("timesheet (-want +got):\n%s", diff)
	}
}

func TestExampleAttachmentAndResource(t *testing.T) {
	t.Parallel()
	_, srv := example(t)
	res := call(t, srv, "get_attachment", `{"attachment_id": "A-1"}`)
	if diff := cmp.Diff([]mcp.Content{&mcp.ImageContent{Data: []byte(pngBytes), MIMEType: "image/png"}}, res.Content); diff != "" {
		t.Errorf("attachment (-want +got):\n%s", diff)
	}
	cs := handlertest.Client(t, srv)
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "tracker://tickets/T-2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, `"title":"VPN drops"`) {
		t.Errorf("resource: %+v", rr.Contents)
	}
}

func TestExampleDryRun(t *testing.T) {
	t.Parallel()
	api, srv := example(t)
	got, err := srv.DryRun(context.Background(), "comment_ticket", []byte(`{"id": "T-2", "body": "hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	// The base URL from the environment is shown (it has no credentials);
	// the token from the environment is masked.
	want := "POST " + api.URL + "/api/v1/tickets/T-2/comments\nAccept: application/json\nAuthorization: Bearer ****\n" +
		"Content-Type: application/json\nUser-Agent: mcpgen-tracker/1\n\n{\"body\":\"hi\"}\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dry run (-want +got):\n%s", diff)
	}
}

func TestExampleWarnsAboutInsecureTLS(t *testing.T) {
	t.Parallel()
	env := exampleEnv("https://tracker.example")
	env["TRACKER_TLS_INSECURE"] = "true"
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv, ds := runtime.Compile([]string{exampleConfig}, load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: registry()})
	if srv != nil {
		defer srv.Close()
	}
	if ds.Errors() != 0 || ds.Warnings() != 1 || !strings.Contains(ds.Error(), "tls.insecure: TLS certificates are not verified") {
		t.Errorf("want one warning about insecure TLS, got:\n%v", ds)
	}
}

// TestExampleValidatesWithoutSecrets is `mcpgen validate --skip-env` on a CI
// machine without the variables: warnings, no errors; calls say what is
// missing.
func TestExampleValidatesWithoutSecrets(t *testing.T) {
	t.Parallel()
	lookup := func(string) (string, bool) { return "", false }
	srv, ds := runtime.Compile([]string{exampleConfig}, load.Options{LookupEnv: lookup, SkipEnv: true},
		runtime.BuildOptions{Registry: registry()})
	if ds.Errors() != 0 || srv == nil {
		t.Fatalf("want no errors, got:\n%v", ds)
	}
	defer srv.Close()
	// the variables were to be skipped: nothing is said of what they make
	if len(ds) != 0 {
		t.Errorf("want no warnings, got:\n%v", ds)
	}
	if got := mustFail(t, call(t, srv, "get_ticket", `{"id": "T-1"}`)); !strings.Contains(got, "base_url is not set") {
		t.Errorf("got %q", got)
	}
}

// TestExampleActsAsTheCaller: my_tickets asks for the caller's own tickets
// with a token exchanged for theirs, forwarding the trace header.
func TestExampleActsAsTheCaller(t *testing.T) {
	t.Parallel()
	tr, srv := example(t)
	ann := auth.NewCaller(auth.Caller{Subject: "ann", Claims: map[string]any{"email": "ann@example.com"}}, userToken)
	ctx := handlers.WithIncomingHeader(auth.WithCaller(context.Background(), ann),
		http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})
	got := mustSucceed(t, handlertest.Call(t, ctx, srv, "my_tickets", `{}`))
	if got != "T-2 [open] VPN drops\n" {
		t.Errorf("my_tickets = %q", got)
	}
	tr.mu.Lock()
	hdrs := tr.lastHdrs
	tr.mu.Unlock()
	if a := hdrs.Get("Authorization"); a != "Bearer "+annAtTracker {
		t.Errorf("the tracker got Authorization %q, want ann's exchanged token", a)
	}
	if tp := hdrs.Get("Traceparent"); tp == "" {
		t.Error("traceparent was not forwarded")
	}
	res := handlertest.Call(t, ctx, srv, "my_tickets", `{"assignee": "boss@example.com"}`)
	if msg := mustFail(t, res); !strings.Contains(msg, "assignee is set by the server") {
		t.Errorf("passing assignee: %q", msg)
	}
	if msg := mustFail(t, call(t, srv, "my_tickets", `{}`)); !strings.Contains(msg, "acts for the authenticated caller") {
		t.Errorf("without a caller: %q", msg)
	}
}
