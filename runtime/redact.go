package runtime

// redactor masks secrets in text that leaves the server: errors, logs,
// dry runs. Which values it masks is load.Secrets' policy (Credentials).
type redactor struct {
	r *matcher
}

// newRedactor returns a redactor for values, which may be empty.
func newRedactor(values []string) *redactor {
	if len(values) == 0 {
		return &redactor{}
	}
	return &redactor{r: maskingReplacer(values)}
}

func (r *redactor) apply(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}
