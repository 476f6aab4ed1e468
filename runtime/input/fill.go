package input

// fill is what a call's arguments need after validation: a default for
// an argument not passed, and a number kept a float even when it is whole.
type fill struct {
	name       string
	def        any
	hasDefault bool
	number     bool
}

// complete adds the defaults of the arguments not passed and keeps the
// numbers of type number floats.
func (a *Args) complete(args map[string]any) {
	for _, f := range a.fill {
		if _, given := args[f.name]; !given && f.hasDefault {
			args[f.name] = copyValue(f.def) // each call gets its own: a handler may change it
		}
		if i, ok := args[f.name].(int64); ok && f.number {
			args[f.name] = float64(i)
		}
	}
}

// copyValue copies the lists and objects of a decoded JSON value.
func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}
