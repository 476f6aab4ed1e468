package spec

// Skill teaches the model how to do a task with the server's tools: step
// by step instructions in Markdown, with the files they refer to. Clients
// find skills with the MCP skills extension (io.modelcontextprotocol/skills:
// skills/list, skills/get) and read them as resources: the instructions at
// skill://NAME/SKILL.md, each file at skill://NAME/PATH.
//
// A skill is offered to a caller only when the caller may use everything
// it names: a tool, prompt or resource left out of the served subset
// (serve --toolset, --tags) or needing scopes the caller lacks hides the
// skill, its instructions and its files.
type Skill struct {
	// Name of the skill: 1 to 64 lowercase letters, digits and hyphens,
	// without a hyphen at either end or two in a row, e.g. release-notes.
	Name string `yaml:"name" jsonschema:"required"`
	// Description says what the skill does and when to use it; models
	// pick skills by it.
	Description string `yaml:"description" jsonschema:"required"`
	// Instructions are the body of the skill's SKILL.md, in Markdown.
	Instructions *string `yaml:"instructions,omitempty" mcpgen:"exactly_one=instructions"`
	// InstructionsFile is a Markdown file inside `root` holding the
	// instructions, read when the config loads, e.g. skills/triage.md. It
	// has no frontmatter: mcpgen writes it from name, description and
	// metadata.
	InstructionsFile string `yaml:"instructions_file,omitempty" mcpgen:"server,exactly_one=instructions"`
	// Tools the instructions use, by name. Each must exist; the skill's
	// SKILL.md lists them after the instructions.
	Tools []string `yaml:"tools,omitempty"`
	// Prompts the instructions use, by name.
	Prompts []string `yaml:"prompts,omitempty"`
	// Resources the instructions use: URIs of resources, or URI templates
	// of resource templates.
	Resources []string `yaml:"resources,omitempty"`
	// Files served with the skill, paths inside `root` read when the config
	// loads, e.g. references/checklist.md; each is served at
	// skill://NAME/PATH, so the instructions can refer to it by PATH.
	Files []string `yaml:"files,omitempty" mcpgen:"server"`
	// Root is the directory the instructions file and the files are
	// confined to, relative to the config file; defaults to the config
	// file's directory. Paths that leave it, by `..` or through a symbolic
	// link, are refused, as for resources.
	Root string `yaml:"root,omitempty" mcpgen:"server"`
	// Metadata are extra string properties of the skill, written into the
	// frontmatter of its SKILL.md (Agent Skills `metadata`), e.g.
	// `{version: "1.2"}`.
	Metadata map[string]string `yaml:"metadata,omitempty"`
}
