package configtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/sqlkind"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"gopkg.in/yaml.v3"
)

// caseTimeout bounds one case, so that a hanging backend fails it rather
// than the run.
const caseTimeout = time.Minute

// Options control a run.
type Options struct {
	// Registry returns the backend kinds configs may use.
	Registry func() *handlers.Registry
	// Run, when set, selects the cases whose name it matches.
	Run *regexp.Regexp
	// Record sends HTTP requests to the real APIs, through each backend's
	// own transport, and stores the exchanges, secrets scrubbed, beside the
	// test file; cases that write their exchanges by hand still replay
	// them.
	Record bool
	// LookupEnv reads the process's environment; os.LookupEnv when nil.
	LookupEnv load.LookupEnv
}

// Result is the outcome of one case.
type Result struct {
	// Name is the case's name.
	Name string
	// Pos is where the case is written (File, Line, Col).
	Pos load.Diagnostic
	// Failures say what went wrong, each where the broken expectation is
	// written; none when the case passed.
	Failures load.Diagnostics
	// Skipped is set for a case that did not run: --run left it out, or
	// a variable it needs is unset (SkipReason says which).
	Skipped    bool
	SkipReason string
	// Elapsed is how long the case took, for reports.
	Elapsed time.Duration
	// recorded are the exchanges it recorded.
	recorded []*Exchange
}

// Run runs the cases of s in order. With opts.Record it rewrites the
// recordings file of s when a case recorded anything.
func Run(ctx context.Context, s *Suite, opts Options) ([]*Result, error) {
	var results []*Result
	for i, c := range s.File.Tests {
		if c == nil {
			continue
		}
		r := &Result{Name: c.Name, Pos: s.pos(s.caseNode(i), "")}
		results = append(results, r)
		if opts.Run != nil && !opts.Run.MatchString(c.Name) {
			r.Skipped = true
			continue
		}
		if v := s.unsetNeed(c, opts); v != "" {
			r.Skipped, r.SkipReason = true, v+" is not set"
			continue
		}
		start := time.Now()
		s.runCase(ctx, i, c, opts, r)
		r.Elapsed = time.Since(start)
	}
	if opts.Record {
		return results, s.writeRecorded(results)
	}
	return results, nil
}

// pos is a diagnostic placed at n, to fill in.
func (s *Suite) pos(n *yaml.Node, path string) load.Diagnostic {
	return load.Diagnostic{File: s.Path, Line: n.Line, Col: n.Column, Path: path, Severity: load.Error}
}

// caseRun is the state of one case while it runs.
type caseRun struct {
	s    *Suite
	i    int
	c    *Case
	r    *Result
	fail func(at []string, path, msg string)
}

func (s *Suite) runCase(ctx context.Context, i int, c *Case, opts Options, r *Result) {
	ctx, cancel := context.WithTimeout(ctx, caseTimeout)
	defer cancel()
	rep := load.NewReporter(s.Path, s.src, &r.Failures)
	cr := &caseRun{s: s, i: i, c: c, r: r, fail: func(at []string, path, msg string) {
		rep.At(s.at(i, at...), fmt.Sprintf("tests[%d]%s", i, path), msg, "")
	}}
	srv, ds := runtime.Compile(s.Configs, load.Options{LookupEnv: s.lookup(c, opts), SkipEnv: !opts.Record},
		runtime.BuildOptions{Registry: opts.Registry()})
	if srv == nil { // the config's errors, where they are
		for _, d := range ds {
			if d.Severity == load.Error {
				r.Failures = append(r.Failures, d)
			}
		}
		return
	}
	defer srv.Close()
	if !cr.known(srv) || !cr.seed(ctx, srv) {
		return
	}
	http := s.transport(c, opts, s.secrets(c, opts))
	stubs := newStubs(c.Stubs)
	ctx = handlers.WithDoubles(ctx, &handlers.Doubles{HTTP: http.wrap, Shell: stubs.match, Commands: stubs.commands})
	out, err := cr.ask(ctx, srv)
	if err != nil {
		cr.fail(nil, "", err.Error())
		return
	}
	if !cr.afterCall(http, stubs) {
		return // the result says only that the request was not recorded
	}
	cr.check(out)
}

// secrets are the values the configs take from the environment that
// recordings leave out; none unless recording.
func (s *Suite) secrets(c *Case, opts Options) []string {
	if !opts.Record {
		return nil
	}
	files, _ := load.Files(s.Configs, load.Options{LookupEnv: s.lookup(c, opts)})
	var out []string
	for _, f := range files {
		out = append(out, f.Secrets.Credentials()...)
	}
	return out
}

// unsetNeed returns the first variable of needs_env that is unset.
func (s *Suite) unsetNeed(c *Case, opts Options) string {
	lookup := s.lookup(c, opts)
	for _, v := range s.File.NeedsEnv {
		if val, ok := lookup(v); !ok || val == "" {
			return v
		}
	}
	return ""
}

