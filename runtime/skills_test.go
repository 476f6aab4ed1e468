package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"gopkg.in/yaml.v3"
)

// skillsConfig has two skills: one using a public tool, a prompt and a
// resource, with a file in a subdirectory; one using a tool of the
// "admin" toolset.
const skillsConfig = `version: 1
tools:
  - {name: greet, description: Greets., tags: [public], content: [{text: hi}]}
  - {name: purge, description: Deletes., tags: [admin], content: [{text: gone}]}
prompts:
  - {name: welcome, description: Welcomes., messages: [{role: user, text: hi}]}
resources:
  - {uri: docs://guide, name: guide, text: the guide}
toolsets:
  public: {tags: [public]}
skills:
  - name: greeting
    description: "Greet people: politely."
    instructions: |
      Call greet, then read references/tone.md.
    tools: [greet]
    prompts: [welcome]
    resources: [docs://guide]
    files: [references/tone.md]
    metadata: {version: "1.0"}
  - name: cleanup
    description: Delete what is old.
    instructions_file: cleanup.md
    tools: [purge]
`

var skillsFiles = map[string]string{"references/tone.md": "Be kind.\n", "cleanup.md": "Call purge.\n"}

// TestSkillsServed: skills/list gives each skill's entry, whose manifest
// holds the digest and size of the bytes resources/read gives, and whose
// frontmatter is the SKILL.md's own.
func TestSkillsServed(t *testing.T) {
	srv := mustCompile(t, skillsConfig, skillsFiles)
	c := rawSession(t, srv)
	c.initialize(map[string]any{})
	list := c.must("skills/list", map[string]any{})
	skills := list["skills"].([]any)
	if len(skills) != 2 || list["resultType"] != "complete" || list["ttlMs"] == nil || list["cacheScope"] == nil {
		t.Fatalf("skills/list = %v", list)
	}
	entry := skills[0].(map[string]any)
	if entry["uri"] != "skill://greeting/SKILL.md" {
		t.Fatalf("entry = %v", entry)
	}
	files := entry["resources"].([]any)
	if len(files) != 2 {
		t.Fatalf("resources = %v; want SKILL.md and references/tone.md", files)
	}
	for _, f := range files {
		f := f.(map[string]any)
		read := c.must("resources/read", map[string]any{"uri": f["uri"]})
		rc := read["contents"].([]any)[0].(map[string]any)
		text, _ := rc["text"].(string)
		sum := sha256.Sum256([]byte(text))
		if f["digest"] != "sha256:"+hex.EncodeToString(sum[:]) || f["size"] != float64(len(text)) {
			t.Errorf("%v: manifest %v does not describe the %d bytes read", f["uri"], f, len(text))
		}
		if rc["mimeType"] != "text/markdown" {
			t.Errorf("%v: mimeType %v", f["uri"], rc["mimeType"])
		}
		if f["uri"] != entry["uri"] {
			if text != "Be kind.\n" {
				t.Errorf("tone.md = %q", text)
			}
			continue
		}
		// The frontmatter of the file is the entry's, field by field.
		parts := strings.SplitN(text, "---\n", 3)
		var fm map[string]any
		if len(parts) != 3 || yaml.Unmarshal([]byte(parts[1]), &fm) != nil {
			t.Fatalf("SKILL.md has no frontmatter:\n%s", text)
		}
		if got, want := jsonOf(fm), jsonOf(entry["frontmatter"]); string(got) != string(want) {
			t.Errorf("frontmatter %s, entry %s", got, want)
		}
		for _, want := range []string{"Call greet, then read references/tone.md.", "- Tools: `greet`", "- Prompts: `welcome`",
			"- Resources: `docs://guide`", "`references/tone.md`"} {
			if !strings.Contains(parts[2], want) {
				t.Errorf("SKILL.md lacks %q:\n%s", want, text)
			}
		}
	}
	got := c.must("skills/get", map[string]any{"uri": "skill://cleanup/SKILL.md"})
	if sk := got["skill"].(map[string]any); sk["uri"] != "skill://cleanup/SKILL.md" || got["nextCursor"] != nil {
		t.Errorf("skills/get = %v", got)
	}
	if e := c.fail("skills/get", map[string]any{"uri": "skill://nope/SKILL.md"}); e.Code != -32602 {
		t.Errorf("skills/get of an unknown skill: %v; want -32602", e)
	}
	dir := c.must("resources/directory/read", map[string]any{"uri": "skill://greeting"})
	want := `[{"mimeType":"text/markdown","name":"SKILL.md","size":` + jsonNum(files[0]) + `,"uri":"skill://greeting/SKILL.md"},` +
		`{"mimeType":"inode/directory","name":"references","uri":"skill://greeting/references"}]`
	if got := string(jsonOf(dir["resources"])); got != want {
		t.Errorf("directory =\n%s\nwant\n%s", got, want)
	}
	sub := c.must("resources/directory/read", map[string]any{"uri": "skill://greeting/references"})
	if got := string(jsonOf(sub["resources"])); !strings.Contains(got, `"uri":"skill://greeting/references/tone.md"`) {
		t.Errorf("subdirectory = %s", got)
	}
	for _, uri := range []string{"skill://greeting/SKILL.md", "skill://greeting/references/", "skill://other", "docs://guide"} {
		if e := c.fail("resources/directory/read", map[string]any{"uri": uri}); e.Code != -32602 {
			t.Errorf("directory read of %s: %v; want -32602", uri, e)
		}
	}
}

