package load

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Secrets is mcpgen's one policy for the values a config takes from the
// environment through ${VAR} and env.NAME:
//
//   - Which values are secret. A value is a secret when its variable's name
//     marks one (SecretName: API_TOKEN, DB_PASSWORD, SLACK_WEBHOOK), when
//     the config declares it one (top-level `secrets:`), when it feeds a
//     credential field (CredentialField: auth settings, a header that
//     carries a credential, the password of a DSN), or when it is a URL
//     that carries a password. Every other value (a base URL, a host, a
//     region, a scheme) is not: masking it would hide where a request goes
//     and garble any text that happens to contain it. A value shorter than
//     MinSecret is never secret.
//   - Where a secret may appear. Only in fields clients never see
//     (handlers, backends, server.http, file paths: the `mcpgen:"server"`
//     fields of spec/); in any other field a variable that is secret by
//     its name or by declaration is an error at load, because tools/list,
//     prompts and content would send it as written.
//   - Where it is masked: in errors, logs and dry runs, and in tool results
//     and resource contents, in every form it may take there (as written,
//     JSON-escaped, URL-encoded, base64).
//
// The loader fills one Secrets per file; Merge joins them for a server.
type Secrets struct {
	taken    []taken  // every value taken, in order
	declared []string // names declared secret (`secrets:`)
}

// taken is one value taken from the environment variable name; cred is
// set when it fed a credential field.
type taken struct {
	name, value string
	cred        bool
}

// MinSecret is the length of the shortest value treated as a secret.
const MinSecret = 4

// Add records a value taken from the environment variable name.
func (s *Secrets) Add(name, value string) {
	s.add(name, value, false)
}

// AddCredential records a value taken from the environment variable name
// into a credential field (see CredentialField), which makes it a secret
// whatever its name.
func (s *Secrets) AddCredential(name, value string) {
	s.add(name, value, true)
}

func (s *Secrets) add(name, value string, cred bool) {
	if value == "" {
		return
	}
	t := taken{name: name, value: value, cred: cred}
	if !slices.Contains(s.taken, t) {
		s.taken = append(s.taken, t)
	}
}

// Declare marks the variables names as secrets whatever they are called.
func (s *Secrets) Declare(names ...string) {
	for _, n := range names {
		s.declared = appendNew(s.declared, n)
	}
}

// Secret reports whether a value taken from the variable name is a
// secret.
func (s *Secrets) Secret(name string) bool {
	for _, t := range s.taken {
		if t.name == name && s.secret(t) {
			return true
		}
	}
	return SecretName(name) || s.Declared(name)
}

// Declared reports whether name was declared a secret.
func (s *Secrets) Declared(name string) bool { return slices.Contains(s.declared, name) }

// Merge adds o's values and declarations to s.
func (s *Secrets) Merge(o *Secrets) {
	for _, t := range o.taken {
		s.add(t.name, t.value, t.cred)
	}
	s.Declare(o.declared...)
}

// Values returns every value taken from the environment.
func (s *Secrets) Values() []string {
	var out []string
	for _, t := range s.taken {
		out = appendNew(out, t.value)
	}
	return out
}

// Credentials returns the values to mask, in errors, logs, dry runs,
// results and resource contents: the secrets, none shorter than
// MinSecret.
func (s *Secrets) Credentials() []string {
	var out []string
	for _, t := range s.taken {
		if len(t.value) >= MinSecret && s.secret(t) {
			out = appendNew(out, t.value)
		}
	}
	return out
}

func (s *Secrets) secret(t taken) bool {
	return t.cred || SecretName(t.name) || s.Declared(t.name) || hasCredentials(t.value)
}

// declareSecrets reads the names of the top-level `secrets:` list of a
// file into s before the file is decoded, so that every ${NAME} of a
// declared secret is known as one.
func declareSecrets(root *yaml.Node, d Reporter, s *Secrets) {
	list := Resolve(Field(root, "secrets"))
	if list == nil || list.Kind != yaml.SequenceNode {
		return // the decoder reports what is wrong with it
	}
	for i, n := range list.Content {
		n = Resolve(n)
		if n == nil || n.Kind != yaml.ScalarNode {
			continue
		}
		if !validEnvName(n.Value) {
			d.At(n, fmt.Sprintf("secrets[%d]", i), fmt.Sprintf("%q is not an environment variable's name", n.Value),
				"write the name alone, letters, digits and _: API_USER, not ${API_USER}")
			continue
		}
		s.Declare(n.Value)
	}
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
// its name or a declaration, or, when it is set, by a value with
// credentials in it.
func (s *Secrets) secretRef(r envRef) bool {
	return r.file || SecretName(r.name) || s.Declared(r.name) || hasCredentials(r.value)
}
