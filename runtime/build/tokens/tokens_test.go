package tokens

import "testing"

// TestCountKnown checks counts against OpenAI's o200k_base as another
// implementation counts them (js-tiktoken 1.x with its o200k_base ranks):
// plain words, a sentence, JSON as tools/list sends it, text beyond ASCII,
// white space.
func TestCountKnown(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"Get a repository", 3},
		{"tiktoken is great!", 6},
		{"List the pull requests of a repository, newest first.", 11},
		{`{"type":"object","properties":{"owner":{"type":"string","description":"The account owner of the repository. The name is not case sensitive."}},"required":["owner"]}`, 36},
		{"Ünïcödé — 日本語のテキスト 🚀", 14},
		{"    indented\n\tcode();\r\n", 6},
	} {
		if got := Count(tt.in); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestCountInvalidUTF8 counts bytes that are not UTF-8 as the replacement
// characters a client shows, rather than failing.
func TestCountInvalidUTF8(t *testing.T) {
	if got, want := Count("ok \xff\xfe"), Count("ok \uFFFD"); got != want || got == 0 {
		t.Errorf("Count of invalid UTF-8 = %d, want %d", got, want)
	}
}
