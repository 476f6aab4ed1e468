package runtime

import "time"

// SetWatchInterval sets how often s checks file-backed resources.
func SetWatchInterval(s *Server, d time.Duration) { s.watchEvery = d }
