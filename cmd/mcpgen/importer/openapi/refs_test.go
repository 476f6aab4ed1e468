package openapi

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// refDoc is a description whose one schema is the $ref given.
func refDoc(ref string) string {
	return fmt.Sprintf(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: %q}}}
`, ref)
}

// TestRefsStayWhereTheyArePointed: by default a $ref reads nothing outside
// the description; --file-refs reads files in its folder only; no error
// quotes what a refused file holds.
func TestRefsStayWhereTheyArePointed(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	writeTestFile(t, secret, "root:x:0:0:the secret line\n")
	writeTestFile(t, filepath.Join(dir, "ok.yaml"), "Item: {type: object, properties: {id: {type: string}}}\n")
	if err := os.Symlink(secret, filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, ref string
		opts      LoadOptions
		want      string // "" when it loads
	}{
		{"a file, by default", "ok.yaml#/Item", LoadOptions{}, "--file-refs"},
		{"a file in the folder", "ok.yaml#/Item", LoadOptions{FileRefs: true}, ""},
		{"a file outside the folder", "../" + filepath.Base(outside) + "/secret.yaml#/x", LoadOptions{FileRefs: true}, "outside"},
		{"an absolute file URL", "file://" + filepath.ToSlash(secret) + "#/x", LoadOptions{FileRefs: true}, "outside"},
		{"/etc/passwd", "file:///etc/passwd#/x", LoadOptions{FileRefs: true}, "outside"},
		{"a symbolic link leading out", "link.yaml#/x", LoadOptions{FileRefs: true}, "outside"},
		{"a URL, by default", "http://127.0.0.1:9/x.yaml#/x", LoadOptions{FileRefs: true}, "--remote-refs"},
		{"another scheme", "ftp://127.0.0.1/x.yaml#/x", LoadOptions{FileRefs: true, RemoteRefs: true}, "only files and http(s)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "api.yaml")
			writeTestFile(t, path, refDoc(tt.ref))
			_, err := Load(context.Background(), path, tt.opts)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("got %v, want an error saying %q", err, tt.want)
			case err != nil && strings.Contains(err.Error(), "secret line"):
				t.Fatalf("the error quotes the file: %v", err)
			}
		})
	}
}

// TestRemoteRefsReachOnlyPublicAddresses: with --remote-refs, a $ref to a
// loopback, private or link-local address is refused before a connection
// is made (the cloud metadata address is never dialled), unless its host
// is allowed by name; a description read from a URL cannot refer to local
// files.
func TestRemoteRefsReachOnlyPublicAddresses(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/api.yaml" {
			fmt.Fprint(w, refDoc("file:///etc/passwd#/x"))
			return
		}
		fmt.Fprint(w, "Item: {type: object}\n")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	dir := t.TempDir()
	path := filepath.Join(dir, "api.yaml")
	for _, tt := range []struct {
		name, ref string
		opts      LoadOptions
		want      string
		hits      int64
	}{
		{"loopback", srv.URL + "/s.yaml#/Item", LoadOptions{RemoteRefs: true}, "not a public address", 0},
		{"loopback allowed by name", srv.URL + "/s.yaml#/Item", LoadOptions{RemoteRefs: true, AllowHosts: []string{"127.0.0.1"}}, "", 1},
		{"link-local metadata", "http://169.254.169.254:" + port + "/latest#/x", LoadOptions{RemoteRefs: true}, "not a public address", 0},
		{"private", "http://10.1.2.3:" + port + "/x#/x", LoadOptions{RemoteRefs: true}, "not a public address", 0},
		{"IPv6 loopback", "http://[::1]:" + port + "/x#/x", LoadOptions{RemoteRefs: true}, "not a public address", 0},
		{"IPv4-mapped loopback", "http://[::ffff:127.0.0.1]:" + port + "/x#/x", LoadOptions{RemoteRefs: true}, "not a public address", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hits.Store(0)
			writeTestFile(t, path, refDoc(tt.ref))
			_, err := Load(context.Background(), path, tt.opts)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if hits.Load() != tt.hits {
				t.Errorf("%d requests reached the server, want %d", hits.Load(), tt.hits)
			}
		})
	}
	_, err := Load(context.Background(), srv.URL+"/api.yaml", LoadOptions{FileRefs: true, RemoteRefs: true})
	if err == nil || !strings.Contains(err.Error(), "cannot refer to local files") || strings.Contains(err.Error(), "root:") {
		t.Errorf("a remote description referring to /etc/passwd: %v", err)
	}
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestHugeDescriptionStopsEarly: a description of 100,000 operations is
// refused once its paths are counted, before its refs are resolved or a
// tool is made, with the flag that raises the limit. (Read whole, it took
// 17 s and 1.8 GB, to write a config mcpgen would not load.)
func TestHugeDescriptionStopsEarly(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Missing"}}}}}}}`, i)
	}
	b.WriteString(`}}`)
	path := filepath.Join(t.TempDir(), "huge.json")
	writeTestFile(t, path, b.String())
	_, err := Load(context.Background(), path, LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "100000 operations, more than 5000 (--max-operations)") {
		t.Fatalf("got %v, want the count refused", err)
	}
}
