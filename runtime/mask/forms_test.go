package mask

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// secrets used by the masking tests: plain, with JSON's special
// characters, with characters a URL escapes, and multibyte.
var maskSecrets = []string{
	"tok-1234567890",
	`pa"ss\word/<&>`,
	"s3cr3t with spaces+&=?/#%",
	"clé-ünïcødé-秘密",
	"\x00\x01ctl\t\u2028-end",
}

// encodings are the ways a secret shows up in text, each applied to a
// whole secret within a longer text.
var encodings = map[string]func(string) string{
	"raw": func(s string) string { return "before " + s + " after" },
	"json value": func(s string) string {
		b, _ := json.Marshal(map[string]string{"v": s})
		return string(b)
	},
	"json key": func(s string) string {
		b, _ := json.Marshal(map[string]int{s: 1})
		return string(b)
	},
	"query escaped": func(s string) string { return "https://x.example/?q=" + url.QueryEscape(s) + "&n=1" },
	"path escaped":  func(s string) string { return "https://x.example/a/" + url.PathEscape(s) + "/b" },
	"lower-case hex": func(s string) string {
		return "https://x.example/?q=" + lowerHex(url.QueryEscape(s))
	},
	"base64 std":          func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) },
	"base64 url raw":      func(s string) string { return "t=" + base64.RawURLEncoding.EncodeToString([]byte(s)) },
	"base64 in data at 0": func(s string) string { return embedded(base64.StdEncoding, "", s) },
	"base64 in data at 1": func(s string) string { return embedded(base64.StdEncoding, "u", s) },
	"base64 in data at 2": func(s string) string { return embedded(base64.RawURLEncoding, "us", s) },
	"base64 user:pass":    func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+s)) },
}

// embedded is the base64 encoding of s within other data: prefix before
// it (which sets its offset modulo 3) and more data after.
func embedded(enc *base64.Encoding, prefix, s string) string {
	return enc.EncodeToString([]byte("{\"header\":1}" + prefix + s + "\n-- trailing data --"))
}

// leaks reports whether text still gives secret away: as written, or
// decoded from any of the encodings.
func leaks(text, secret string) bool {
	var decoded []string
	decoded = append(decoded, text)
	if s, err := url.QueryUnescape(text); err == nil {
		decoded = append(decoded, s)
	}
	if s, err := url.PathUnescape(text); err == nil {
		decoded = append(decoded, s)
	}
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		b, _ := json.Marshal(v)
		decoded = append(decoded, string(b))
		for k, e := range asMap(v) {
			decoded = append(decoded, k, e)
		}
	}
	decoded = append(decoded, base64Decodings(text)...)
	for _, d := range decoded {
		if strings.Contains(d, secret) {
			return true
		}
	}
	return false
}

func asMap(v any) map[string]string {
	out := map[string]string{}
	if m, ok := v.(map[string]any); ok {
		for k, e := range m {
			s, _ := e.(string)
			out[k] = s
		}
	}
	return out
}

// base64Decodings decodes every run of base64 letters in text, from each
// of its first four letters to each of its last four, in both alphabets.
func base64Decodings(text string) []string {
	var out []string
	runs := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+/-_", r))
	})
	for _, run := range runs {
		for start := 0; start < 4 && start < len(run); start++ {
			for end := len(run); end > len(run)-4 && end > start; end-- {
				for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
					if b, err := enc.DecodeString(run[start:end]); err == nil {
						out = append(out, string(b))
					}
				}
			}
		}
	}
	return out
}

func TestMaskingEveryForm(t *testing.T) {
	t.Parallel()
	r := maskingReplacer(append([]string(nil), maskSecrets...))
	for _, secret := range maskSecrets {
		for name, encode := range encodings {
			text := encode(secret)
			if !leaks(text, secret) {
				t.Fatalf("%s of %q: the test cannot see the secret in %q", name, secret, text)
			}
			if got := r.Replace(text); leaks(got, secret) || !strings.Contains(got, "****") {
				t.Errorf("%s of %q: %q masked is %q", name, secret, text, got)
			}
		}
	}
}

// TestMaskingLeavesShortValues keeps the rule that values of a few
// characters are not secrets, in any form, and that other text is left
// as it is.
func TestMaskingLeavesShortValues(t *testing.T) {
	t.Parallel()
	m := NewMasker(credentials(`a"b`, "tok-1234567890"))
	r := NewRedactor(credentials(`a"b`, "x/y"))
	for _, text := range []string{`{"v":"a\"b"}`, "YSJi", "a%22b", "x%2Fy", "plain text, no secrets: ok"} {
		if got := m.r.Replace(text); got != text {
			t.Errorf("Masker changed %q to %q", text, got)
		}
		if got := r.Apply(text); got != text {
			t.Errorf("Redactor changed %q to %q", text, got)
		}
	}
}

func TestMaskingObjectKeys(t *testing.T) {
	t.Parallel()
	m := NewMasker([]string{"tok-1234567890"})
	shared := map[string]any{"tok-1234567890": "alice", "nested": map[string]any{"x tok-1234567890": 1}}
	got, changed := m.value(shared)
	want := map[string]any{"****": "alice", "nested": map[string]any{"x ****": 1}}
	if diff := cmp.Diff(want, got); diff != "" || !changed {
		t.Errorf("changed=%v (-want +got):\n%s", changed, diff)
	}
	if _, ok := shared["tok-1234567890"]; !ok {
		t.Error("the original value was changed")
	}
}

