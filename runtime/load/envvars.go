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
	// Secret: the name marks a credential (SecretName).
	Secret bool
}

// EnvVars lists the environment variables a YAML config reads, in the
// order they first appear; a variable given a default anywhere has it.
func EnvVars(data []byte) ([]EnvVar, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	var out []EnvVar
	index := map[string]int{}
	none := func(string) (string, bool) { return "", false }
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			_, refs, _ := expand(n.Value, none, true)
			for _, r := range refs {
				i, seen := index[r.name]
				if !seen {
					i, index[r.name] = len(out), len(out)
					out = append(out, EnvVar{Name: r.name, Secret: SecretName(r.name)})
				}
				if r.hasDef && !out[i].HasDefault {
					out[i].Default, out[i].HasDefault = r.def, true
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	return out, nil
}
