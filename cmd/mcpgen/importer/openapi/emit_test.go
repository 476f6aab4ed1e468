package openapi

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// awkward are strings whose YAML form is not plain: the emitter must write
// them as yaml.v3 does, wherever they stand.
var awkward = []string{
	"", " ", "plain", "two words", "yes", "no", "on", "true", "True", "TRUE", "null", "Null", "~",
	"+1", "-1", "1", "1.5", "0x1F", "1e3", ".inf", ".nan", "2024-01-02", "12:30", "<<", "=",
	"a: b", "a:b", "a #b", "a#b", "#x", "x:", "-x", "- x", "?x", "? x", "[x]", "{x}", "a, b", "a,b",
	"'q'", `"q"`, "it's", "a\tb", "tab\t", " lead", "trail ", "é", "naïve café", "em — dash",
	"line\nbreak", "line\nbreak\n", " lead\nline", "trailing \nspace", "a\n\nb", "\u0085", "\u2028",
	"\ufeffbom", "ctl\x01", "${{ args.x }}", "$${x}", "*star", "&amp", "!bang", "%pct", "@at", "`tick",
	strings.Repeat("k", 129), "a|b", "a>b", "|", ">", "x  y", "naïve\ncafé — ok", "x\n\u2028y", "a\n\u00a0b",
	"\u00a0nbsp", "nbsp\u00a0", "a\u00a0#b", "emoji 🙂", "emoji\n🙂", "bad \xff utf8", "bad\n\xff", "\ufffd", "x\n\ufeffy",
	"a\u0085b", "tab\n\tx", "del\x7f", "a\n \n b", "a\r\nb",
}

// TestEmitScalars: each awkward string as a key, a value, a sequence item
// and a flow item is written as yaml.v3 writes it.
func TestEmitScalars(t *testing.T) {
	for _, s := range awkward {
		t.Run(strings.ReplaceAll(s, "/", "_"), func(t *testing.T) {
			root := mapping()
			root.HeadComment = "head\n\n#already\nnext"
			set(root, "value", str(s))
			root.Content = append(root.Content, str(s), str("k"))
			seq := sequence()
			seq.Content = append(seq.Content, str(s), str(s))
			set(root, "seq", seq)
			fl := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{str(s), str("b")}}
			set(root, "flow", fl)
			fm := flowMapping()
			set(fm, s, str(s))
			set(root, "flow_map", fm)
			nested := mapping()
			set(nested, "deep", str(s))
			item := mapping()
			item.HeadComment = "item"
			set(item, "first", str(s))
			set(item, "second", nested)
			items := sequence()
			items.Content = append(items.Content, item, seq)
			set(root, "items", items)
			doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
			want, err := encode(doc)
			if err != nil {
				if _, rerr := Render(doc); rerr == nil {
					t.Errorf("the encoder failed (%v), Render did not", err)
				}
				return
			}
			got, err := Render(doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%q (-encoder +Render):\n%s", s, diff)
			}
		})
	}
}

// TestEmitValues: values decoded from a description (defaults, examples,
// enums of any type) are written as yaml.v3 writes them.
func TestEmitValues(t *testing.T) {
	for _, v := range []any{
		0, -3, 1.5, 1e21, float64(7), true, false, nil, "s", int64(1 << 40), uint(3),
		map[string]any{"a": 1, "b": []any{"x", 2.5, nil}, "c": map[string]any{}},
		[]any{}, []any{[]any{1, 2}, map[string]any{"k": "v"}}, map[string]any{"": "empty key"},
	} {
		var enc yaml.Node
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if got := value(v); got.Kind == yaml.ScalarNode && (got.Tag != enc.Tag || got.Value != enc.Value) {
			t.Errorf("value(%#v) = %s %s, Encode gives %s %s", v, got.Tag, got.Value, enc.Tag, enc.Value)
		}
		root := mapping()
		set(root, "default", value(v))
		enum := sequence()
		enum.Style = yaml.FlowStyle
		enum.Content = append(enum.Content, value(v))
		set(root, "enum", enum)
		doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
		want, err := encode(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Render(doc)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%#v (-encoder +Render):\n%s", v, diff)
		}
	}
}