func jsonNum(f any) string { return string(jsonOf(f.(map[string]any)["size"])) }

// TestSkillsCapability: the extension is declared, with directoryRead,
// beside resources, in initialize and in server/discover; a config without
// skills declares nothing and answers skills/list as an unknown method.
func TestSkillsCapability(t *testing.T) {
	srv := mustCompile(t, skillsConfig, skillsFiles)
	caps := srv.capabilities()
	if got := string(jsonOf(caps.Extensions)); got != `{"io.modelcontextprotocol/skills":{"directoryRead":true}}` || caps.Resources == nil {
		t.Errorf("capabilities: extensions %s, resources %v", got, caps.Resources)
	}
	c := rawSession(t, srv)
	disc := c.must("server/discover", map[string]any{"_meta": meta2026(false)})
	if got := string(jsonOf(disc["capabilities"].(map[string]any)["extensions"])); !strings.Contains(got, `"io.modelcontextprotocol/skills":{"directoryRead":true}`) {
		t.Errorf("server/discover extensions = %s", got)
	}
	modern := c.must("skills/list", map[string]any{"_meta": meta2026(false)})
	if len(modern["skills"].([]any)) != 2 || modern["resultType"] != "complete" {
		t.Errorf("skills/list at 2026-07-28 = %v", modern)
	}

	bare := mustCompile(t, "version: 1\ntools: [{name: t, description: d, content: [{text: x}]}]\n", nil)
	if caps := bare.capabilities(); caps.Extensions != nil {
		t.Errorf("no skills, yet extensions %v", caps.Extensions)
	}
	if e := rawSession(t, bare).fail("skills/list", map[string]any{"_meta": meta2026(false)}); e.Code != -32601 {
		t.Errorf("skills/list without skills: %v; want -32601", e)
	}
}

// TestSkillsFollowTheSelection: serving a toolset hides the skills whose
// tools it leaves out, with their files.
func TestSkillsFollowTheSelection(t *testing.T) {
	srv := mustCompile(t, skillsConfig, skillsFiles)
	if err := srv.Select(Selection{Toolset: "public"}); err != nil {
		t.Fatal(err)
	}
	c := rawSession(t, srv)
	c.initialize(map[string]any{})
	list := c.must("skills/list", map[string]any{})
	if got := string(jsonOf(list["skills"])); strings.Contains(got, "cleanup") || !strings.Contains(got, "greeting") {
		t.Errorf("skills/list with toolset public = %s", got)
	}
	if e := c.fail("skills/get", map[string]any{"uri": "skill://cleanup/SKILL.md"}); e.Code != -32602 {
		t.Errorf("skills/get of a hidden skill: %v", e)
	}
	res := c.must("resources/list", map[string]any{})
	if got := string(jsonOf(res)); strings.Contains(got, "skill://cleanup") || !strings.Contains(got, "skill://greeting/SKILL.md") {
		t.Errorf("resources/list = %s", got)
	}
	if e := c.fail("resources/read", map[string]any{"uri": "skill://cleanup/SKILL.md"}); e == nil {
		t.Error("a hidden skill's SKILL.md was read")
	}
}

