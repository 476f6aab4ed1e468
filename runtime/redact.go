package runtime

import (
	"net/url"
	"slices"
	"strconv"
	"time"
)

// redactor masks secrets (values a config took from the environment) in
// text that leaves the server: errors, logs, results.
type redactor struct {
	secrets []string
	r       *matcher
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

// add makes values secrets, except short ones and those plainly public.
func (r *redactor) add(values ...string) {
	r.addIf(values, func(v string) bool { return !public(v) })
}

// addCredentials makes values secrets, except short ones: a credential is
// a secret even when it looks public (a webhook URL in SLACK_WEBHOOK).
func (r *redactor) addCredentials(values ...string) {
	r.addIf(values, func(string) bool { return true })
}

func (r *redactor) addIf(values []string, keep func(string) bool) {
	for _, v := range values {
		if len(v) >= minSecret && keep(v) && !slices.Contains(r.secrets, v) {
			r.secrets = append(r.secrets, v)
		}
	}
	if len(r.secrets) > 0 {
		r.r = maskingReplacer(r.secrets)
	}
}

func (r *redactor) apply(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}
