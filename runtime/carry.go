package runtime

import (
	"io"
	"slices"
)

// carried is a shared backend a server opened, with the settings it was
// opened with, so that a reload whose settings for it did not change takes
// it over, pool, cache and all (BuildOptions.Previous).
type carried struct {
	key   string // kind, settings and the environment they read
	value any
}

// takeOver moves the backends s adopted from prev into s's keeping: prev
// no longer closes them, s does. Until then a failed or unused build of s
// closes nothing of prev's.
func (s *Server) takeOver(prev *Server) {
	for _, v := range s.adopted {
		c, ok := v.(io.Closer)
		if !ok {
			continue
		}
		prev.closers = slices.DeleteFunc(prev.closers, func(x io.Closer) bool { return x == c })
		s.closers = append([]io.Closer{c}, s.closers...) // opened first, closed last
	}
	s.adopted = nil
	s.carryTasks(prev)
}

// carryTasks keeps one task manager for the whole process: the task
// methods were registered on the first config (NewLive), and tasks started
// before a reload must stay readable, answerable and cancellable after it,
// and keep running. s's own manager, unused yet, is closed.
func (s *Server) carryTasks(prev *Server) {
	if prev.tasks == nil || s.tasks == prev.tasks {
		return
	}
	if s.tasks != nil {
		own := s.tasks
		s.closers = slices.DeleteFunc(s.closers, func(x io.Closer) bool { return x == own })
		_ = own.Close()
	}
	s.tasks = prev.tasks
	prev.closers = slices.DeleteFunc(prev.closers, func(x io.Closer) bool { return x == prev.tasks })
	s.closers = append([]io.Closer{s.tasks}, s.closers...) // closed last
}
