package build

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"gopkg.in/yaml.v3"
)

// Limits of one skill (SEP-2640: servers should not serve more; hosts
// must take up to this much).
const (
	maxSkillFiles = 512 // SKILL.md included
	maxSkillBytes = 16 << 20
	maxSkillDesc  = 1024 // Agent Skills: description
)

// skillName is the Agent Skills naming rule: lowercase letters, digits and
// single hyphens inside, 1 to 64 characters.
var skillName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`)

// skills builds the skills of every file, once every tool, prompt and
// resource is known, and serves their files as resources.
func (b *builder) skills(files []*load.File) {
	declared := map[string][]string{}
	for _, f := range files {
		for _, t := range f.Config.Tools {
			if t != nil {
				declared["tool"] = append(declared["tool"], t.Name)
			}
		}
		for _, p := range f.Config.Prompts {
			if p != nil {
				declared["prompt"] = append(declared["prompt"], p.Name)
			}
		}
		for _, r := range f.Config.Resources {
			if r != nil {
				declared["resource"] = append(declared["resource"], r.URI)
			}
		}
		for _, r := range f.Config.ResourceTemplates {
			declared["resource"] = append(declared["resource"], cmp.Or(r, &spec.ResourceTemplate{}).URITemplate)
		}
	}
	for _, f := range files {
		b.plan.Skills = append(b.plan.Skills, entries(b, f, "skills", "empty skill", f.Config.Skills,
			func(_ int, path string, k *spec.Skill) *plan.Skill { return b.skill(f, path, k, declared) })...)
	}
}

// skill builds one skill; nil after reporting.
func (b *builder) skill(f *load.File, p string, k *spec.Skill, declared map[string][]string) *plan.Skill {
	before := b.ds.Errors()
	switch {
	case k.Name == "": // reported by the decoder
	case !skillName.MatchString(k.Name) || strings.Contains(k.Name, "--"):
		b.diag(f, load.Error, p+".name", fmt.Sprintf("invalid skill name %q", k.Name),
			"use 1 to 64 lowercase letters, digits and hyphens, with no hyphen at either end or two in a row, e.g. release-notes")
	default:
		b.unique(f, "skill", k.Name, p+".name")
	}
	if len(k.Description) > maxSkillDesc {
		b.errorf(f, p+".description", "the description has %d characters; a skill's may have %d", len(k.Description), maxSkillDesc)
	}
	for key := range k.Metadata {
		if strings.HasPrefix(key, "io.modelcontextprotocol/") {
			b.diag(f, load.Error, p+".metadata."+key, fmt.Sprintf("metadata key %q is reserved for MCP extensions", key), "use a key of your own")
		}
	}
	b.skillRefs(f, p, k, declared)
	root := b.path(f, k.Root)
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		b.errorf(f, p+".root", "root %q is not a directory", k.Root)
		return nil
	}
	if b.kernelPath(f, p+".root", root) {
		return nil
	}
	var body string
	if k.Instructions != nil {
		body = *k.Instructions
	} else if k.InstructionsFile != "" { // neither is reported by the loader
		body = b.instructionsFile(f, p+".instructions_file", root, k.InstructionsFile)
	}
	sk := &plan.Skill{Name: k.Name, Description: k.Description, URI: "skill://" + k.Name + "/SKILL.md",
		Tools: k.Tools, Prompts: k.Prompts, Resources: k.Resources}
	var extra []*plan.Resource
	seen := map[string]string{}
	total := 0
	for i, name := range k.Files {
		fp := load.IndexPath(p+".files", i)
		data, ok := b.skillFile(f, fp, root, name)
		if !ok {
			continue
		}
		rel := filepath.ToSlash(filepath.Clean(name))
		if rel == "SKILL.md" {
			b.errorf(f, fp, "SKILL.md is the skill's instructions; give it another name")
			continue
		}
		if first, dup := seen[rel]; dup {
			b.errorf(f, fp, "%q is listed twice (first as %q)", name, first)
			continue
		}
		seen[rel] = name
		total += len(data)
		extra = append(extra, skillResource(sk, rel, data, ""))
	}
	if len(extra)+1 > maxSkillFiles {
		b.errorf(f, p+".files", "a skill may have %d files, SKILL.md included; this one has %d", maxSkillFiles, len(extra)+1)
	}
	if b.ds.Errors() > before {
		return nil
	}
	front, fm := skillFrontmatter(k)
	sk.Frontmatter = fm
	md := skillMarkdown(front, body, k, slices.Collect(maps.Keys(seen)))
	if total+len(md) > maxSkillBytes {
		b.errorf(f, p, "the skill's files hold %d bytes; a skill may hold %d", total+len(md), maxSkillBytes)
		return nil
	}
	main := skillResource(sk, "SKILL.md", md, "text/markdown")
	main.Def.Name, main.Def.Description = k.Name, k.Description
	for _, r := range append([]*plan.Resource{main}, extra...) {
		if !b.unique(f, "resource", r.Def.URI, p+".name") {
			return nil
		}
		sk.Files = append(sk.Files, &plan.SkillFile{URI: r.Def.URI, Path: strings.TrimPrefix(r.Def.URI, "skill://"+k.Name+"/"),
			Digest: r.Digest, Size: r.Def.Size, MIME: r.MimeType})
		b.plan.Resources = append(b.plan.Resources, r)
	}
	return sk
}

// instructionsFile reads a skill's instructions from a file, which must
// have no frontmatter of its own.
func (b *builder) instructionsFile(f *load.File, p, root, name string) string {
	data, ok := b.skillFile(f, p, root, name)
	if ok && bytes.HasPrefix(bytes.TrimPrefix(data, []byte("\ufeff")), []byte("---")) {
		b.diag(f, load.Error, p, fmt.Sprintf("%s begins with frontmatter", name),
			"mcpgen writes the SKILL.md frontmatter from name, description and metadata: remove it from the file")
	}
	return string(data)
}

// skillRefs checks that what a skill names exists.
func (b *builder) skillRefs(f *load.File, p string, k *spec.Skill, declared map[string][]string) {
	check := func(field, what string, names []string, exists func(string) bool) {
		known := slices.Sorted(slices.Values(declared[what]))
		for i, name := range names {
			switch {
			case exists(name):
			case slices.Contains(known, name): // declared, but broken: reported where it is defined
			default:
				b.diag(f, load.Error, load.IndexPath(p+"."+field, i), fmt.Sprintf("unknown %s %q", what, name),
					suggest.DidYouMean(name, known))
			}
		}
	}
	check("tools", "tool", k.Tools, func(n string) bool { return b.plan.ToolIndex[n] != nil })
	check("prompts", "prompt", k.Prompts, func(n string) bool {
		return slices.ContainsFunc(b.plan.Prompts, func(x *plan.Prompt) bool { return x.Def.Name == n })
	})
	check("resources", "resource", k.Resources, func(n string) bool {
		return slices.ContainsFunc(b.plan.Resources, func(r *plan.Resource) bool { return r.Def.URI == n && r.Skill == "" }) ||
			slices.ContainsFunc(b.plan.Templates, func(r *plan.Resource) bool { return r.Tmpl.URITemplate == n })
	})
}

// skillFile reads a skill's file inside root by the rule of resources'
// files (fileInRoot): no "..", no absolute path, no symbolic link out.
func (b *builder) skillFile(f *load.File, p, root, name string) ([]byte, bool) {
	before := b.ds.Errors()
	b.fileIn(f, p, "skill", root, name, "the file is read when the config loads: ")
	if b.ds.Errors() > before {
		return nil, false
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		b.errorf(f, p, "%s", load.ReadError(err))
		return nil, false
	}
	defer r.Close()
	data, err := regfile.ReadIn(r, name, maxSkillBytes)
	if err != nil {
		b.errorf(f, p, "cannot read %q: %s", name, regfile.Message(err))
		return nil, false
	}
	return data, true
}

// skillResource is a file of sk served as a resource at skill://NAME/rel.
func skillResource(sk *plan.Skill, rel string, data []byte, mimeType string) *plan.Resource {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	uri := "skill://" + sk.Name + "/" + strings.Join(segs, "/")
	if mimeType == "" {
		switch strings.ToLower(path.Ext(rel)) {
		case ".md", ".markdown":
			mimeType = "text/markdown"
		default:
			mimeType, _ = content.FileType("", rel, data)
		}
	}
	sum := sha256.Sum256(data)
	return &plan.Resource{Def: &mcp.Resource{URI: uri, Name: rel, MIMEType: mimeType, Size: int64(len(data))},
		Contents: plan.Contents{MimeType: mimeType, Blob: data}, Skill: sk.Name,
		Digest: "sha256:" + hex.EncodeToString(sum[:])}
}

// skillFrontmatter is the YAML frontmatter of a skill's SKILL.md, and the
// same as skills/list gives it.
func skillFrontmatter(k *spec.Skill) ([]byte, map[string]any) {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	doc := &yaml.Node{Kind: yaml.MappingNode}
	doc.Content = append(doc.Content, str("name"), str(k.Name), str("description"), str(k.Description))
	fm := map[string]any{"name": k.Name, "description": k.Description}
	if len(k.Metadata) > 0 {
		meta := &yaml.Node{Kind: yaml.MappingNode}
		m := map[string]any{}
		for _, key := range slices.Sorted(maps.Keys(k.Metadata)) {
			meta.Content = append(meta.Content, str(key), str(k.Metadata[key]))
			m[key] = k.Metadata[key]
		}
		doc.Content = append(doc.Content, str("metadata"), meta)
		fm["metadata"] = m
	}
	out, err := yaml.Marshal(doc)
	if err != nil { // a mapping of strings always marshals
		panic(err)
	}
	return out, fm
}

// skillMarkdown is a skill's SKILL.md: the frontmatter, the instructions,
// then what the skill uses, by name, so that the model knows them.
func skillMarkdown(front []byte, body string, k *spec.Skill, files []string) []byte {
	var w bytes.Buffer
	w.WriteString("---\n")
	w.Write(front)
	w.WriteString("---\n\n")
	w.WriteString(strings.TrimSpace(body))
	w.WriteString("\n")
	list := func(label string, names []string) {
		if len(names) == 0 {
			return
		}
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = "`" + n + "`"
		}
		fmt.Fprintf(&w, "- %s: %s\n", label, strings.Join(q, ", "))
	}
	if len(k.Tools)+len(k.Prompts)+len(k.Resources)+len(files) > 0 {
		w.WriteString("\n## What this skill uses\n\n")
		list("Tools", k.Tools)
		list("Prompts", k.Prompts)
		list("Resources", k.Resources)
		slices.Sort(files)
		list("Files (relative to this file)", files)
	}
	return w.Bytes()
}
