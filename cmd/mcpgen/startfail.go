package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/handlers/sqlkind"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/transport"
	"github.com/mcpgen/mcpgen/spec"
	"gopkg.in/yaml.v3"
)

// startFailureTool is the one tool of a server whose config cannot serve.
const startFailureTool = "config_error"

// A startFailure says why a config cannot serve and what to do about it,
// for a client that launched mcpgen on stdio: desktop clients show neither
// stderr nor an exit status, only "connection closed".
type startFailure struct {
	name     string   // the server's name, as the config gives it
	files    []string // the config files, as given
	problems []string // the errors, file:line:col: message; hint
	missing  []string // the environment variables to set, "NAME (secret)" for a secret
}

// missingVarRE finds the variables the loader reports unset.
var missingVarRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\} is not set and has no default`)

// newStartFailure gathers what the errors of ds say about files.
func newStartFailure(files []string, ds load.Diagnostics) *startFailure {
	f := &startFailure{files: files}
	secret := map[string]bool{}
	if info, err := describeConfigs(files); err == nil {
		f.name = info.server.Name
		for _, v := range info.env {
			secret[v.Name] = v.Secret
		}
	}
	f.name = cmp.Or(f.name, strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0])))
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Severity != load.Error {
			continue
		}
		f.problems = append(f.problems, d.String())
		for _, m := range missingVarRE.FindAllStringSubmatch(d.Message, -1) {
			if name := m[1]; !seen[name] {
				seen[name] = true
				if secret[name] {
					name += " (secret)"
				}
				f.missing = append(f.missing, name)
			}
		}
	}
	return f
}

// fix says what the user has to do.
func (f *startFailure) fix() string {
	args := strings.Join(f.files, " ")
	if len(f.missing) > 0 {
		return fmt.Sprintf("To fix: set %s in the \"env\" of this server's entry in your MCP client's configuration "+
			"(Claude Desktop: claude_desktop_config.json; Cursor and VS Code: mcp.json), or in the config's env_file, "+
			"then restart the server. `mcpgen client-config %s` prints the entry with every variable to fill.",
			strings.Join(f.missing, ", "), args)
	}
	return fmt.Sprintf("To fix: correct the config (`mcpgen validate %s` lists the same problems), then restart the server.", args)
}

// summary is one line: what is wrong and what to do.
func (f *startFailure) summary() string {
	if len(f.missing) > 0 {
		return fmt.Sprintf("mcpgen could not start %q: %d environment variable(s) are not set: %s.",
			f.name, len(f.missing), strings.Join(f.missing, ", "))
	}
	first := ""
	if len(f.problems) > 0 {
		first, _, _ = strings.Cut(f.problems[0], "\n")
	}
	return fmt.Sprintf("mcpgen could not start %q: its config has %d error(s); the first: %s", f.name, len(f.problems), first)
}

// message is the whole story: the summary, every problem, the fix.
func (f *startFailure) message() string {
	var b strings.Builder
	b.WriteString(f.summary())
	b.WriteString("\n\n")
	for _, p := range f.problems {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(f.fix())
	return b.String()
}

// config is a config that serves nothing but the story: instructions that
// tell the model, and one tool, listed where clients show tools, whose
// description says what to fix and whose call returns it all as an error.
func (f *startFailure) config() ([]byte, error) {
	readOnly := true
	text := "{{ " + strconv.Quote(f.message()) + " }}" // a template that prints the message as it is
	c := spec.Config{Version: 1,
		Server: spec.Server{Name: f.name, Instructions: f.message() + "\n\nNone of this server's tools are available: " +
			"tell the user what to fix, in their words, before anything else."},
		Tools: []*spec.Tool{{Name: startFailureTool, Title: "Why this server cannot start",
			Description: f.summary() + " " + f.fix() + " Call this tool for every problem.",
			Annotations: &spec.Annotations{ReadOnly: &readOnly},
			Content:     []*spec.Content{{Text: &text}}, Error: true}},
	}
	data, err := yaml.Marshal(&c)
	return []byte(escapeEnvRefs(string(data))), err
}

// escapeEnvRefs makes each ${ of s, which the messages quote (${NAME} is
// not set), a plain one for the loader: $${. The ${{ of an expression the
// loader leaves as it is.
func escapeEnvRefs(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		if strings.HasPrefix(s[i:], "${{") {
			b.WriteString("${{")
			s = s[i+3:]
			continue
		}
		b.WriteString("$${")
		s = s[i+2:]
	}
	b.WriteString(s)
	return b.String()
}

// serveStartFailure serves f on stdio until the client closes its input,
// then returns exitError: the client sees why, and the exit status stays
// that of a config that did not start.
func serveStartFailure(ctx context.Context, f *startFailure, std stdio, logger *slog.Logger) int {
	data, err := f.config()
	var srv *runtime.Server
	if err == nil {
		lf, ds := load.Bytes(filepath.Join(filepath.Dir(f.files[0]), "start-failure.yaml"), data, load.Options{})
		if ds.Errors() == 0 {
			srv, ds = runtime.Build([]*load.File{lf}, runtime.BuildOptions{Registry: builtin.Registry(), Logger: logger,
				Observer: &observe.Observer{Metrics: observe.NewMetrics()}})
		}
		if ds.Errors() > 0 {
			err = ds
		}
	}
	if err != nil {
		logger.Error("cannot tell the client why the config does not start", "err", err)
		return exitError
	}
	defer srv.Close()
	logger.Info("serving on stdio only to tell the client why the config does not start", "tool", startFailureTool)
	opts := transport.StdioConfig(srv)
	opts.Problems = func(context.Context) []string { return []string{f.message()} }
	if err := transport.ServeStdio(ctx, srv, std.in, std.out, opts); err != nil {
		logger.Error("serving stdio", "err", err)
	}
	return exitError
}

// pingTimeout bounds how long a stdio server waits for its databases before
// it tells the client which do not answer.
const pingTimeout = 10 * time.Second

// unreachable pings srv's databases and says, for each that does not
// answer, why, which tools fail until it does, and what to check; the
// operator log gets the same. HTTP APIs are left alone: a request at every
// start would reach services that count or bill them.
func unreachable(ctx context.Context, srv *runtime.Server, files []string) []string {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	results := srv.Ping(ctx, func(b any) bool { _, db := b.(*sqlkind.DB); return db })
	var out []string
	for _, name := range slices.Sorted(maps.Keys(results)) {
		err := results[name]
		if err == nil {
			continue
		}
		var tools []string
		for _, t := range srv.Plan().Tools {
			if t.Backend == name {
				tools = append(tools, t.Def.Name)
			}
		}
		msg := fmt.Sprintf("mcpgen: backend %q does not answer: %v. ", name, err)
		if len(tools) > 0 {
			msg += fmt.Sprintf("These tools fail until it does: %s. ", strings.Join(tools, ", "))
		}
		msg += fmt.Sprintf("Check that the database is running and that backends.%s points at it; "+
			"`mcpgen validate --connect %s` checks it.", name, strings.Join(files, " "))
		srv.Logger().Warn("database does not answer", "backend", name, "err", err)
		out = append(out, msg)
	}
	return out
}
