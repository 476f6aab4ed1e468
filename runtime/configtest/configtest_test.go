package configtest_test

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/configtest"
)

// write writes files into a new directory and returns its path.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run loads and runs the test file at path.
func run(t *testing.T, path string, opts configtest.Options) []*configtest.Result {
	t.Helper()
	s, ds := configtest.Load(path)
	if ds.Errors() > 0 {
		t.Fatalf("loading %s:\n%v", path, ds)
	}
	if opts.Registry == nil {
		opts.Registry = builtin.Registry
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = func(string) (string, bool) { return "", false }
	}
	rs, err := configtest.Run(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// failures lists each case's failures as "name: diagnostic".
func failures(rs []*configtest.Result) []string {
	var out []string
	for _, r := range rs {
		for _, f := range r.Failures {
			out = append(out, r.Name+": "+f.String())
		}
	}
	return out
}

const echoConfig = `version: 1
tools:
  - name: hello
    description: Says hello.
    args: [{name: who, required: true}]
    content:
      - text: "Hello, {{ .args.who }}!"
  - name: run
    description: Runs a command.
    handler:
      kind: shell
      command: [git, status]
`

// TestExpectations: each kind of expectation passes when it holds and,
// when it does not, fails at its own line and column with what came back.
func TestExpectations(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": echoConfig, "mcpgen.test.yaml": `tests:
  - name: holds
    call: hello
    args: {who: Ada}
    expect:
      text: {equals: "Hello, Ada!", contains: Ada, not_contains: Bob, matches: '^Hello, \w+!$'}
  - name: text differs
    call: hello
    args: {who: Ada}
    expect:
      text: {contains: Bob}
  - name: unexpected error
    call: hello
  - name: error expected
    call: hello
    args: {who: Ada}
    expect: {is_error: true}
  - name: no such tool
    call: helo
  - name: stubbed command fails
    call: run
    stubs: [{command: git, stderr: "fatal: not a git repository", exit_code: 128}]
    expect:
      is_error: true
      text: {contains: not a git repository}
  - name: stub unused
    call: hello
    args: {who: Ada}
    stubs: [{command: git}]
`})
	got := failures(run(t, filepath.Join(dir, "mcpgen.test.yaml"), configtest.Options{}))
	f := filepath.Join(dir, "mcpgen.test.yaml")
	want := []string{
		`text differs: ` + f + `:11:24: tests[1].expect.text.contains: "Bob" not found in "Hello, Ada!"`,
		`unexpected error: ` + f + `:12:11: tests[2].expect.is_error: want no error, got an error: "validating \"arguments\": validating root: required: missing properties: [\"who\"]"`,
		`error expected: ` + f + `:17:24: tests[3].expect.is_error: want an error, got no error: "Hello, Ada!"`,
		`no such tool: ` + f + `:19:11: tests[4].call: no tool "helo" in [hello run]`,
		`stub unused: ` + f + `:29:13: tests[6].stubs[0]: no command ran that the stub of "git" replaces; ` +
			`a stub replaces a command's program, a script's shell, or a command a script runs by a name of letters, ` +
			`digits and _ (as a shell function: not through exec, command, env or xargs)`,
	}
	if len(got) != len(want) {
		t.Fatalf("failures:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		// the SDK's wording of a schema error is its own: compare up to it
		if i == 1 {
			if !strings.HasPrefix(got[i], want[i][:strings.Index(want[i], "got an error")]) {
				t.Errorf("failure %d:\n got %s\nwant %s", i, got[i], want[i])
			}
			continue
		}
		if got[i] != want[i] {
			t.Errorf("failure %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// TestLoadErrors: mistakes in a test file are positioned, with a hint.
func TestLoadErrors(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": echoConfig, "mcpgen.test.yaml": `tests:
  - name: a
    call: hello
    expect:
      txt: {contains: x}
  - name: a
    call: hello
    read: x://y
    expect:
      text: {matches: "("}
`})
	_, ds := configtest.Load(filepath.Join(dir, "mcpgen.test.yaml"))
	var got []string
	for _, d := range ds {
		got = append(got, strings.TrimPrefix(d.String(), dir+"/"))
	}
	want := []string{
		`mcpgen.test.yaml:5:7: tests[0].expect: unknown field "txt"; did you mean "text"?`,
		`mcpgen.test.yaml:6:11: tests[1].name: duplicate test name "a"; tests[0] has it too; names file recordings and select tests`,
		`mcpgen.test.yaml:8:5: tests[1].read: give exactly one of call, read, prompt; found call and read`,
		"mcpgen.test.yaml:10:23: tests[1].expect.text.matches: error parsing regexp: missing closing ): `(`",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

const apiConfig = `version: 1
backends:
  api:
    kind: http
    base_url: ${API_URL}
    auth: {bearer: "${API_TOKEN}"}
tools:
  - name: get_item
    description: One item.
    args: [{name: id, required: true}]
    handler:
      backend: api
      path: /items/${{ args.id }}
      query: {verbose: "true"}
`

// TestRecordThenReplay: --record calls the real API once and stores the
// exchange without the token; replay answers from it with the API gone,
// and a request that was not recorded fails, naming the nearest one.
func TestRecordThenReplay(t *testing.T) {
	const token = "s3cr3t-token-value"
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Api-Key-Echo", token)
		w.Write([]byte(`{"id":"` + strings.TrimPrefix(r.URL.Path, "/items/") + `","name":"keyboard","owner":"` + token + `"}`))
	}))
	dir := write(t, map[string]string{"mcpgen.yaml": apiConfig, "mcpgen.test.yaml": `env:
  API_URL: https://api.example.com
tests:
  - name: an item
    call: get_item
    args: {id: "7"}
    expect:
      json: {name: keyboard}
`})
	path := filepath.Join(dir, "mcpgen.test.yaml")
	env := func(name string) (string, bool) {
		switch name {
		case "API_TOKEN":
			return token, true
		case "API_URL":
			return api.URL, true // recording: the real API's, over the file's
		}
		return "", false
	}
	if f := failures(run(t, path, configtest.Options{Record: true, LookupEnv: env})); len(f) > 0 {
		t.Fatalf("recording: %v", f)
	}
	recorded, err := os.ReadFile(filepath.Join(dir, "mcpgen.recorded.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(recorded), token) || !strings.Contains(string(recorded), "[scrubbed]") {
		t.Fatalf("the recording keeps the token or scrubs nothing:\n%s", recorded)
	}
	api.Close()
	if f := failures(run(t, path, configtest.Options{})); len(f) > 0 {
		t.Fatalf("replaying: %v", f)
	}

	changed := strings.Replace(apiConfig, `verbose: "true"`, `verbose: "false"`, 1)
	os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(changed), 0o644)
	got := failures(run(t, path, configtest.Options{}))
	want := regexp.MustCompile(`^an item: .*mcpgen.test.yaml:4:11: tests\[0\]: unrecorded request GET https://api.example.com/items/7\?verbose=false; nearest recorded: GET /items/7\?verbose=true \(the query differs\)$`)
	if len(got) != 1 || !want.MatchString(got[0]) {
		t.Errorf("got %q, want one failure matching %s", got, want)
	}
}

// TestStubsInAScript: a stub of a command replaces it where a script runs
// it by name, with its output and exit status; a name that cannot be a
// shell function's is not replaced, and says why.
func TestStubsInAScript(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": `version: 1
tools:
  - name: log
    description: The last commit, and whether the tree is clean.
    handler:
      kind: shell
      script: |
        git log -1 --format=%s
        if git diff --quiet; then echo clean; else echo "dirty ($?)"; fi
`, "mcpgen.test.yaml": `tests:
  - name: stubbed inside the script
    call: log
    stubs: [{command: git, stdout: "fix the parser\n", exit_code: 1}]
    expect:
      text: {equals: "fix the parser\nfix the parser\ndirty (1)"}
  - name: a name that is not a function's
    call: log
    stubs: [{command: git, stdout: "x\n"}, {command: docker-compose}]
`})
	got := failures(run(t, filepath.Join(dir, "mcpgen.test.yaml"), configtest.Options{}))
	if len(got) != 1 || !strings.Contains(got[0], `tests[1].stubs[1]: no command ran that the stub of "docker-compose" replaces`) {
		t.Errorf("failures:\n%s", strings.Join(got, "\n"))
	}
}

// TestRecordKeepsHandWritten: --record sends only the cases without
// hand-written exchanges to the real API; the others replay theirs with
// the stand-ins of the test file (its URL, its token), as without it.
func TestRecordKeepsHandWritten(t *testing.T) {
	var hits atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"real"}`))
	}))
	defer api.Close()
	dir := write(t, map[string]string{"mcpgen.yaml": apiConfig, "mcpgen.test.yaml": `env:
  API_URL: https://api.example.com
  API_TOKEN: test-token
tests:
  - name: written by hand
    call: get_item
    args: {id: "7"}
    http:
      - request:
          url: https://api.example.com/items/7?verbose=true
          headers: {Authorization: Bearer test-token}
        response:
          headers: {Link: '<https://api.example.com/items/8>; rel="next"'}
          json: {name: keyboard}
    expect:
      json: {name: keyboard}
  - name: recorded
    call: get_item
    args: {id: "8"}
    expect:
      json: {name: real}
`})
	env := func(name string) (string, bool) {
		switch name {
		case "API_TOKEN":
			return "real-token-value", true
		case "API_URL":
			return api.URL, true
		}
		return "", false
	}
	if f := failures(run(t, filepath.Join(dir, "mcpgen.test.yaml"), configtest.Options{Record: true, LookupEnv: env})); len(f) > 0 {
		t.Fatalf("recording: %v", f)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("the real API got %d requests, want 1 (the case without exchanges)", n)
	}
}

