package load

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestSecretFile reads secrets mounted as files with ${file:PATH}: the
// contents less one trailing line break, a relative path from the
// config's directory, a default for a missing file, and every value a
// secret to mask.
func TestSecretFile(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"secrets/db_password": "hunter2-db\n",
		"secrets/api_token":   "tok-crlf-1\r\n",
		"secrets/two_lines":   "line one\nline two\n\n",
	})
	abs := filepath.Join(dir, "secrets", "db_password")
	config := `version: 1
backends:
  api:
    kind: http
    base_url: https://api.example.com
    headers:
      X-Db: "${file:` + abs + `}"
      X-Api: "${file:secrets/api_token}"
      X-Two: "${file:secrets/two_lines}"
      X-Dev: "${file:/run/secrets/mcpgen_missing_secret:-dev-value}"
      X-Dev-Env: "${file:secrets/none:-${DEV_SECRET}}"
`
	files, ds := Files([]string{writeConfig(t, dir, config)}, Options{LookupEnv: envMap(map[string]string{"DEV_SECRET": "from-env"})})
	if len(ds) > 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	headers := map[string]string{}
	for _, h := range nodePairs(Field(files[0].Config.Backends["api"].Body, "headers")) {
		headers[h[0]] = h[1]
	}
	want := map[string]string{"X-Db": "hunter2-db", "X-Api": "tok-crlf-1", "X-Two": "line one\nline two\n",
		"X-Dev": "dev-value", "X-Dev-Env": "from-env"}
	if diff := cmp.Diff(want, headers); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	creds := files[0].Secrets.Credentials()
	for _, v := range []string{"hunter2-db", "tok-crlf-1", "line one\nline two\n"} {
		if !strings.Contains(strings.Join(creds, "|"), v) {
			t.Errorf("%q is not masked; credentials: %q", v, creds)
		}
	}
}

// TestSecretFileErrors: each way ${file:PATH} can go wrong is an error at
// the reference, and a secret from a file is refused where clients would
// see it.
func TestSecretFileErrors(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"big": strings.Repeat("x", MaxSecretFile+1), "ok": "s3cret-value"})
	special := []string{"/dev/zero"}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		special = append(special, fifo)
	}
	for _, tt := range []struct{ name, value, want string }{
		{"missing", "${file:nope}", `mcpgen.yaml:5:16: backends.api.base_url: ${file:nope}: the file does not exist and there is no default`},
		{"empty path", "x${file:}", `mcpgen.yaml:5:17: backends.api.base_url: ${file:} needs a path: ${file:/run/secrets/NAME}`},
		{"too large", "${file:big}", `mcpgen.yaml:5:16: backends.api.base_url: ${file:big}: file too large: larger than 64KiB`},
		{"device", "${file:" + special[0] + "}", "not a regular file"},
		{"directory", "${file:.}", "not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantDiag(t, loadIn(t, dir, "backends:\n  api:\n    kind: http\n    base_url: \""+tt.value+"\"", nil), tt.want)
		})
	}
	if len(special) > 1 {
		config := "version: 1\nbackends:\n  api:\n    kind: http\n    base_url: \"${file:" + special[1] + "}\"\n"
		_, ds := Files([]string{writeConfig(t, dir, config)}, Options{LookupEnv: envMap(nil)})
		wantDiag(t, ds, "mcpgen.yaml:5:16:", "not a regular file")
	}
	t.Run("skip env", func(t *testing.T) {
		config := "version: 1\nbackends:\n  api:\n    kind: http\n    base_url: \"${file:nope}\"\n"
		if _, ds := Files([]string{writeConfig(t, dir, config)}, Options{SkipEnv: true}); len(ds) > 0 {
			t.Errorf("a missing file with SkipEnv: %v", ds)
		}
		config = "version: 1\nbackends:\n  api:\n    kind: http\n    base_url: \"${file:big}\"\n"
		_, ds := Files([]string{writeConfig(t, dir, config)}, Options{SkipEnv: true})
		wantDiag(t, ds, "file too large")
	})
	t.Run("sent to clients", func(t *testing.T) {
		config := "version: 1\nserver:\n  instructions: \"Use ${file:ok}\"\n"
		_, ds := Files([]string{writeConfig(t, dir, config)}, Options{LookupEnv: envMap(nil)})
		wantDiag(t, ds, "mcpgen.yaml:3:22: server.instructions: ${file:ok} looks like a secret, and this field is sent to clients")
	})
}

// writeConfig writes text to a new file NNN-mcpgen.yaml in dir and
// returns its path.
func writeConfig(t *testing.T, dir, text string) string {
	t.Helper()
	f, err := os.CreateTemp(dir, "*-mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// loadIn loads a config in dir, with env as the environment: the file
// dir/NAME when config is "@NAME", else "version: 1\n" and config written
// to a new file there.
func loadIn(t *testing.T, dir, config string, env map[string]string) Diagnostics {
	t.Helper()
	p := filepath.Join(dir, strings.TrimPrefix(config, "@"))
	if !strings.HasPrefix(config, "@") {
		p = writeConfig(t, dir, "version: 1\n"+config+"\n")
	}
	_, ds := Files([]string{p}, Options{LookupEnv: envMap(env)})
	return ds
}

// nodePairs returns the keys and scalar values of mapping n.
func nodePairs(n *yaml.Node) [][2]string {
	var out [][2]string
	for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
		out = append(out, [2]string{n.Content[i].Value, n.Content[i+1].Value})
	}
	return out
}

// TestSecretFilesListed: the files holding secrets a config read, or
// tried to, are listed for reload to watch, a missing env_file too.
func TestSecretFilesListed(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"token": "tok-0123456789"})
	p := writeConfig(t, dir, "version: 1\nenv_file: .env\nbackends:\n  a: {kind: http, base_url: \"${file:token}\", headers: {X: \"${file:none:-x}\"}}\n")
	files, ds := Files([]string{p}, Options{LookupEnv: envMap(nil)})
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	want := []string{filepath.Join(dir, ".env"), filepath.Join(dir, "token"), filepath.Join(dir, "none")}
	if diff := cmp.Diff(want, files[0].SecretFiles); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
