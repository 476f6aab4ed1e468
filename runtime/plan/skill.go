package plan

import "slices"

// SkillsExtension is the id of the MCP skills extension (SEP-2640).
const SkillsExtension = "io.modelcontextprotocol/skills"

// Skill is a built skill: its SKILL.md and files, ready to list and read.
type Skill struct {
	Name        string
	Description string
	URI         string         // of its SKILL.md: skill://NAME/SKILL.md
	Frontmatter map[string]any // of its SKILL.md, as skills/list gives it
	Tools       []string       // what it names: a caller must see them all
	Prompts     []string
	Resources   []string // URIs and URI templates
	// Files are SKILL.md first, then the files in config order; each is
	// also one of the plan's resources.
	Files []*SkillFile
}

// SkillFile is one file of a skill.
type SkillFile struct {
	URI    string
	Path   string // inside the skill: SKILL.md, references/x.md
	Digest string // sha256:HEX of its bytes
	Size   int64
	MIME   string
}

// Entry is the skill as skills/list and skills/get give it.
func (k *Skill) Entry() map[string]any {
	files := make([]any, len(k.Files))
	for i, f := range k.Files {
		files[i] = map[string]any{"uri": f.URI, "digest": f.Digest, "size": f.Size}
	}
	return map[string]any{"uri": k.URI, "frontmatter": k.Frontmatter, "resources": files}
}

// settleSkills drops the skills that name what is not served (after a
// narrowing: serve --toolset, --tags), with their files, and gives each
// remaining skill's files the scopes of everything the skill names: a
// caller that may not use all of it sees neither the skill nor its files.
func (p *Plan) settleSkills() {
	gone := map[string]bool{}
	p.Skills = slices.DeleteFunc(p.Skills, func(k *Skill) bool {
		_, ok := p.skillNeeds(k)
		gone[k.Name] = !ok
		return !ok
	})
	p.Resources = slices.DeleteFunc(p.Resources, func(r *Resource) bool { return gone[r.Skill] })
	for _, r := range p.Resources {
		if r.Skill != "" {
			for _, k := range p.Skills {
				if k.Name == r.Skill {
					r.Scopes = p.skillScopes(k)
				}
			}
		}
	}
}

// skillScopes are the scopes a caller needs to see skill k.
func (p *Plan) skillScopes(k *Skill) []string {
	need, _ := p.skillNeeds(k)
	return need
}

// skillNeeds returns the scopes of everything k names, sorted and once
// each; false when something it names is not served.
func (p *Plan) skillNeeds(k *Skill) ([]string, bool) {
	var need []string
	for _, n := range k.Tools {
		t := p.ToolIndex[n]
		if t == nil {
			return nil, false
		}
		need = append(need, t.Scopes...)
	}
	for _, n := range k.Prompts {
		i := slices.IndexFunc(p.Prompts, func(x *Prompt) bool { return x.Def.Name == n })
		if i < 0 {
			return nil, false
		}
		need = append(need, p.Prompts[i].Scopes...)
	}
	for _, n := range k.Resources {
		i := slices.IndexFunc(p.Resources, func(r *Resource) bool { return r.Def.URI == n && r.Skill == "" })
		if i >= 0 {
			need = append(need, p.Resources[i].Scopes...)
			continue
		}
		i = slices.IndexFunc(p.Templates, func(r *Resource) bool { return r.Tmpl.URITemplate == n })
		if i < 0 {
			return nil, false
		}
		need = append(need, p.Templates[i].Scopes...)
	}
	slices.Sort(need)
	return slices.Compact(need), true
}