// TestSeedAndSkip: a case's SQL seeds the in-memory database its server
// starts with; a file that needs an unset variable skips every case.
func TestSeedAndSkip(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": `version: 1
backends:
  db: {kind: sql, driver: sqlite, dsn: ":memory:"}
tools:
  - name: count
    description: Counts the rows of t.
    handler: {backend: db, query: "SELECT count(*) AS n FROM t", one_row: true}
`, "mcpgen.test.yaml": `seed:
  db: CREATE TABLE t (x INTEGER)
tests:
  - name: empty
    call: count
    expect: {json: {n: 0}}
  - name: seeded
    call: count
    seed: {db: "INSERT INTO t VALUES (1), (2)"}
    expect: {json: {n: 2}}
  - name: no such backend
    call: count
    seed: {nodb: "SELECT 1"}
`, "skip.test.yaml": "config: [mcpgen.yaml]\nneeds_env: [NOT_SET_ANYWHERE]\ntests:\n  - {name: a, call: count}\n"})
	got := failures(run(t, filepath.Join(dir, "mcpgen.test.yaml"), configtest.Options{}))
	if len(got) != 1 || !strings.HasSuffix(got[0], `mcpgen.test.yaml:13:18: tests[2].seed.nodb: no sql backend "nodb" in the config`) {
		t.Errorf("failures: %q", got)
	}
	rs := run(t, filepath.Join(dir, "skip.test.yaml"), configtest.Options{})
	if !rs[0].Skipped || rs[0].SkipReason != "NOT_SET_ANYWHERE is not set" {
		t.Errorf("want the case skipped, got %+v", rs[0])
	}
}

// TestReports: the JUnit report is XML with a failure per failed case;
// GitHub annotations point at the failure's line.
func TestReports(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": echoConfig, "mcpgen.test.yaml": `tests:
  - {name: ok, call: hello, args: {who: a}}
  - {name: bad, call: hello, args: {who: a}, expect: {text: {equals: b}}}
`})
	path := filepath.Join(dir, "mcpgen.test.yaml")
	all := []*configtest.SuiteResult{{Path: path, Results: run(t, path, configtest.Options{Run: regexp.MustCompile("ok|bad")})}}
	var b strings.Builder
	if err := configtest.WriteJUnit(&b, all); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string  `xml:"name,attr"`
				Failure *string `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Tests != 2 || doc.Failures != 1 || doc.Suites[0].Cases[1].Failure == nil {
		t.Errorf("JUnit report:\n%s", b.String())
	}
	b.Reset()
	configtest.WriteGitHub(&b, all)
	want := "::error file=" + path + ",line=3,col=70,title=test failed%3A bad::tests[1].expect.text.equals: the text differs: got \"Hello, a!\"\n"
	if b.String() != strings.ReplaceAll(want, "file="+path, "file="+strings.NewReplacer(":", "%3A", ",", "%2C").Replace(path)) {
		t.Errorf("GitHub annotations:\n got %q\nwant %q", b.String(), want)
	}
}

