package runtime

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// redactor masks secrets (values a config took from the environment) in
// text that leaves the server: errors, logs, results.
type redactor struct {
	secrets []string
	r       *strings.Replacer
}

// minSecret is the shortest value treated as a secret: masking "1" or "on"
// everywhere would garble output without protecting anything.
const minSecret = 4

// public reports whether a value from the environment is plainly not a
// secret: a URL without credentials (a base URL), a number, a boolean or a
// duration. Masking those would hide where a request goes and help nobody.
func public(v string) bool {
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" && u.User == nil && u.RawQuery == "" {
		return true
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true
	}
	if _, err := time.ParseDuration(v); err == nil {
		return true
	}
	_, err := strconv.ParseBool(v)
	return err == nil
}

func (r *redactor) add(values ...string) {
	for _, v := range values {
		if len(v) >= minSecret && !public(v) && !slices.Contains(r.secrets, v) {
			r.secrets = append(r.secrets, v)
		}
	}
	r.r = maskingReplacer(r.secrets)
}

// maskingReplacer replaces each of values with "****", longest first, so
// that a secret containing another is masked whole. It sorts values.
func maskingReplacer(values []string) *strings.Replacer {
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(values))
	for _, v := range values {
		pairs = append(pairs, v, "****")
	}
	return strings.NewReplacer(pairs...)
}

func (r *redactor) apply(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}
