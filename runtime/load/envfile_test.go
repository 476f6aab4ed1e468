package load

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEnvFile feeds ${VAR} from an env_file: the environment wins over
// the file, the file's values feed the files the config includes, and a
// value that feeds a credential field is a secret to mask.
func TestEnvFile(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml": `version: 1
env_file: .env
include: [more.yaml]
backends:
  api:
    kind: http
    base_url: "${BASE_URL}"
    auth: {bearer: "${CRM_CRED}"}
    headers: {X-Region: "${REGION}"}
`,
		"more.yaml": "version: 1\nbackends:\n  db: {kind: sql, driver: sqlite, dsn: \"${DB_FILE}\"}\n",
		".env": "# local settings\nBASE_URL=https://dev.example.com\nexport CRM_CRED='cred-from-file'\n" +
			"REGION=from-file # a comment\nDB_FILE=\"${REGION}.db\"\n",
	})
	env := envMap(map[string]string{"REGION": "from-env"})
	files, ds := Files([]string{filepath.Join(dir, "mcpgen.yaml")}, Options{LookupEnv: env})
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	api, db := files[0].Config.Backends["api"].Body, files[1].Config.Backends["db"].Body
	got := map[string]string{"base_url": Field(api, "base_url").Value, "bearer": Field(Field(api, "auth"), "bearer").Value,
		"region": Field(Field(api, "headers"), "X-Region").Value, "dsn": Field(db, "dsn").Value}
	want := map[string]string{"base_url": "https://dev.example.com", "bearer": "cred-from-file",
		"region": "from-env", "dsn": "from-file.db"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"cred-from-file"}, files[0].Secrets.Credentials()); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
}

// TestEnvFileErrors: a missing env_file is skipped; one that cannot be
// read or parsed is an error at its own line, quoting no value.
func TestEnvFileErrors(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"bad-name.env":  "A=1\nGOOD=2\nBAD-NAME=hunter2-secret\n",
		"unclosed.env":  "A=1\n\nPASSWORD=\"hunter2-secret\nB=2\n",
		"dir.env/x":     "",
		"missing.yaml":  "version: 1\nenv_file: nope.env\nbackends:\n  a: {kind: http, base_url: \"${NOT_SET}\"}\n",
		"var-path.yaml": "version: 1\nenv_file: \"${HOME}/.env\"\n",
	})
	for _, tt := range []struct{ name, config, want string }{
		{"missing file skipped", "@missing.yaml", "missing.yaml:4:30: backends.a.base_url: ${NOT_SET} is not set and has no default"},
		{"bad name", "env_file: bad-name.env", "bad-name.env:3:1: env_file: unexpected character \"-\" in variable name; a line is NAME=value"},
		{"unterminated", "env_file: unclosed.env", "unclosed.env:3:10: env_file: unterminated quoted value; a line is NAME=value"},
		{"directory", "env_file: dir.env", "env_file: {DIR}/dir.env: cannot read file: not a regular file (a directory)"},
		{"device", "env_file: /dev/zero", "mcpgen.yaml:2:11: env_file: /dev/zero: cannot read file: not a regular file"},
		{"variable in path", "@var-path.yaml", "var-path.yaml:2:11: env_file: env_file is read before variables are expanded"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := loadIn(t, dir, tt.config, map[string]string{"HOME": "/home/x"})
			wantDiag(t, ds, strings.ReplaceAll(tt.want, "{DIR}", dir))
			for _, d := range ds {
				if strings.Contains(d.String(), "hunter2") {
					t.Errorf("a diagnostic quotes a value: %s", d)
				}
			}
		})
	}
}
