package fuzzseed

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplit(t *testing.T) {
	in := "version: 1\nserver: {name: s}\ntools:\n  - name: a\n  - name: b\nbackends:\n  db: {kind: sql}\n"
	var got []string
	for _, s := range Split([]byte(in)) {
		got = append(got, string(s))
	}
	want := []string{
		"version: 1\nserver: {name: s}\n",
		"version: 1\ntools:\n    - name: a\n",
		"version: 1\ntools:\n    - name: b\n",
		"version: 1\nbackends:\n    db: {kind: sql}\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLines(t *testing.T) {
	got := Lines([]byte("a\r\nb\rc\nd\u2028e"))
	var s []string
	for _, l := range got {
		s = append(s, string(l))
	}
	if want := "a|b|c|d|e"; strings.Join(s, "|") != want {
		t.Errorf("Lines = %q, want %s", s, want)
	}
}
