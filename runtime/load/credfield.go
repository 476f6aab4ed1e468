package load

import (
	"strings"
)

// CredentialField reports whether a value written at path (a dotted path
// such as "backends.crm.auth.bearer" or "tools[0].handler.headers.X-Api-Key")
// is a credential: a value that feeds it from the environment is a secret
// whatever its variable is called. Credential fields are those named for a
// secret (password, client_secret, bearer, token, a query parameter such as
// api_key), the value of an API key, and headers that carry a credential
// (Authorization, Cookie, X-Api-Key, X-Signature). Settings about a
// credential (token_url, key_file) are not.
func CredentialField(path string) bool {
	segs := strings.Split(path, ".")
	leaf := stripIndex(segs[len(segs)-1])
	parent := ""
	if len(segs) > 1 {
		parent = stripIndex(segs[len(segs)-2])
	}
	switch {
	case parent == "headers":
		return credentialHeader(leaf)
	case parent == "api_key" && leaf == "value":
		return true
	case leaf == "dsn": // only its password is: see dsnPassword
		return false
	}
	lower := strings.ToLower(leaf)
	for _, suffix := range []string{"_file", "_url", "_path", "_header", "_param", "_field", "_name"} {
		if strings.HasSuffix(lower, suffix) {
			return false
		}
	}
	if strings.HasPrefix(lower, "max_") || strings.HasPrefix(lower, "min_") {
		return false // a bound: max_tokens
	}
	return SecretName(leaf)
}

// credentialHeader reports whether a header's name says it carries a
// credential.
func credentialHeader(name string) bool {
	n := strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
	for _, w := range strings.Split(n, "_") {
		if w == "SIGNATURE" || w == "AUTH" {
			return true
		}
	}
	return SecretName(n)
}

func stripIndex(seg string) string {
	if i := strings.IndexByte(seg, '['); i > 0 {
		return seg[:i]
	}
	return seg
}

// dsnPassword returns the byte span of the password in a database DSN:
// a URL (postgres://user:pass@host/db), the MySQL driver's form
// (user:pass@tcp(host)/db) or key=value pairs (host=h password=pass). It
// returns -1, -1 when the DSN has none.
func dsnPassword(dsn string) (from, to int) {
	if i := strings.Index(dsn, "password="); i >= 0 && !strings.Contains(dsn[:i], "://") {
		from = i + len("password=")
		if strings.HasPrefix(dsn[from:], "'") {
			from++
			if j := strings.IndexByte(dsn[from:], '\''); j >= 0 {
				return from, from + j
			}
			return from, len(dsn)
		}
		if j := strings.IndexAny(dsn[from:], " \t"); j >= 0 {
			return from, from + j
		}
		return from, len(dsn)
	}
	start := 0
	if i := strings.Index(dsn, "://"); i >= 0 {
		start = i + 3
	}
	rest := dsn[start:]
	if p := strings.IndexByte(rest, '('); p >= 0 {
		rest = rest[:p] // user:pass@tcp(host:port)/db
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return -1, -1
	}
	colon := strings.IndexByte(rest[:at], ':')
	if colon < 0 {
		return -1, -1
	}
	return start + colon + 1, start + at
}