// TestSyntaxErrorInTestFile: a YAML syntax error in a test file is at its
// line and column, with the hint for what yaml.v3 cannot read in { }.
func TestSyntaxErrorInTestFile(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": echoConfig, "mcpgen.test.yaml": `tests:
  - name: a
    call: hello
    http:
      - request: {url: /x?page=2}
        response: {json: {}}
`})
	_, ds := configtest.Load(filepath.Join(dir, "mcpgen.test.yaml"))
	if len(ds) != 1 {
		t.Fatalf("diagnostics %v, want one", ds)
	}
	want := `mcpgen.test.yaml:5:26: yaml: did not find expected ',' or '}'; inside [ ] or { }, quote a value holding "?" or "[": {url: "/x?page=2"}, {"items[0].id": 7}`
	if got, _, _ := strings.Cut(strings.TrimPrefix(ds[0].String(), dir+"/"), "\n"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCaller: a case may say who calls; its tools' `auth`, scope checks
// and a SQL session then see that caller, its scopes with those they
// imply; without one, a tool acting for its caller refuses the call.
func TestCaller(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": `version: 1
server:
  http:
    auth:
      api_keys: [{name: t, key: test-key-0123456789}]
      implies: {admin: [notes:write]}
      claims: {team: string, level: integer}
tools:
  - name: whoami
    description: Says who calls.
    args:
      - {name: who, from: auth.subject, required: true}
      - {name: team, from: auth.claims.team}
      - {name: level, type: integer, from: auth.claims.level}
      - {name: scopes, type: array, from: auth.scopes}
    content:
      - text: "{{ .args.who }} of {{ .args.team }} ({{ .args.level }}): {{ .args.scopes }}"
  - name: write_note
    description: Needs notes:write.
    scopes: [notes:write]
    content: [{text: written}]
`, "mcpgen.test.yaml": `tests:
  - name: as ada
    call: whoami
    caller: {subject: ada, scopes: [admin], claims: {team: core, level: 3}}
    expect: {text: {equals: "ada of core (3): [admin notes:write]"}}
  - name: implied scope
    call: write_note
    caller: {subject: ada, scopes: [admin]}
    expect: {text: {equals: written}}
  - name: scope lacking
    call: write_note
    caller: {subject: bob, scopes: [notes:read]}
    expect: {is_error: true, text: {contains: "needs the scope(s) notes:write"}}
  - name: nobody
    call: whoami
    expect: {is_error: true, text: {contains: "acts for the authenticated caller, and the request has none"}}
`})
	if got := failures(run(t, filepath.Join(dir, "mcpgen.test.yaml"), configtest.Options{})); len(got) > 0 {
		t.Errorf("failures:\n%s", strings.Join(got, "\n"))
	}
}

// TestSeedFiles: seed_files runs an SQL file beside the test file before
// each case, ahead of seed; a file that cannot be read fails the case
// where it is named.
func TestSeedFiles(t *testing.T) {
	dir := write(t, map[string]string{"mcpgen.yaml": `version: 1
backends: {db: {kind: sql, driver: sqlite, dsn: ":memory:"}}
tools:
  - {name: names, description: d, handler: {backend: db, query: "SELECT name FROM t ORDER BY name", format: csv}}
`, "schema.sql": "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('ada');",
		"mcpgen.test.yaml": `seed_files: {db: schema.sql}
seed: {db: "INSERT INTO t VALUES ('bob')"}
tests:
  - {name: seeded, call: names, expect: {text: {equals: "name\nada\nbob\n(2 rows)"}}}
`, "missing.test.yaml": `config: [mcpgen.yaml]
seed_files: {db: nope.sql}
tests:
  - {name: seeded, call: names, expect: {text: {contains: ada}}}
`})
	if got := failures(run(t, filepath.Join(dir, "mcpgen.test.yaml"), configtest.Options{})); len(got) > 0 {
		t.Errorf("failures:\n%s", strings.Join(got, "\n"))
	}
	got := failures(run(t, filepath.Join(dir, "missing.test.yaml"), configtest.Options{}))
	if len(got) != 1 || !strings.Contains(got[0], "missing.test.yaml:2:18: seed_files.db: reading nope.sql") {
		t.Errorf("failures: %q", got)
	}
}
