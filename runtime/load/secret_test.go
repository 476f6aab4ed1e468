package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSecretName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"API_TOKEN": true, "GITHUB_TOKEN": true, "githubToken": true, "GITHUBTOKEN": true, "DB_PASSWORD": true,
		"PGPASSWORD": true, "MYSQL_PWD": true, "STRIPE_SECRET_KEY": true, "AWS_SECRET_ACCESS_KEY": true,
		"OPENAI_API_KEY": true, "APIKEY": true, "SESSION_COOKIE": true, "DATABASE_DSN": true, "PRIVATE_KEY": true,
		"GOOGLE_APPLICATION_CREDENTIALS": true, "AUTHORIZATION": true, "SMTP_PASS": true,
		"SLACK_WEBHOOK": true, "SLACK_WEBHOOK_URL": true, "DISCORDWEBHOOK": true,
		"REGION": false, "HOME": false, "PWD": false, "OLDPWD": false, "BASE_URL": false, "AUTH_URL": false,
		"KEYBOARD": false, "MONKEY": false, "PASSAGE": false, "TOKENIZER_MODEL": false, "COMPANY": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestHasCredentials(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"postgres://app:hunter22@db/shop": true, "https://user:pw@api.example.com": true,
		"postgres://app@db/shop": false, "https://api.example.com/v1": false, "eu-west-1": false, "": false,
		"user:pass": false, // not a URL with a host
	} {
		if got := hasCredentials(v); got != want {
			t.Errorf("hasCredentials(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestSecretsPolicy shows both sides of the policy: what is masked in
// errors and logs, what also in results, and what never.
func TestSecretsPolicy(t *testing.T) {
	t.Parallel()
	var s Secrets
	s.Add("API_TOKEN", "tok-123456")                          // a credential by its name
	s.Add("SLACK_WEBHOOK", "https://hooks.example.com/T0/B0") // public-looking, but a credential
	s.Add("DATABASE", "postgres://app:pw@db/app")             // a credential by its value
	s.Add("BASE_URL", "https://api.example.com")              // public
	s.Add("REGION", "eu-west-1")                              // sensitive, not a credential
	s.Add("TIMEOUT", "30s")                                   // public
	s.Add("PIN_TOKEN", "abc")                                 // too short to be a secret
	s.Add("API_TOKEN", "tok-123456")                          // a repeat is kept once
	s.Add("EMPTY_TOKEN", "")                                  // nothing to mask
	other := Secrets{}
	other.Add("OTHER_KEY", "key-987654")
	s.Merge(&other)
	wantMasked := []string{"tok-123456", "https://hooks.example.com/T0/B0", "postgres://app:pw@db/app", "eu-west-1", "key-987654"}
	if diff := cmp.Diff(wantMasked, s.Masked()); diff != "" {
		t.Errorf("masked in errors and logs (-want +got):\n%s", diff)
	}
	wantCreds := []string{"tok-123456", "https://hooks.example.com/T0/B0", "postgres://app:pw@db/app", "key-987654"}
	if diff := cmp.Diff(wantCreds, s.Credentials()); diff != "" {
		t.Errorf("masked in results too (-want +got):\n%s", diff)
	}
}
