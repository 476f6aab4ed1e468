package eval

import "github.com/expr-lang/expr/vm"

// fetchPath returns the names a program does nothing but look up, one in
// the other, from its environment: `args.location` (or
// `args["location"]`) is [args location]. It returns nil for any other
// program. Most expressions of a config are such paths, and run looks
// them up itself (fetch) instead of starting the VM.
//
// It reads the bytecode, which is what the VM would run: a load of a name
// from the environment map, then a push of a name and a fetch, per name.
// Code that expr compiles otherwise is run by the VM, as before.
func fetchPath(p *vm.Program) []string {
	if p == nil || len(p.Bytecode)%2 == 0 || len(p.Arguments) != len(p.Bytecode) {
		return nil
	}
	for i, op := range p.Bytecode {
		want := vm.OpFetch
		switch {
		case i == 0:
			want = vm.OpLoadFast
		case i%2 == 1:
			want = vm.OpPush
		}
		if op != want || want != vm.OpFetch && constName(p, i) == "" {
			return nil
		}
	}
	path := make([]string, 0, (len(p.Bytecode)+1)/2)
	path = append(path, constName(p, 0))
	for i := 1; i < len(p.Bytecode); i += 2 { // each push
		path = append(path, constName(p, i))
	}
	return path
}

// constName is the name that instruction i of p loads or pushes, "" when
// its constant is not text (or is empty text: such a program just runs).
func constName(p *vm.Program, i int) string {
	arg := p.Arguments[i]
	if arg < 0 || arg >= len(p.Constants) {
		return ""
	}
	name, _ := p.Constants[arg].(string)
	return name
}

// fetch looks path up in vars as the VM would run its program: the
// environment's value of the first name, then in it the value of each next
// name, nil for a name that is not there. ok is false, and the program
// must run, for an empty path and where a value on the way is not a
// map[string]any (the VM then fetches from other kinds of values, or fails
// with its own error).
func fetch(vars map[string]any, path []string) (x any, ok bool) {
	if len(path) == 0 {
		return nil, false
	}
	x = vars[path[0]]
	for _, name := range path[1:] {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, false
		}
		x = m[name]
	}
	return x, true
}