// TestMaskingResultForms checks a tool result end to end: text content,
// an embedded resource and structured content.
func TestMaskingResultForms(t *testing.T) {
	t.Parallel()
	secret := `pa"ss\word/<&>`
	m := NewMasker([]string{secret})
	key, _ := json.Marshal(map[string]any{secret: 1})
	res := m.ToolResult(&mcp.CallToolResult{
		Content: []mcp.Content{
			&mcp.TextContent{Text: string(key)},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "x://y", Text: "auth=" + base64.StdEncoding.EncodeToString([]byte(secret))}},
		},
		StructuredContent: map[string]any{secret: url.QueryEscape(secret)},
	})
	out, _ := json.Marshal(res)
	if leaks(string(out), secret) || strings.Contains(res.Content[1].(*mcp.EmbeddedResource).Resource.Text, base64.StdEncoding.EncodeToString([]byte(secret))) {
		t.Errorf("the result gives the secret away: %s", out)
	}
}

// BenchmarkMask compares masking a typical result (4 KiB of JSON text, and
// its 160 short strings one by one as in structured content; three
// secrets) for the secrets as written only, as before every form was
// masked; in every form with a strings.Replacer alone; and in every form
// with the matcher mcpgen uses.
func BenchmarkMask(b *testing.B) {
	secrets := []string{"ghp_16C7e42F292c6912E7710c838347Ae178B4a", "postgres://app:hunter22@db/shop",
		"https://hooks.example.com/services/T000/B000/XXXXXXXX"}
	var rows []map[string]any
	var fields []string
	for i := range 40 {
		row := map[string]any{"id": fmt.Sprint(i), "name": "customer name " + strings.Repeat("x", i%7),
			"email": "someone@example.com", "note": "a line of text with / and \\" + ` "quotes"`}
		for _, v := range row {
			fields = append(fields, v.(string))
		}
		rows = append(rows, row)
	}
	clean, _ := json.Marshal(rows)
	dirty := strings.Replace(string(clean), "someone@example.com", secrets[0], 1)
	var pairs []string
	for _, f := range allForms(secrets) {
		pairs = append(pairs, f, "****")
	}
	for _, bb := range []struct {
		name string
		r    interface{ Replace(string) string }
	}{
		{"as-written", strings.NewReplacer(secrets[2], "****", secrets[0], "****", secrets[1], "****")},
		{"every-form-replacer", strings.NewReplacer(pairs...)},
		{"every-form-matcher", maskingReplacer(append([]string(nil), secrets...))},
	} {
		for _, in := range []struct{ name, text string }{{"clean", string(clean)}, {"one-secret", dirty}} {
			b.Run(bb.name+"/text-"+in.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				for b.Loop() {
					_ = bb.r.Replace(in.text)
				}
			})
		}
		b.Run(bb.name+"/fields-clean", func(b *testing.B) {
			for b.Loop() {
				for _, f := range fields {
					_ = bb.r.Replace(f)
				}
			}
		})
	}
}

// allForms are the forms of values, longest first.
func allForms(values []string) []string {
	var all []string
	for _, v := range values {
		all = append(all, forms(v)...)
	}
	slices.SortStableFunc(all, func(a, b string) int { return len(b) - len(a) })
	return all
}

// TestMatcherAgreesWithReplacer checks the matcher against
// strings.Replacer, which it stands in for, on texts built from the
// secrets' forms, their pieces and other text.
func TestMatcherAgreesWithReplacer(t *testing.T) {
	t.Parallel()
	forms := allForms(maskSecrets)
	var pairs []string
	for _, f := range forms {
		pairs = append(pairs, f, "****")
	}
	want, got := strings.NewReplacer(pairs...), maskingReplacer(append([]string(nil), maskSecrets...))
	rnd := rand.New(rand.NewPCG(1, 2))
	pieces := append([]string{"", "a", "tok", "****", "%2", "\\", "=", "\n"}, forms...)
	for _, f := range forms {
		pieces = append(pieces, f[:len(f)/2], f[len(f)/2:], f[1:])
	}
	for range 20000 {
		var b strings.Builder
		for range rnd.IntN(6) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		text := b.String()
		if w, g := want.Replace(text), got.Replace(text); w != g {
			t.Fatalf("%q: strings.Replacer gives %q, the matcher %q", text, w, g)
		}
	}
}

// TestMaskingEchoes: a secret quoted back in another case, by its first
// characters, or (a URL) by its path alone is masked; a short secret's
// prefix and an innocent neighbour of a secret URL are not.
func TestMaskingEchoes(t *testing.T) {
	t.Parallel()
	token := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	hook := "https://hooks.example.com/services/T000/B000/XXXXXXXX"
	r := maskingReplacer([]string{token, hook, "short-key-12"})
	for _, tt := range []struct{ text, want string }{
		{"token GHP_16C7E42F292C6912E7710C838347AE178B4A refused", "token **** refused"},
		{"token ghp_16c7e42f292c6912e7710c838347ae178b4a refused", "token **** refused"},
		{"token ghp_16C7e42F29... is revoked", "token ****29... is revoked"},
		{"POST /services/T000/B000/XXXXXXXX → 404", "POST **** → 404"},
		{"a whole " + hook + " stays masked whole", "a whole **** stays masked whole"},
		{"https://hooks.example.com/services/other is not a secret", "https://hooks.example.com/services/other is not a secret"},
		{"short-key- is too short to mask by its prefix", "short-key- is too short to mask by its prefix"},
		{"SHORT-KEY-12 in upper case", "**** in upper case"},
	} {
		if got := r.Replace(tt.text); got != tt.want {
			t.Errorf("%q: masked %q, want %q", tt.text, got, tt.want)
		}
	}
}
