package auth

import (
	"maps"
	"slices"
)

// hierarchy is a scope hierarchy: each scope with every scope it implies,
// directly or through others.
type hierarchy map[string][]string

// newHierarchy closes the `implies` relation of a config over itself.
func newHierarchy(implies map[string][]string) hierarchy {
	if len(implies) == 0 {
		return nil
	}
	h := hierarchy{}
	for _, scope := range slices.Sorted(maps.Keys(implies)) {
		seen := map[string]bool{scope: true}
		for todo := slices.Clone(implies[scope]); len(todo) > 0; {
			s := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if !seen[s] {
				seen[s] = true
				h[scope] = append(h[scope], s)
				todo = append(todo, implies[s]...)
			}
		}
		slices.Sort(h[scope])
	}
	return h
}

// expand returns granted with the scopes it implies added, each once,
// granted ones first. It is done once per credential, when its caller is
// made.
func (h hierarchy) expand(granted []string) []string {
	out := granted
	for _, s := range granted {
		for _, implied := range h[s] {
			if !slices.Contains(out, implied) {
				if len(out) == len(granted) {
					out = slices.Clone(granted) // never append to the caller's slice
				}
				out = append(out, implied)
			}
		}
	}
	return out
}
