package runtime

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// secretWords are the words of an environment variable's name that mark
// its value as a secret: API_TOKEN, DB_PASSWORD, STRIPE_SECRET_KEY.
var secretWords = []string{
	"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASS", "PASSPHRASE", "PWD",
	"KEY", "KEYS", "APIKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "PRIVATE", "COOKIE", "AUTHORIZATION",
	"BEARER", "DSN",
}

// secretSuffixes mark a secret at the end of a name without underscores:
// GITHUBTOKEN, DBPASSWORD.
var secretSuffixes = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY"}

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

// masker hides credentials in results: a tool's output, a resource's
// contents. A nil masker leaves everything as it is.
type masker struct {
	r *strings.Replacer
}

// newMasker returns a masker for values, or nil when there is nothing to
// hide. Values shorter than minSecret are left alone: masking them would
// garble output without protecting anything.
func newMasker(values []string) *masker {
	var keep []string
	for _, v := range values {
		if len(v) >= minSecret && !slices.Contains(keep, v) {
			keep = append(keep, v)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	return &masker{r: maskingReplacer(keep)}
}

// value masks the strings in a decoded JSON value. It copies only what
// changes: the value may be shared (a default, a cached result).
func (m *masker) value(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		s := m.r.Replace(v)
		return s, s != v
	case map[string]any:
		var out map[string]any
		for k, e := range v {
			if masked, changed := m.value(e); changed {
				if out == nil {
					out = maps.Clone(v)
				}
				out[k] = masked
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range v {
			if masked, changed := m.value(e); changed {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = masked
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case nil, bool, float64, int64, int, json.Number:
		return v, false
	}
	// another Go type (a struct, a typed slice): mask its JSON form
	raw, err := json.Marshal(v)
	if err != nil {
		return v, false
	}
	var plain any
	if json.Unmarshal(raw, &plain) != nil {
		return v, false
	}
	if masked, changed := m.value(plain); changed {
		return masked, true
	}
	return v, false
}

// content masks the text of content blocks, copying the blocks it changes.
func (m *masker) content(cs []mcp.Content) []mcp.Content {
	var out []mcp.Content
	set := func(i int, c mcp.Content) {
		if out == nil {
			out = slices.Clone(cs)
		}
		out[i] = c
	}
	for i, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			if t := m.r.Replace(c.Text); t != c.Text {
				cc := *c
				cc.Text = t
				set(i, &cc)
			}
		case *mcp.EmbeddedResource:
			if rc := m.resourceContents(c.Resource); rc != c.Resource {
				cc := *c
				cc.Resource = rc
				set(i, &cc)
			}
		}
	}
	if out == nil {
		return cs
	}
	return out
}

func (m *masker) resourceContents(rc *mcp.ResourceContents) *mcp.ResourceContents {
	if rc == nil || rc.Text == "" {
		return rc
	}
	if t := m.r.Replace(rc.Text); t != rc.Text {
		c := *rc
		c.Text = t
		return &c
	}
	return rc
}

// toolResult masks a tool's result: its content and structured content.
func (m *masker) toolResult(res *mcp.CallToolResult) *mcp.CallToolResult {
	if m == nil || res == nil {
		return res
	}
	res.Content = m.content(res.Content)
	if res.StructuredContent != nil {
		res.StructuredContent, _ = m.value(res.StructuredContent)
	}
	return res
}

// readResult masks the text contents of a resource.
func (m *masker) readResult(res *mcp.ReadResourceResult) *mcp.ReadResourceResult {
	if m == nil || res == nil {
		return res
	}
	for i, c := range res.Contents {
		res.Contents[i] = m.resourceContents(c)
	}
	return res
}
