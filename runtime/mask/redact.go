// Package mask hides secrets in what leaves the server: the Masker in
// results (a tool's output, a resource's contents), the Redactor in errors,
// logs and dry runs. Both mask every form a secret takes (forms.go) in one
// pass over a text (matcher.go). Which values they mask is load.Secrets'
// policy (Credentials).
package mask

// Redactor masks secrets in text that leaves the server: errors, logs,
// dry runs. Which values it masks is load.Secrets' policy (Credentials).
type Redactor struct {
	r *matcher
}

// NewRedactor returns a Redactor for values, which may be empty.
func NewRedactor(values []string) *Redactor {
	if len(values) == 0 {
		return &Redactor{}
	}
	return &Redactor{r: maskingReplacer(values)}
}

// Apply masks the secrets in s.
func (r *Redactor) Apply(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}
