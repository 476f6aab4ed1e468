package shellkind_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/handlers/shellkind"
	"github.com/mcpgen/mcpgen/runtime"
)

func registry() *handlers.Registry { return handlers.NewRegistry(shellkind.Kind()) }

// scripts returns the scripts of testdata, to be written beside a config.
func scripts(t testing.TB) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.sh")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts in testdata: %v", err)
	}
	files := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(b)
	}
	return files
}

// tool is a config with one tool "t" taking the string arguments named in
// args (the first one required) and the given handler body, indented by
// six spaces.
func tool(args []string, handler string) string {
	var b strings.Builder
	b.WriteString("version: 1\ntools:\n  - name: t\n    description: a test tool\n")
	if len(args) > 0 {
		b.WriteString("    args:\n")
		for i, a := range args {
			b.WriteString("      - {name: " + a)
			if i == 0 {
				b.WriteString(", required: true")
			}
			b.WriteString("}\n")
		}
	}
	b.WriteString("    handler:\n      kind: shell\n")
	for _, line := range strings.Split(strings.TrimRight(handler, "\n"), "\n") {
		b.WriteString("      " + line + "\n")
	}
	return b.String()
}

// build builds config, its `[./script` programs taken from testdata.
// Scripts are not written per test: a file being written while another
// test forks cannot be executed ("text file busy", golang.org/issue/22315).
func build(t testing.TB, config string) *runtime.Server {
	t.Helper()
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	config = strings.ReplaceAll(config, "[./", "["+dir+"/")
	return handlertest.Build(t, registry(), config, nil)
}

func TestSuite(t *testing.T) {
	handlertest.Run(t, handlertest.Suite{
		Registry: registry(),
		Files:    scripts(t),
		Hang:     tool(nil, "command: [./hang.sh]"),
		Timeout:  tool(nil, "command: [./hang.sh]\ntimeout: 300ms"),
		Large:    tool(nil, "command: [./large.sh]\nmax_output: 1KiB"),
		Fail:     tool(nil, "command: [./fail.sh]"),
		FailText: "exit status 3",
	})
}

// logs records what a call sends to the client.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) Log(_ context.Context, level slog.Level, msg string, _ map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, level.String()+" "+msg)
}

func (l *logs) Progress(context.Context, float64, float64, string) {}

func TestExitStatus(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler string
		wantError     bool
		want          string
	}{
		{"success", "command: [echo, hello]", false, "hello\n"},
		{"failure quotes stderr and stdout", "command: [./fail.sh]", true,
			"command failed with exit status 3\nstderr:\nwarming up\ndisk on fire\nstdout:\npartial result\n"},
		{"ok_exit_codes", "command: [./fail.sh]\nok_exit_codes: [0, 3]", false, "partial result\n"},
		{"status 1 is an error by default", "command: ['false']", true, "command failed with exit status 1"},
		{"no output", "command: ['true']", false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := build(t, tool(nil, tt.handler))
			res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
			if res.IsError != tt.wantError {
				t.Errorf("isError = %v, want %v", res.IsError, tt.wantError)
			}
			if diff := cmp.Diff(tt.want, handlertest.Text(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStderrIsLogged(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, "command: [./fail.sh]"))
	var l logs
	if _, err := handlertest.CallTool(context.Background(), srv, "t", []byte(`{}`), &l); err != nil {
		t.Fatal(err)
	}
	want := []string{"DEBUG warming up", "DEBUG disk on fire"}
	if diff := cmp.Diff(want, l.lines); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
}

func TestOutputCap(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler string
		wantPrefix    string
		wantLen       int
		wantNote      bool
	}{
		{"endless output is cut", "command: [./large.sh]\nmax_output: 100", "a line of output", 100, true},
		{"exactly the cap is whole", "command: [printf, '%s', '0123456789']\nmax_output: 10", "0123456789", 10, false},
		{"one byte over", "command: [printf, '%s', '0123456789x']\nmax_output: 10", "0123456789", 10, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := build(t, tool(nil, tt.handler))
			res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
			text := handlertest.Text(res)
			out, note, cut := strings.Cut(text, "\n[output truncated")
			if res.IsError || cut != tt.wantNote || len(out) != tt.wantLen || !strings.HasPrefix(out, tt.wantPrefix) {
				t.Errorf("isError=%v, got %d bytes %q, note %q; want %d bytes, note %v",
					res.IsError, len(out), out, note, tt.wantLen, tt.wantNote)
			}
		})
	}
}

