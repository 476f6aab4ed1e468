package load

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Secrets is mcpgen's one policy for the values a config takes from the
// environment through ${VAR}:
//
//   - Which values are secret. A credential is the value of a variable whose
//     name marks a secret (SecretName: API_TOKEN, DB_PASSWORD, SLACK_WEBHOOK)
//     or a URL that carries a password (a DSN). Every other value is
//     sensitive unless it is plainly public (Public: a URL without
//     credentials, a number, a boolean, a duration). A value shorter than
//     MinSecret is never secret: masking "1" or "on" would garble output
//     without protecting anything.
//   - Where a credential may appear. Only in fields clients never see
//     (handlers, backends, server.http, file paths: the `mcpgen:"server"`
//     fields of spec/); in any other field it is an error at load, because
//     tools/list, prompts and content would send it as written.
//   - What is masked, and where. Credentials and sensitive values are
//     masked in errors and logs (Masked); credentials also in tool results
//     and resource contents (Credentials), in every form they may take
//     there (as written, JSON-escaped, URL-encoded, base64).
//
// The loader fills one Secrets per file; Merge joins them for a server.
type Secrets struct {
	values      []string // every value taken, in order, without repeats
	credentials []string // the credentials among them
}

// MinSecret is the length of the shortest value treated as a secret.
const MinSecret = 4

// Add records a value taken from the environment variable name.
func (s *Secrets) Add(name, value string) {
	s.add(envRef{name: name, value: value})
}

// add records r's value, if it has one, and reports whether it is a
// credential.
func (s *Secrets) add(r envRef) bool {
	cred := secretRef(r)
	if r.value == "" {
		return cred
	}
	s.values = appendNew(s.values, r.value)
	if cred {
		s.credentials = appendNew(s.credentials, r.value)
	}
	return cred
}

// Merge adds o's values to s.
func (s *Secrets) Merge(o *Secrets) {
	for _, v := range o.values {
		s.values = appendNew(s.values, v)
	}
	for _, v := range o.credentials {
		s.credentials = appendNew(s.credentials, v)
	}
}

// Values returns every value taken from the environment.
func (s *Secrets) Values() []string { return s.values }

// Masked returns the values to mask in errors and logs: the credentials
// and every other value that is not plainly public, none shorter than
// MinSecret.
func (s *Secrets) Masked() []string {
	var out []string
	for _, v := range s.values {
		if len(v) >= MinSecret && (slices.Contains(s.credentials, v) || !Public(v)) {
			out = append(out, v)
		}
	}
	return out
}

// Credentials returns the values to mask in results too, none shorter
// than MinSecret.
func (s *Secrets) Credentials() []string {
	var out []string
	for _, v := range s.credentials {
		if len(v) >= MinSecret {
			out = append(out, v)
		}
	}
	return out
}

// Public reports whether a value is plainly not a secret: a URL without
// credentials or query (a base URL), a number, a boolean or a duration.
// Masking those would hide where a request goes and help nobody.
func Public(v string) bool {
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

func appendNew(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// secretWords are the words of an environment variable's name that mark
// its value as a secret: API_TOKEN, DB_PASSWORD, STRIPE_SECRET_KEY.
var secretWords = []string{
	"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASS", "PASSPHRASE", "PWD",
	"KEY", "KEYS", "APIKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "PRIVATE", "COOKIE", "AUTHORIZATION",
	"BEARER", "DSN", "WEBHOOK", "WEBHOOKS",
}

// secretSuffixes mark a secret at the end of a name without underscores:
// GITHUBTOKEN, DBPASSWORD.
var secretSuffixes = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "WEBHOOK"}

// SecretName reports whether an environment variable's name says that it
// holds a secret. PWD and OLDPWD, the shell's directories, do not.
func SecretName(name string) bool {
	upper := strings.ToUpper(name)
	if upper == "PWD" || upper == "OLDPWD" {
		return false
	}
	for _, w := range strings.Split(upper, "_") {
		if slices.Contains(secretWords, w) {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(upper, s) {
			return true
		}
	}
	return false
}

// hasCredentials reports whether v is a URL that carries a password, such
// as a database DSN: a secret whatever its variable is called.
func hasCredentials(v string) bool {
	u, err := url.Parse(v)
	if err != nil || u.User == nil {
		return false
	}
	_, ok := u.User.Password()
	return ok
}

// secretRef reports whether an environment reference is to a secret: by
// its name, or, when it is set, by a value with credentials in it.
func secretRef(r envRef) bool {
	return SecretName(r.name) || hasCredentials(r.value)
}
