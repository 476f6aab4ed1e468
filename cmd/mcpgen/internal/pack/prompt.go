package pack

import (
	"regexp"
	"strings"

	"github.com/mcpgen/mcpgen/spec"
)

// Prompt is a prompt listed in a manifest: MCPB's form, where Arguments
// are names and Text refers to them as ${arguments.NAME}.
type Prompt struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Arguments   []string `json:"arguments,omitempty"`
	Text        string   `json:"text"`
}

// argRef is a template action that only prints an argument: {{ .args.NAME }}.
var argRef = regexp.MustCompile(`\{\{-?\s*\.args\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}`)

// NewPrompt describes a config's prompt for a manifest. Its text is the
// prompt's text messages, one paragraph each, with every action that
// prints an argument written as MCPB writes it; other actions stay as the
// config has them, and other blocks (images, resources) are left out.
func NewPrompt(p *spec.Prompt) Prompt {
	mp := Prompt{Name: p.Name, Description: p.Description}
	for _, a := range p.Arguments {
		if a != nil {
			mp.Arguments = append(mp.Arguments, a.Name)
		}
	}
	var texts []string
	for _, m := range p.Messages {
		if m != nil && m.Text != nil {
			texts = append(texts, argRef.ReplaceAllString(*m.Text, "$${arguments.$1}"))
		}
	}
	mp.Text = strings.Join(texts, "\n\n")
	return mp
}
