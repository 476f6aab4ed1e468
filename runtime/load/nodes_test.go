package load

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestJSONStringAsMarshal: the fast path writes strings byte for byte as
// encoding/json does, escapes included.
func TestJSONStringAsMarshal(t *testing.T) {
	for _, s := range []string{"", "plain text", `a "quoted" word`, `back\slash`, "<b>&amp;</b>", "tab\tnew\nline",
		"\x00\x1f\x7f", "héllo ☃", "\u2028\u2029", "bad \xff utf-8", "uri-template", "{owner}/{repo}",
		"\b\f\v\x01 end", "x\xe2\x80", "\xe2\x80\xa8tail", "emoji 😀 and \\\"", "\xed\xa0\x80 surrogate"} {
		var b bytes.Buffer
		writeJSONString(&b, s)
		want, _ := json.Marshal(s)
		if got := b.String(); got != string(want) {
			t.Errorf("writeJSONString(%q) = %s; want %s", s, got, want)
		}
	}
	// and every string of random bytes
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		raw := make([]byte, r.IntN(12))
		for i := range raw {
			raw[i] = byte(r.IntN(256))
		}
		if r.IntN(2) == 0 { // mostly text, some of it multi-byte
			raw = append(raw, []byte("aé\u2029<")[:r.IntN(8)]...)
		}
		var b bytes.Buffer
		writeJSONString(&b, string(raw))
		if want, _ := json.Marshal(string(raw)); b.String() != string(want) {
			t.Fatalf("writeJSONString(%q) = %s; want %s", raw, b.String(), want)
		}
	}
}
