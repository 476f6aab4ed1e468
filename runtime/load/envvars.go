package load

import (
	"gopkg.in/yaml.v3"
)

// EnvVar is an environment variable a config reads with ${NAME} or
// ${NAME:-default}.
type EnvVar struct {
	Name string
	// Default is the value after :-, when HasDefault.
	Default    string
	HasDefault bool
	// Secret: the name marks a credential (SecretName), the config
	// declares it one (`secrets:`), or it feeds a credential field
	// (CredentialField).
	Secret bool
}

// EnvVars lists the environment variables a YAML config reads, in the
// order they first appear; a variable given a default anywhere has it.
func EnvVars(data []byte) ([]EnvVar, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	var (
		out      []EnvVar
		index    = map[string]int{}
		declared Secrets
		none     = func(string) (string, bool) { return "", false }
	)
	if len(root.Content) > 0 {
		declareSecrets(root.Content[0], Reporter{list: new(Diagnostics)}, &declared)
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		if n.Kind == yaml.ScalarNode {
			_, refs, _ := expand(n.Value, none, true)
			for _, r := range refs {
				if r.file {
					continue
				}
				i, seen := index[r.name]
				if !seen {
					i, index[r.name] = len(out), len(out)
					out = append(out, EnvVar{Name: r.name})
				}
				out[i].Secret = out[i].Secret || SecretName(r.name) || declared.Declared(r.name) || CredentialField(path)
				if r.hasDef && !out[i].HasDefault {
					out[i].Default, out[i].HasDefault = r.def, true
				}
			}
		}
		for i, c := range n.Content {
			p := path
			if n.Kind == yaml.MappingNode && i%2 == 1 {
				p = JoinPath(path, n.Content[i-1].Value)
			}
			walk(c, p)
		}
	}
	walk(&root, "")
	return out, nil
}
