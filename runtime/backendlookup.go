package runtime

// Backend returns the opened shared backend named name (an entry of
// `backends`), for code that works on it directly, such as `mcpgen test`
// seeding a database; ok is false when there is none.
func (s *Server) Backend(name string) (b any, ok bool) {
	b, ok = s.plan.Backends[name]
	return b, ok
}
