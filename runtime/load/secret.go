package load

import (
	"net/url"
	"slices"
	"strings"
)

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

// secretName reports whether an environment variable's name says that it
// holds a secret. PWD and OLDPWD, the shell's directories, do not.
func secretName(name string) bool {
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
	return secretName(r.name) || hasCredentials(r.value)
}
