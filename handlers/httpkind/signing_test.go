package httpkind_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// hmacServer answers 200 when a request carries a valid webhook-style
// signature (HMAC-SHA256 over timestamp, method, path and body, sent as
// `v1=HEX` with the timestamp in X-Timestamp), and 401 otherwise.
func hmacServer(t *testing.T, secret string) *recorder {
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(r.Header.Get("X-Timestamp") + "." + r.Method + "." + r.URL.EscapedPath() + "." + string(body)))
		want := "v1=" + hex.EncodeToString(mac.Sum(nil))
		if r.Header.Get("X-Timestamp") == "" || !hmac.Equal([]byte(want), []byte(r.Header.Get("X-Signature"))) {
			jsonReply(401, map[string]any{"error": "bad signature " + r.Header.Get("X-Signature")})(w, r)
			return
		}
		jsonReply(200, map[string]any{"ok": true})(w, r)
	})
}

const hmacBackend = `signing:
  hmac:
    secret: ${HOOK_SECRET}
    header: X-Signature
    timestamp_header: X-Timestamp
    message: ${{ request.timestamp + "." + request.method + "." + request.path + "." + request.body }}
    value: v1=${{ signature }}
`

func TestHMACSigning(t *testing.T) {
	t.Parallel()
	srv := hmacServer(t, "hook-secret-1")
	cfg := withBackend(srv.URL+"/api", hmacBackend,
		tool("- {name: id}\n- {name: text}", "method: POST\npath: /notes/${{ args.id }}\nbody:\n  json: {text: '${{ args.text }}'}"))
	s := buildEnv(t, cfg, map[string]string{"HOOK_SECRET": "hook-secret-1"})
	res, err := handlertest.CallTool(context.Background(), s, "t", []byte(`{"id": "a b", "text": "hi"}`), nil)
	if err != nil || res.IsError {
		t.Fatalf("the server refused the signature: %v %s", err, mustSucceed(t, res))
	}
	got, err := s.DryRun(context.Background(), "t", []byte(`{"id": "7", "text": "hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "X-Signature: v1=****\n") || !strings.Contains(got, "X-Timestamp: ") {
		t.Errorf("dry run does not show the masked signature:\n%s", got)
	}

	// the wrong secret: the server refuses, and nothing secret is shown
	s = buildEnv(t, cfg, map[string]string{"HOOK_SECRET": "wrong-secret-2"})
	res, err = handlertest.CallTool(context.Background(), s, "t", []byte(`{"id": "7", "text": "hi"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	text := mustFail(t, res)
	if !strings.Contains(text, "401") || strings.Contains(text, "wrong-secret-2") {
		t.Errorf("error text: %s", text)
	}
}

func TestHMACSigningDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, signing, want string }{
		{"algorithm", "signing: {hmac: {secret: s, header: X-Sig, algorithm: md5}}", `expected one of sha256, sha512, sha1, got "md5"`},
		{"message names", "signing: {hmac: {secret: s, header: X-Sig, message: '${{ request.bdy }}'}}", `did you mean "body"`},
		{"header", "signing: {hmac: {secret: s, header: 'X Sig'}}", "signing.hmac.header"},
		{"both", "signing: {hmac: {secret: s, header: X-Sig}, aws_sigv4: {region: r, service: s, access_key_id: a, secret_access_key: b}}", "signing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := diagnose(t, withBackend("https://api.example.com", tt.signing, tool("", "path: /x")))
			if !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics %q do not contain %q", got, tt.want)
			}
		})
	}
}