// lookup reads the case's variables, then the file's, then the process's
// (first, when the case records).
func (s *Suite) lookup(c *Case, opts Options) load.LookupEnv {
	process := opts.LookupEnv
	if process == nil {
		process = os.LookupEnv
	}
	// a case with hand-written exchanges replays them even when recording:
	// they name the stand-ins' URLs and tokens, so the stand-ins stay
	records := opts.Record && len(c.HTTP) == 0
	return func(name string) (string, bool) {
		// recording calls the real API: the environment's URL and token
		// win over the stand-ins the tests give
		if v, ok := process(name); ok && records {
			return v, true
		}
		if v, ok := c.Env[name]; ok {
			return v, true
		}
		if v, ok := s.File.Env[name]; ok {
			return v, true
		}
		return process(name)
	}
}

// known checks that what the case asks for exists.
func (cr *caseRun) known(srv *runtime.Server) bool {
	if cr.c.Call == "" {
		return true
	}
	for _, n := range srv.ToolNames() {
		if n == cr.c.Call {
			return true
		}
	}
	cr.fail([]string{"call"}, ".call", fmt.Sprintf("no tool %q in %v", cr.c.Call, srv.ToolNames()))
	return false
}

// seed runs the file's SQL files, its SQL, then the case's, on the
// backends they name.
func (cr *caseRun) seed(ctx context.Context, srv *runtime.Server) bool {
	files, ok := cr.seedFiles()
	if !ok {
		return false
	}
	for _, from := range []struct {
		at []string
		m  map[string]string
	}{{nil, files}, {nil, cr.s.File.Seed}, {[]string{"seed"}, cr.c.Seed}} {
		for _, name := range sortedKeys(from.m) {
			err := seedOne(ctx, srv, name, from.m[name])
			if err == nil {
				continue
			}
			ok = false
			if from.at == nil {
				cr.failFile(name, err)
			} else {
				cr.fail([]string{"seed", name}, ".seed."+name, err.Error())
			}
		}
	}
	return ok
}

// seedFiles reads the file's seed_files, by backend.
func (cr *caseRun) seedFiles() (map[string]string, bool) {
	out := map[string]string{}
	for name, p := range cr.s.File.SeedFiles {
		b, err := regfile.Read(filepath.Join(filepath.Dir(cr.s.Path), p), maxSeedFile)
		if err != nil {
			cr.failFileAt("seed_files", name, fmt.Errorf("reading %s: %w", p, err))
			return nil, false
		}
		out[name] = string(b)
	}
	return out, true
}

// maxSeedFile bounds a seed file.
const maxSeedFile = 16 << 20

// failFile fails the case at the file's seed of a backend.
func (cr *caseRun) failFile(name string, err error) {
	key := "seed"
	if _, inline := cr.s.File.Seed[name]; !inline {
		key = "seed_files"
	}
	cr.failFileAt(key, name, err)
}

func (cr *caseRun) failFileAt(key, name string, err error) {
	rep := load.NewReporter(cr.s.Path, cr.s.src, &cr.r.Failures)
	n := load.Field(load.Field(cr.s.root, key), name)
	rep.At(n, key+"."+name, err.Error(), "")
}

func seedOne(ctx context.Context, srv *runtime.Server, name, text string) error {
	b, found := srv.Backend(name)
	db, isSQL := b.(sqlkind.Database)
	if !found || !isSQL {
		return fmt.Errorf("no sql backend %q in the config", name)
	}
	if err := exec(ctx, db, text); err != nil {
		return fmt.Errorf("seeding: %w", err)
	}
	return nil
}

func exec(ctx context.Context, db sqlkind.Database, text string) error {
	pool, _, err := db.Pool(ctx, false)
	if err != nil {
		return err
	}
	var conn *sql.Conn
	if conn, err = pool.Conn(ctx); err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.ExecContext(ctx, text)
	return err
}

// outcome is what came back from the server.
type outcome struct {
	isError    bool
	text       string
	structured any // structured content, or nil
	mu         sync.Mutex
	logs       []*mcp.LoggingMessageParams
	progress   int
}

// ask connects a client to srv in memory and sends the case's request.
func (cr *caseRun) ask(ctx context.Context, srv *runtime.Server) (*outcome, error) {
	out := &outcome{}
	ct, st := mcp.NewInMemoryTransports()
	who, err := cr.c.Caller.caller(srv)
	if err != nil {
		return nil, err
	}
	sctx := ctx
	if who != nil {
		sctx = auth.WithCaller(ctx, who)
	}
	ss, err := srv.MCP().Connect(sctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &tapTransport{Transport: ct, out: out}, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		return nil, err
	}
	switch {
	case cr.c.Call != "":
		err = out.callTool(ctx, cs, cr.c)
	case cr.c.Read != "":
		err = out.readResource(ctx, cs, cr.c.Read)
	default:
		err = out.getPrompt(ctx, cs, cr.c)
	}
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("no answer in %v: %w", caseTimeout, err)
	}
	if err != nil {
		out.isError, out.text = true, err.Error()
	}
	return out, nil
}
