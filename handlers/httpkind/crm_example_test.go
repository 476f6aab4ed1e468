package httpkind_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestCRMExample runs examples/crm against a fake CRM that checks every
// request's signature, account header and API version.
func TestCRMExample(t *testing.T) {
	t.Parallel()
	config, err := os.ReadFile("../../examples/crm/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	api := &crm{tags: map[string][]string{}}
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mac := hmac.New(sha256.New, []byte("crm-signing-secret"))
		mac.Write([]byte(r.Header.Get("X-Timestamp") + "." + r.Method + "." + r.URL.EscapedPath() + "." + string(body)))
		switch {
		case r.Header.Get("X-Signature") != "v1="+hex.EncodeToString(mac.Sum(nil)):
			jsonReply(401, map[string]any{"error": "bad signature"})(w, r)
			return
		case r.Header.Get("X-Account") != "acme-corp" || r.URL.Query().Get("api-version") != "2024-01":
			jsonReply(400, map[string]any{"error": "account or version missing"})(w, r)
			return
		}
		prefix, rest, ok := strings.Cut(r.URL.Path, "/api/")
		if !ok || (prefix != "" && prefix != "/spaces/sales") {
			jsonReply(404, map[string]any{"error": "no such path " + r.URL.Path})(w, r)
			return
		}
		r.URL.Path = "/" + rest
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		api.serve(w, r)
	})
	env := map[string]string{"CRM_URL": srv.URL, "CRM_ACCOUNT": "acme-corp", "CRM_SIGNING_SECRET": "crm-signing-secret",
		"CRM_SPACE": "sales"}
	s := buildEnv(t, string(config), env)
	ctx := context.Background()
	callText := func(name, args string, ok bool) string {
		t.Helper()
		res, err := handlertest.CallTool(ctx, s, name, []byte(args), nil)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return mustSucceed(t, res)
		}
		return mustFail(t, res)
	}
	if got := callText("upsert_contact", `{"email": "ann@example.com", "name": "Ann"}`, true); got != "Created c1" {
		t.Errorf("upsert: %q", got)
	}
	if got := callText("upsert_contact", `{"email": "ann@example.com", "name": "Ann B"}`, true); got != "Updated c1" {
		t.Errorf("upsert again: %q", got)
	}
	if got := callText("tag_new_contact", `{"email": "bob@example.com", "tag": "vip"}`, true); !strings.Contains(got, `"vip"`) {
		t.Errorf("tag_new_contact: %s", got)
	}
	if got := callText("list_contacts", `{}`, true); !strings.Contains(got, `"pages": 1`) || !strings.Contains(got, "bob@example.com") {
		t.Errorf("list_contacts: %s", got)
	}
	if got := callText("get_contact", `{"id": "c1"}`, true); !strings.Contains(got, `"name": "Ann B"`) {
		t.Errorf("get_contact: %s", got)
	}
	if got := callText("get_contact", `{"id": "c9"}`, false); got != "not found: no contact c9" {
		t.Errorf("get_contact of a missing one: %q", got)
	}
	if r := srv.last(t); !strings.HasPrefix(r.Path, "/spaces/sales/api/") {
		t.Errorf("CRM_SPACE left out of the path: %s", r.Path)
	}

	got, err := s.DryRun(ctx, "upsert_contact", []byte(`{"email": "cy@example.com", "name": "Cy"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"acme-corp", "crm-signing-secret"} {
		if strings.Contains(got, secret) {
			t.Errorf("dry run shows %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "GET "+srv.URL+"/spaces/sales/api/contacts?api-version=2024-01&email=cy%40example.com\n") ||
		!strings.Contains(got, "X-Signature: v1=****\n") {
		t.Errorf("dry run:\n%s", got)
	}
}
