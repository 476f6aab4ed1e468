package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestToolProtocolDiagnostics(t *testing.T) {
	t.Parallel()
	config := `version: 1
tools:
  - name: t
    description: d
    confirm: sure?
    requires: [sampling, telepathy]
    steps: [{elicit: {message: m, as: confirm}}]
    content: [{text: x}]
`
	want := []string{
		"5:14: tools[0].confirm: a step result is named confirm too; name it otherwise, the answers would mix",
		`6:26: tools[0].requires[1]: expected one of sampling, elicitation, roots, got "telepathy"`,
	}
	if diff := cmp.Diff(want, diagnose(t, config)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestProtocolConfigDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, server string
		want         []string
	}{
		{"short key", `{request_state: {key: too-short}}`,
			[]string{"2:31: warning: server.request_state.key: the key is 9 bytes: a guessable key lets clients forge request states; use at least 32; e.g. key: ${MCPGEN_STATE_KEY}, set to the output of `openssl rand -base64 48`"}},
		{"good key and cache", `{request_state: {key: 0123456789abcdef0123456789abcdef, ttl: 1m}, cache_hint: {ttl: 5s, scope: private}}`, nil},
		{"unknown scope", `{cache_hint: {scope: shared}}`,
			[]string{`2:30: server.cache_hint.scope: expected one of public, private, got "shared"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			config := "version: 1\nserver: " + tt.server + "\ntools:\n  - {name: t, description: d, content: [{text: x}]}\n"
			if diff := cmp.Diff(tt.want, diagnose(t, config)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
