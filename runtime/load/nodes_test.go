package load

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJSONStringAsMarshal: the fast path writes strings byte for byte as
// encoding/json does, escapes included.
func TestJSONStringAsMarshal(t *testing.T) {
	for _, s := range []string{"", "plain text", `a "quoted" word`, `back\slash`, "<b>&amp;</b>", "tab\tnew\nline",
		"\x00\x1f\x7f", "héllo ☃", "\u2028\u2029", "bad \xff utf-8", "uri-template", "{owner}/{repo}"} {
		var b bytes.Buffer
		writeJSONString(&b, s)
		want, _ := json.Marshal(s)
		if got := b.String(); got != string(want) {
			t.Errorf("writeJSONString(%q) = %s; want %s", s, got, want)
		}
	}
}