// TestSkillsLoadErrors: what a skill names must exist and its files be
// readable inside its root; each mistake is reported where it is written.
func TestSkillsLoadErrors(t *testing.T) {
	for _, tt := range []struct {
		name, skill string
		files       map[string]string
		want        []string
	}{
		{"unknown tool", "tools: [greets]", nil, []string{"mcpgen.yaml:7:13: skills[0].tools[0]:", `unknown tool "greets"`, `did you mean "greet"`}},
		{"unknown prompt", "prompts: [nope]", nil, []string{"skills[0].prompts[0]:", `unknown prompt "nope"`}},
		{"unknown resource", "resources: [docs://nope]", nil, []string{"skills[0].resources[0]:", `unknown resource "docs://nope"`}},
		{"missing file", "files: [references/gone.md]", nil, []string{"mcpgen.yaml:7:13: skills[0].files[0]:", `"references/gone.md" does not exist`}},
		{"file outside root", "files: [../secret.md]", nil, []string{"skills[0].files[0]:", "outside the skill's root"}},
		{"absolute file", "files: [/etc/passwd]", nil, []string{"skills[0].files[0]:", "outside the skill's root"}},
		{"link out of root", "files: [out.md]", map[string]string{"link": "out.md"}, []string{"skills[0].files[0]:", "leads outside"}},
		{"directory as file", "files: [references]", map[string]string{"references/a.md": "a"}, []string{"skills[0].files[0]:", "not a regular file"}},
		{"SKILL.md", "files: [SKILL.md]", map[string]string{"SKILL.md": "x"}, []string{"skills[0].files[0]:", "SKILL.md is the skill's instructions"}},
		{"twice", "files: [a.md, ./a.md]", map[string]string{"a.md": "x"}, []string{"skills[0].files[1]:", "listed twice"}},
		{"frontmatter", "root: .\n    instructions_file: fm.md", map[string]string{"fm.md": "---\nname: x\n---\nbody"}, []string{"skills[0].instructions_file:", "begins with frontmatter"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			instr := "instructions: Do it."
			if strings.Contains(tt.skill, "instructions_file") {
				instr = ""
			}
			cfg := "version: 1\ntools: [{name: greet, description: d, content: [{text: x}]}]\nskills:\n  - name: s\n    description: d\n    " +
				instr + "\n    x: 1\n    " + tt.skill + "\n"
			cfg = strings.Replace(cfg, "    x: 1\n", "", 1)
			if instr == "" {
				cfg = strings.Replace(cfg, "    \n", "", 1)
			}
			files := map[string]string{"sub/.keep": ""}
			var links map[string]string
			for k, v := range tt.files {
				if k == "link" {
					links = map[string]string{v: "/etc/hostname"}
					continue
				}
				files[k] = v
			}
			dir := writeFiles(t, mergeMaps(files, map[string]string{"mcpgen.yaml": cfg}))
			for name, target := range links {
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(nil)})
			if srv != nil {
				srv.Close()
				t.Fatalf("built:\n%s", cfg)
			}
			wantDiag(t, ds, tt.want...)
		})
	}
	for _, tt := range []struct{ name, want string }{
		{"Upper", `invalid skill name "Upper"`}, {"-lead", "invalid skill name"}, {"a--b", "invalid skill name"},
		{strings.Repeat("a", 65), "invalid skill name"},
	} {
		_, ds := compileText(t, "version: 1\nskills: [{name: "+tt.name+", description: d, instructions: x}]\n", nil)
		wantDiag(t, ds, "skills[0].name:", tt.want)
	}
	// Neither instructions nor a file: one error, where the skill is.
	_, ds := compileText(t, "version: 1\nskills:\n  - {name: s, description: d}\n", nil)
	if ds.Errors() != 1 {
		t.Errorf("a skill without instructions: %v; want one error", ds)
	}
	wantDiag(t, ds, "mcpgen.yaml:3:5: skills[0]:", "give exactly one of instructions, instructions_file")
	// What people write is accepted.
	for _, name := range []string{"a", "pdf-processing", "v2", strings.Repeat("a", 64)} {
		if _, ds := compileText(t, "version: 1\nskills: [{name: "+name+", description: d, instructions: x}]\n", nil); ds.Errors() > 0 {
			t.Errorf("%s: %v", name, ds)
		}
	}
}

func mergeMaps(a, b map[string]string) map[string]string {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// TestSkillsReload: a reload that changes a skill's file tells sessions
// that the resources changed, and the new manifest is served.
func TestSkillsReload(t *testing.T) {
	dir := writeFiles(t, mergeMaps(map[string]string{"mcpgen.yaml": skillsConfig}, skillsFiles))
	path := filepath.Join(dir, "mcpgen.yaml")
	first, ds := Compile([]string{path}, load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	live := NewLive(first)
	t.Cleanup(func() { live.Close() })
	changed := make(chan struct{}, 8)
	cl := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} }})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := live.srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	before := digestOf(t, live.Current(), "skill://greeting/references/tone.md")
	if err := os.WriteFile(filepath.Join(dir, "references/tone.md"), []byte("Be brief.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	next, ds := Compile([]string{path}, load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	live.Swap(next)
	select {
	case <-changed:
	case <-time.After(waitLimit):
		t.Fatal("no notifications/resources/list_changed after the reload")
	}
	if after := digestOf(t, live.Current(), "skill://greeting/references/tone.md"); after == before {
		t.Errorf("digest unchanged: %s", after)
	}
}

func digestOf(t *testing.T, s *Server, uri string) string {
	for _, k := range s.plan.Skills {
		for _, f := range k.Files {
			if f.URI == uri {
				return f.Digest
			}
		}
	}
	t.Fatalf("no file %s", uri)
	return ""
}

// fail is call expecting an error.
func (c *rpcClient) fail(method string, params any) *jsonrpc.Error {
	c.t.Helper()
	m, err := c.call(method, params)
	if err == nil {
		c.t.Errorf("%s: got %v, want an error", method, m)
		return &jsonrpc.Error{}
	}
	return err
}
