package runtime

import "testing"

func TestRedact(t *testing.T) {
	r := newRedactor(sensitive("sekrit-token-123", "https://api.example.com/v1", "https://user:pw@db.example.com", "30s", "8080", "true", "abc"))
	for _, tt := range []struct{ in, want string }{
		{"Bearer sekrit-token-123", "Bearer ****"},
		{"GET https://api.example.com/v1/tickets", "GET https://api.example.com/v1/tickets"},
		{"dial https://user:pw@db.example.com failed", "dial **** failed"},
		{"timeout 30s on port 8080: true", "timeout 30s on port 8080: true"},
		{"abc", "abc"}, // too short to mask without garbling text
	} {
		if got := r.apply(tt.in); got != tt.want {
			t.Errorf("apply(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
