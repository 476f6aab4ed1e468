package runtime

import (
	"context"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestCredentialsMaskedInResults checks that a secret a handler was given
// never reaches a client in a result, while other environment values do.
func TestCredentialsMaskedInResults(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml": `version: 1
tools:
  - name: text
    description: Leaks the token as text.
    handler:
      kind: echo
      result: "token=${API_TOKEN} region=${REGION}"
  - name: structured
    description: Leaks the token as data.
    handler:
      kind: echo
      result:
        token: ${API_TOKEN}
        nested: ["a ${API_TOKEN} b", 1]
        region: ${REGION}
        dsn: ${DB_URL}
resources:
  - uri: file://notes
    name: notes
    file: notes.txt
`,
		"notes.txt": "the token is tok-123456, the password hunter22",
	})
	env := envMap(map[string]string{"API_TOKEN": "tok-123456", "REGION": "eu-west-1",
		"DB_URL": "postgres://app:hunter22@db/shop"})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: env},
		BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	ctx := context.Background()

	res, err := srv.CallTool(ctx, "text", []byte(`{}`), nil)
	if err != nil || textOf(res.Content) != "token=**** region=eu-west-1" {
		t.Errorf("text result: %v %q", err, textOf(res.Content))
	}
	for range 2 { // the second call sees the same masking: nothing shared was changed
		res, err = srv.CallTool(ctx, "structured", []byte(`{}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"token": "****", "nested": []any{"a **** b", int64(1)}, "region": "eu-west-1",
			"dsn": "****"}
		if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
			t.Errorf("structured content (-want +got):\n%s", diff)
		}
		if text := textOf(res.Content); strings.Contains(text, "tok-123456") || strings.Contains(text, "hunter22") {
			t.Errorf("text rendering leaks a secret: %s", text)
		}
	}

	cs := session(t, srv, "", nil, nil)
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file://notes"})
	if err != nil || read.Contents[0].Text != "the token is ****, the password hunter22" {
		// hunter22 alone is not a value from the environment: only the whole DSN is masked
		t.Errorf("resource: %v %+v", err, read)
	}
}

// TestMaskSecretsNotEverything shows both sides of the policy in errors,
// results and logs: a secret (by its name, declared in `secrets:`, fed to
// a credential header or to a DSN's password) is masked, while a scheme, a
// host or a region taken from the environment is shown as it is. Masking
// every value once printed "POST ****://****/v1" and turned "https" into
// "****s".
func TestMaskSecretsNotEverything(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": `version: 1
secrets: [CRM_LOGIN]
tools:
  - name: fail
    description: Fails naming where it went and with what.
    handler:
      kind: echo
      headers: {Authorization: "Basic ${CRM_PAIR}", X-Tenant: "${TENANT}"}
      dsn: postgres://app:${DB_WORD}@${DB_HOST}/shop
      fail: "POST ${SCHEME}://${HOST}/v1 (${TENANT}, ${DB_HOST}) as ${CRM_LOGIN} with ${API_TOKEN}, ${CRM_PAIR}, ${DB_WORD} in ${REGION}: https refused"
  - name: echo
    description: Returns what it was given.
    handler:
      kind: echo
      result: "${{ env.CRM_LOGIN + ' ' + env.REGION + ' ' + env.CRM_PAIR }}"
`})
	env := envMap(map[string]string{"SCHEME": "https", "HOST": "api.example.com", "TENANT": "acme-corp",
		"CRM_LOGIN": "login-4711", "API_TOKEN": "tok-123456", "CRM_PAIR": "pair-value-9", "REGION": "eu-west-1",
		"DB_WORD": "hunter22", "DB_HOST": "db.internal"})
	var logs strings.Builder
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: env},
		BuildOptions{Registry: testRegistry(nil), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	ctx := context.Background()
	want := "POST https://api.example.com/v1 (acme-corp, db.internal) as **** with ****, ****, **** in eu-west-1: https refused"
	res, err := srv.CallTool(ctx, "fail", []byte(`{}`), nil)
	if err != nil || !res.IsError || textOf(res.Content) != want {
		t.Errorf("error text:\n got %q\nwant %q", textOf(res.Content), want)
	}
	srv.audit(ctx, nil, "tool", "fail", res, nil, time.Millisecond)
	if !strings.Contains(logs.String(), strconv.Quote(want)) {
		t.Errorf("log line:\n%s\nwant the error %q", logs.String(), want)
	}
	res, err = srv.CallTool(ctx, "echo", []byte(`{}`), nil)
	if err != nil || textOf(res.Content) != "**** eu-west-1 ****" {
		t.Errorf("result: %v %q", err, textOf(res.Content))
	}
}

// TestDeclaredSecretStaysOnTheServer checks that a variable declared in
// `secrets:` is refused in a field sent to clients, like one named for a
// secret, and that a declaration must be a name.
func TestDeclaredSecretStaysOnTheServer(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": `version: 1
secrets: [CRM_LOGIN, "$${CRM_OTHER}"]
tools:
  - name: t
    description: "Logs in as ${CRM_LOGIN}."
    handler: {kind: echo, result: x}
`})
	_, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")},
		load.Options{LookupEnv: envMap(map[string]string{"CRM_LOGIN": "login-4711"})},
		BuildOptions{Registry: testRegistry(nil)})
	wantDiag(t, ds, `2:22: secrets[1]: "$${CRM_OTHER}" is not an environment variable's name`)
	wantDiag(t, ds, `5:30: tools[0].description: ${CRM_LOGIN} looks like a secret, and this field is sent to clients`)
}

// TestWebhookMaskedInErrors checks that a secret-named variable holding a
// URL without a password (a webhook) is masked in protocol errors, which
// only the redactor sees, not only in results.
func TestWebhookMaskedInErrors(t *testing.T) {
	t.Parallel()
	hook := "https://hooks.example.com/services/T000/B000/XXXXXXXX"
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": `version: 1
resources:
  - uri: x://notify
    name: notify
    handler: {kind: echo, result: "", fail: "posting to ${SLACK_WEBHOOK} failed"}
  - uri: x://base
    name: base
    handler: {kind: echo, result: "", fail: "calling ${API_BASE} failed"}
`})
	env := envMap(map[string]string{"SLACK_WEBHOOK": hook, "API_BASE": "https://api.example.com/v1"})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: env},
		BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	cs := session(t, srv, "", nil, nil)
	for uri, want := range map[string]string{
		"x://notify": "posting to **** failed",
		"x://base":   "calling https://api.example.com/v1 failed", // not a secret: where requests go
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), hook) {
			t.Errorf("%s: got %v, want an error saying %q", uri, err, want)
		}
	}
}
