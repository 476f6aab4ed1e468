package configtest

import (
	"path/filepath"
	"regexp"
	"sync"

	"github.com/mcpgen/mcpgen/handlers"
)

// stubs replace the shell commands of one case.
type stubs struct {
	list []*Stub
	mu   sync.Mutex
	used []bool
}

func newStubs(list []*Stub) *stubs {
	return &stubs{list: list, used: make([]bool, len(list))}
}

// match returns the stub for argv: the first whose command is argv's
// program (by base name), or the first without a command.
func (s *stubs) match(argv []string) *handlers.Stub {
	if len(s.list) == 0 || len(argv) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prog := filepath.Base(argv[0])
	for i, st := range s.list {
		if st != nil && (st.Command == "" || filepath.Base(st.Command) == prog) {
			s.used[i] = true
			return &handlers.Stub{Stdout: st.Stdout, Stderr: st.Stderr, ExitCode: st.ExitCode}
		}
	}
	return nil
}

// commands returns the stubs that name a command, for a script that runs
// them, and counts them used.
func (s *stubs) commands() map[string]*handlers.Stub {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]*handlers.Stub{}
	for i, st := range s.list {
		if st == nil || st.Command == "" {
			continue
		}
		name := filepath.Base(st.Command)
		if _, seen := out[name]; !seen && functionName.MatchString(name) {
			s.used[i] = true
			out[name] = &handlers.Stub{Stdout: st.Stdout, Stderr: st.Stderr, ExitCode: st.ExitCode}
		}
	}
	return out
}

// functionName is a name a shell function may have.
var functionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// unused lists the indexes of stubs no command used.
func (s *stubs) unused() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for i, u := range s.used {
		if !u {
			out = append(out, i)
		}
	}
	return out
}
