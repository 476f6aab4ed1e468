package runtime

import (
	"io"
	"slices"
)

// takeOver moves the backends s adopted from prev into s's keeping: prev
// no longer closes them, s does. Until then a failed or unused build of s
// closes nothing of prev's.
func (s *Server) takeOver(prev *Server) {
	for _, v := range s.plan.Adopted {
		c, ok := v.(io.Closer)
		if !ok {
			continue
		}
		prev.plan.Closers = slices.DeleteFunc(prev.plan.Closers, func(x io.Closer) bool { return x == c })
		s.plan.Closers = append([]io.Closer{c}, s.plan.Closers...) // opened first, closed last
	}
	s.plan.Adopted = nil
	s.carryTasks(prev)
}

// carryTasks keeps one task manager for the whole process: the task
// methods were registered on the first config (NewLive), and tasks started
// before a reload must stay readable, answerable and cancellable after it,
// and keep running. s's own manager, unused yet, is closed.
func (s *Server) carryTasks(prev *Server) {
	if prev.plan.Tasks == nil || s.plan.Tasks == prev.plan.Tasks {
		return
	}
	if s.plan.Tasks != nil {
		own := s.plan.Tasks
		s.plan.Closers = slices.DeleteFunc(s.plan.Closers, func(x io.Closer) bool { return x == own })
		_ = own.Close()
	}
	s.plan.Tasks = prev.plan.Tasks
	prev.plan.Closers = slices.DeleteFunc(prev.plan.Closers, func(x io.Closer) bool { return x == prev.plan.Tasks })
	s.plan.Closers = append([]io.Closer{s.plan.Tasks}, s.plan.Closers...) // closed last
}
