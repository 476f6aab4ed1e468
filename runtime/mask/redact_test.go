package mask

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestRedact shows both sides of masking in errors and logs: secrets are
// masked; a scheme, a host or a base URL taken from the environment is not
// (it once turned "https" into "****s").
func TestRedact(t *testing.T) {
	var s load.Secrets
	for name, v := range map[string]string{"API_TOKEN": "sekrit-token-123", "BASE_URL": "https://api.example.com/v1",
		"DB_URL": "https://user:pw@db.example.com", "SCHEME": "http", "HOST": "api.example.com", "TIMEOUT": "30s",
		"PORT": "8080", "DEBUG": "true", "PIN_TOKEN": "abc", "REGION": "eu-west-1"} {
		s.Add(name, v)
	}
	s.AddCredential("CRM_USER", "crm-user-7") // fed auth.basic.password, say
	r := NewRedactor(s.Credentials())
	for _, tt := range []struct{ in, want string }{
		{"Bearer sekrit-token-123", "Bearer ****"},
		{"GET https://api.example.com/v1/tickets", "GET https://api.example.com/v1/tickets"},
		{"dial https://user:pw@db.example.com failed", "dial **** failed"},
		{"timeout 30s on port 8080: true", "timeout 30s on port 8080: true"},
		{"Post \"https://api.example.com/x\": EOF in eu-west-1", "Post \"https://api.example.com/x\": EOF in eu-west-1"},
		{"user crm-user-7 refused", "user **** refused"},
		{"abc", "abc"}, // too short to mask without garbling text
	} {
		if got := r.Apply(tt.in); got != tt.want {
			t.Errorf("apply(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