func TestJSONOutput(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, stdout string
		want         any
		wantErr      string
	}{
		{"object", `{"n": 3, "x": 1.5, "s": "a", "l": [true, null]}`,
			map[string]any{"n": int64(3), "x": 1.5, "s": "a", "l": []any{true, nil}}, ""},
		{"list is wrapped", `[1, 2]`, map[string]any{"result": []any{int64(1), int64(2)}}, ""},
		{"not JSON", `hello`, nil, "not JSON"},
		{"two values", `{} {}`, nil, "more than one JSON value"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := build(t, tool(nil, "command: [printf, '%s', '"+tt.stdout+"']\noutput: json"))
			res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
			if tt.wantErr != "" {
				if !res.IsError || !strings.Contains(handlertest.Text(res), tt.wantErr) {
					t.Errorf("want an error containing %q, got isError=%v %q", tt.wantErr, res.IsError, handlertest.Text(res))
				}
				return
			}
			if diff := cmp.Diff(tt.want, res.StructuredContent); diff != "" || res.IsError {
				t.Errorf("isError=%v, structured (-want +got):\n%s", res.IsError, diff)
			}
		})
	}
}

func TestStdin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler, args, want string
	}{
		{"no stdin reads /dev/null", "command: [cat]", `{"a": "x"}`, ""},
		{"from an argument", "command: [cat]\nstdin: '${{ args.a }}'", `{"a": "line 1\nline 2\u0000"}`, "line 1\nline 2\x00"},
		{"arguments as JSON", "command: [cat]\nstdin: '${{ args }}'", `{"a": "x"}`, `{"a":"x"}`},
		{"interpolated", "command: [wc, -l]\nstdin: \"one\\n${{ args.a }}\\n\"", `{"a": "two"}`, "2\n"},
		{"ignored stdin is fine", "command: ['true']\nstdin: '${{ args.a }}'", `{"a": "x"}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := build(t, tool([]string{"a"}, tt.handler))
			res := handlertest.Call(t, context.Background(), srv, "t", tt.args)
			if diff := cmp.Diff(tt.want, strings.TrimLeft(handlertest.Text(res), " ")); diff != "" || res.IsError {
				t.Errorf("isError=%v, output (-want +got):\n%s", res.IsError, diff)
			}
		})
	}
}

func TestLargeStdin(t *testing.T) {
	t.Parallel()
	// More than a pipe buffer, so the writer must run beside the reader.
	srv := build(t, tool([]string{"a"}, "command: [wc, -c]\nstdin: '${{ args.a }}'"))
	big := strings.Repeat("x", 1<<20)
	res := handlertest.Call(t, context.Background(), srv, "t", `{"a": "`+big+`"}`)
	if got := strings.TrimSpace(handlertest.Text(res)); got != "1048576" || res.IsError {
		t.Errorf("isError=%v, wc -c says %q, want 1048576", res.IsError, got)
	}
}

func TestStderrLimits(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, `script: |
  i=0; while [ $i -lt 1500 ]; do echo "line $i" >&2; i=$((i+1)); done
  exit 2`))
	var l logs
	res, err := handlertest.CallTool(context.Background(), srv, "t", []byte(`{}`), &l)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.lines) != 1001 || l.lines[999] != "DEBUG line 999" ||
		l.lines[1000] != "DEBUG further stderr lines are not sent (more than 1000)" {
		t.Errorf("want 1000 lines and a note, got %d lines ending %q", len(l.lines), l.lines[max(len(l.lines)-2, 0):])
	}
	text := handlertest.Text(res)
	if !strings.HasSuffix(text, "line 1498\nline 1499") || len(text) > 5000 || !strings.Contains(text, "stderr:\n…line") {
		t.Errorf("want the end of stderr from a line start, got %d bytes: %q…", len(text), text[:min(len(text), 200)])
	}
}

// stuck is a client that never takes its log messages.
type stuck struct{ release chan struct{} }

func (s stuck) Log(context.Context, slog.Level, string, map[string]any) { <-s.release }

func (stuck) Progress(context.Context, float64, float64, string) {}

func TestStuckClientDoesNotBlockTheCommand(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, "script: 'echo result; echo chatter >&2; echo more >&2'"))
	s := stuck{release: make(chan struct{})}
	defer close(s.release)
	res, err := handlertest.CallTool(context.Background(), srv, "t", []byte(`{}`), s)
	if err != nil || res.IsError || handlertest.Text(res) != "result\n" {
		t.Errorf("want the result, got %v %q", err, handlertest.Text(res))
	}
}
