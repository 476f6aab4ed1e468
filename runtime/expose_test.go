package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

const exposeConfig = `version: 1
tools:
  - name: search_issues
    description: Searches issues.
    tags: [github, read]
    content: [{text: found}]
  - name: create_issue
    description: Creates an issue.
    tags: [github, write]
    content: [{text: created}]
  - name: ping
    description: Answers.
    content: [{text: pong}]
  - name: sample_helper
    description: Offered to the model while sampling.
    tags: [internal]
    content: [{text: helped}]
resources:
  - uri: docs://github
    name: github-docs
    tags: [github]
    text: about github
  - uri: docs://internal
    name: internal-docs
    tags: [internal]
    text: internal
  - uri: docs://always
    name: always
    text: untagged
prompts:
  - name: triage
    description: Triage.
    tags: [write]
    messages: [{role: user, text: triage}]
  - name: hello
    description: Hello.
    messages: [{role: user, text: hi}]
toolsets:
  reader:
    description: Reading only.
    tags: [read]
    tools: [ping]
  issues:
    tools: ["*_issue*"]
`

// served lists what a client of srv sees: tools, resources, prompts.
func served(t *testing.T, srv *Server) []string {
	t.Helper()
	cs := session(t, srv, "", nil, nil)
	ctx := context.Background()
	var out []string
	if tools, err := cs.ListTools(ctx, nil); err == nil {
		for _, tl := range tools.Tools {
			out = append(out, "tool "+tl.Name)
		}
	}
	if res, err := cs.ListResources(ctx, nil); err == nil {
		for _, r := range res.Resources {
			out = append(out, "resource "+r.URI)
		}
	}
	if ps, err := cs.ListPrompts(ctx, nil); err == nil {
		for _, p := range ps.Prompts {
			out = append(out, "prompt "+p.Name)
		}
	}
	return out
}

// TestSelect: a toolset, tool names or globs and tags each serve their
// subset; tagged resources and prompts follow the tags, untagged ones
// stay; a tool left out cannot be called.
func TestSelect(t *testing.T) {
	for _, tt := range []struct {
		name string
		sel  Selection
		want []string
	}{
		{"whole", Selection{}, []string{"tool search_issues", "tool create_issue", "tool ping", "tool sample_helper",
			"resource docs://always", "resource docs://github", "resource docs://internal", "prompt hello", "prompt triage"}},
		{"toolset", Selection{Toolset: "reader"}, []string{"tool search_issues", "tool ping", "resource docs://always", "prompt hello"}},
		{"glob toolset", Selection{Toolset: "issues"}, []string{"tool search_issues", "tool create_issue", "resource docs://always", "prompt hello"}},
		{"tags", Selection{Tags: []string{"github"}}, []string{"tool search_issues", "tool create_issue",
			"resource docs://always", "resource docs://github", "prompt hello"}},
		{"tools and tags", Selection{Tools: []string{"ping"}, Tags: []string{"write"}}, []string{"tool create_issue", "tool ping",
			"resource docs://always", "prompt hello", "prompt triage"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := mustCompile(t, exposeConfig, nil)
			if err := srv.Select(tt.sel); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, served(t, srv)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	srv := mustCompile(t, exposeConfig, nil)
	if err := srv.Select(Selection{Tags: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	cs := session(t, srv, "", nil, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "create_issue"})
	if err == nil && !res.IsError {
		t.Errorf("a tool left out was called: %v", textOf(res.Content))
	}
	if err == nil || !strings.Contains(err.Error(), `unknown tool "create_issue"`) {
		t.Errorf("calling a tool left out: %v, want unknown tool", err)
	}
}

// TestSelectErrors: unknown toolsets, tools and tags are refused with the
// nearest known name.
func TestSelectErrors(t *testing.T) {
	for _, tt := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Toolset: "readr"}, `--toolset: unknown toolset "readr"; did you mean "reader"?`},
		{Selection{Toolset: "zzz"}, `--toolset: unknown toolset "zzz"; known toolsets: issues, reader`},
		{Selection{Tools: []string{"serch_issues"}}, `--tools: unknown tool "serch_issues"; did you mean "search_issues"?`},
		{Selection{Tools: []string{"gitlab_*"}}, `--tools: "gitlab_*" matches no tool`},
		{Selection{Tools: []string{"[x"}}, `--tools: invalid glob "[x"`},
		{Selection{Tags: []string{"githb"}}, `--tags: no tool, resource or prompt has the tag "githb"; did you mean "github"?`},
	} {
		srv := mustCompile(t, exposeConfig, nil)
		err := srv.Select(tt.sel)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %s", tt.sel, err, tt.want)
		}
	}
}

// TestExposeDiagnostics: toolsets naming unknown tools or tags, invalid
// tags and empty toolsets are positioned errors with suggestions.
func TestExposeDiagnostics(t *testing.T) {
	config := `version: 1
tools:
  - name: search_issues
    description: Searches.
    tags: [github, "bad tag"]
    content: [{text: x}]
toolsets:
  a:
    tools: [serch_issues, "nothing_*"]
    tags: [githib]
  b: {}
`
	_, ds := compileText(t, config, nil)
	got := diagText(ds, "")
	for _, want := range []string{
		`:5:20: tools[0].tags[1]: invalid tag "bad tag"; use 1 to 64 letters`,
		`:9:13: toolsets.a.tools[0]: unknown tool "serch_issues"; did you mean "search_issues"?`,
		`:9:27: toolsets.a.tools[1]: "nothing_*" matches no tool; known tools: search_issues`,
		`:10:12: toolsets.a.tags[0]: no tool, resource or prompt has the tag "githib"; did you mean "github"?`,
		`:11:6: toolsets.b: toolset "b" selects nothing; give it tools, tags or both`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestToolCountWarning: more tools than editors handle well is a warning
// with a hint to split; past 128 the hint says some clients refuse them;
// a toolset of that size is warned about too.
func TestToolCountWarning(t *testing.T) {
	config := func(n int, toolset bool) string {
		var b strings.Builder
		b.WriteString("version: 1\ntools:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {name: t%d, description: d, tags: [all], content: [{text: x}]}\n", i)
		}
		if toolset {
			b.WriteString("toolsets:\n  everything: {tags: [all]}\n")
		}
		return b.String()
	}
	_, ds := compileText(t, config(40, false), nil)
	if ds.Warnings() != 0 {
		t.Errorf("40 tools: %v", ds)
	}
	_, ds = compileText(t, config(41, true), nil)
	wantDiag(t, ds, ":3:3: warning: tools: the server lists 41 tools; some editors use about 40 tools well; serve subsets")
	wantDiag(t, ds, "warning: toolsets.everything: toolset \"everything\" has 41 tools")
	_, ds = compileText(t, config(129, false), nil)
	wantDiag(t, ds, "the server lists 129 tools; some clients refuse more than 128 tools")
	if ds.Errors() != 0 {
		t.Errorf("a warning only: %v", ds)
	}
}