// TestAWSSigV4 checks the signature the way AWS does: the server signs the
// same request again with the same credentials and time, and compares.
func TestAWSSigV4(t *testing.T) {
	t.Parallel()
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "aws-secret-key-1", SessionToken: "session-token-1"}
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
		if err != nil {
			jsonReply(400, map[string]any{"error": "no X-Amz-Date"})(w, r)
			return
		}
		again := r.Clone(context.Background())
		again.Header = http.Header{}
		for _, name := range []string{"Content-Type", "X-Amz-Security-Token"} {
			if v := r.Header.Get(name); v != "" {
				again.Header.Set(name, v)
			}
		}
		sum := sha256.Sum256(body)
		if err := v4.NewSigner().SignHTTP(context.Background(), creds, again, hex.EncodeToString(sum[:]), "execute-api", "eu-west-1", at); err != nil {
			t.Error(err)
		}
		if got, want := r.Header.Get("Authorization"), again.Header.Get("Authorization"); got != want {
			jsonReply(403, map[string]any{"error": "signature mismatch"})(w, r)
			return
		}
		jsonReply(200, map[string]any{"ok": true})(w, r)
	})
	cfg := withBackend(srv.URL, `signing:
  aws_sigv4: {region: eu-west-1, service: execute-api, access_key_id: "${AWS_ACCESS_KEY_ID}",
    secret_access_key: "${AWS_SECRET_ACCESS_KEY}", session_token: "${AWS_SESSION_TOKEN}"}
`, tool("- {name: text}", "method: POST\npath: /prod/notes\nbody:\n  json: {text: '${{ args.text }}'}"))
	s := buildEnv(t, cfg, map[string]string{"AWS_ACCESS_KEY_ID": creds.AccessKeyID,
		"AWS_SECRET_ACCESS_KEY": creds.SecretAccessKey, "AWS_SESSION_TOKEN": creds.SessionToken})
	res, err := handlertest.CallTool(context.Background(), s, "t", []byte(`{"text": "hi"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, res)
	got, err := s.DryRun(context.Background(), "t", []byte(`{"text": "hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"AKIDEXAMPLE", "aws-secret-key-1", "session-token-1"} {
		if strings.Contains(got, secret) {
			t.Errorf("dry run shows %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "Signature=****") {
		t.Errorf("dry run does not show the masked signature:\n%s", got)
	}
}

// TestCredentialFromSeveralValues: a header computed from two variables is
// sent as computed, and masked whole wherever it shows (a response that
// echoes it, a dry run): what computes it knows its inputs are secrets.
func TestCredentialFromSeveralValues(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if !ok || user != "ann" || pass != "pw12" {
			jsonReply(401, map[string]any{"error": "who?"})(w, r)
			return
		}
		jsonReply(200, map[string]any{"seen": r.Header.Get("Authorization")})(w, r)
	})
	header := `{Authorization: "Basic ${{ toBase64(env.CRM_USER + ':' + env.CRM_PASSWORD) }}"}`
	for _, cfg := range []string{
		withBackend(srv.URL, "", tool("", "headers: "+header)), // the tool's
		withBackend(srv.URL, "headers: "+header, tool("", "")), // the backend's, computed once
	} {
		s := buildEnv(t, cfg, map[string]string{"CRM_USER": "ann", "CRM_PASSWORD": "pw12"})
		res, err := handlertest.CallTool(context.Background(), s, "t", []byte(`{}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := mustSucceed(t, res); !strings.Contains(got, `"seen": "****"`) {
			t.Errorf("result: %s", got)
		}
		got, err := s.DryRun(context.Background(), "t", []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if want := "GET " + srv.URL + "\nAuthorization: ****\n"; got != want {
			t.Errorf("dry run:\n%s\nwant\n%s", got, want)
		}
	}
}

// TestBackendHeaderExpressions: a backend's headers are computed when the
// config loads; they cannot read a tool's arguments. (They were sent
// literally, "${{ … }}" and all.)
func TestBackendHeaderExpressions(t *testing.T) {
	t.Parallel()
	got := diagnose(t, withBackend("https://api.example.com", "headers: {X-Id: '${{ args.id }}'}", tool("- {name: id}", "")))
	if !strings.Contains(got, "backends.api.headers.X-Id") {
		t.Errorf("diagnostics: %s", got)
	}
}
