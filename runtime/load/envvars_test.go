package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvVars(t *testing.T) {
	got, err := EnvVars([]byte(`version: 1
backends:
  api: {kind: http, base_url: "${API_URL:-http://localhost:8080}/v1", auth: {bearer: "${API_TOKEN}"}}
  crm: {kind: http, base_url: "https://crm", auth: {basic: {username: "${CRM_USER}", password: "${CRM_PW}"}}}
secrets: [CRM_USER]
tools:
  - name: t
    description: "costs $${PRICE} and ${{ args.x }}"
    handler: {kind: shell, command: [echo, "${API_URL}", "${REGION:-}"]}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{
		{Name: "API_URL", Default: "http://localhost:8080", HasDefault: true},
		{Name: "API_TOKEN", Secret: true},
		{Name: "CRM_USER", Secret: true}, // declared
		{Name: "CRM_PW", Secret: true},   // feeds a password
		{Name: "REGION", HasDefault: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
