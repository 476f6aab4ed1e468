package httpkind

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestIndentJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{}`, `[]`, `1`, `"a"`, `null`, `{ }`, `[ ]`, ` {"a" : [ 1 , 2 ] , "b":{ } }`,
		`{"s":"with \"quotes\", commas: {braces} [brackets] and \\ backslash\\","n":-1.5e3,"t":true,"f":false,"z":null}`,
		`[[],[{}],{"a":[]},"\u00e9\n"]`, "{\n\t\"x\" :\r\n 1\n}",
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := string(indentJSON(nil, []byte(in))); got != want.String() {
			t.Errorf("indentJSON(%q) =\n%s\nwant\n%s", in, got, want.String())
		}
	}
}

func FuzzIndentJSON(f *testing.F) {
	f.Add(`{"a":[1,{"b":"c\"]"}],"d":{}}`)
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		var want bytes.Buffer
		_ = json.Indent(&want, []byte(in), "", "  ")
		if got := string(indentJSON(nil, []byte(in))); got != string(bytes.TrimSpace(want.Bytes())) {
			t.Errorf("indentJSON(%q) = %q, want %q", in, got, want.String())
		}
	})
}
