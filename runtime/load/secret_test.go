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

// TestSecretsPolicy shows both sides of the policy: what is masked, and
// what never.
func TestSecretsPolicy(t *testing.T) {
	t.Parallel()
	var s Secrets
	s.Add("API_TOKEN", "tok-123456")                          // a secret by its name
	s.Add("SLACK_WEBHOOK", "https://hooks.example.com/T0/B0") // public-looking, but named a secret
	s.Add("DATABASE", "postgres://app:pw@db/app")             // a secret by its value
	s.Add("BASE_URL", "https://api.example.com")              // not a secret
	s.Add("REGION", "eu-west-1")                              // not a secret
	s.Add("SCHEME", "https")                                  // not a secret
	s.Add("TIMEOUT", "30s")                                   // not a secret
	s.Add("PIN_TOKEN", "abc")                                 // too short to be a secret
	s.Add("API_TOKEN", "tok-123456")                          // a repeat is kept once
	s.Add("EMPTY_TOKEN", "")                                  // nothing to mask
	s.AddCredential("CRM_USER", "crm-user-1")                 // fed a credential field
	s.Add("CRM_USER", "crm-user-1")                           // the same value elsewhere stays one
	s.AddCredential("SHORT", "ab")                            // too short even so
	s.Add("SIGNING_MATERIAL", "s3cr3t-material")              // declared, in another file
	other := Secrets{}
	other.Add("OTHER_KEY", "key-987654")
	other.Declare("SIGNING_MATERIAL")
	s.Merge(&other)
	want := []string{"tok-123456", "https://hooks.example.com/T0/B0", "postgres://app:pw@db/app",
		"crm-user-1", "s3cr3t-material", "key-987654"}
	if diff := cmp.Diff(want, s.Credentials()); diff != "" {
		t.Errorf("masked (-want +got):\n%s", diff)
	}
}

func TestCredentialField(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"backends.crm.auth.bearer": true, "backends.crm.auth.basic.password": true,
		"backends.crm.auth.api_key.value": true, "backends.crm.auth.oauth2.client_secret": true,
		"tools[0].handler.headers.Authorization": true, "tools[0].handler.headers.X-Api-Key": true,
		"tools[0].handler.headers.Cookie": true, "tools[0].handler.headers.X-Hub-Signature": true,
		"tools[0].handler.headers.X-Auth-Token": true, "tools[0].handler.query.api_key": true,
		"tools[0].handler.env.GITHUB_TOKEN": true, "tools[0].handler.signing.secret": true,
		"backends.crm.base_url": false, "backends.crm.auth.basic.username": false,
		"backends.crm.auth.oauth2.token_url": false, "backends.crm.auth.api_key.header": false,
		"backends.crm.tls.key_file": false, "tools[0].handler.headers.Accept": false,
		"tools[0].handler.headers.X-Tenant": false, "tools[0].handler.query.region": false,
		"backends.db.dsn": false, "tools[0].handler.path": false,
		"tools[0].handler.pagination.cursor_header": false, "tools[0].steps[0].sample.max_tokens": false,
		"server.http.auth.api_keys[1]": true, "server.request_state.key": true,
	} {
		if got := CredentialField(path); got != want {
			t.Errorf("CredentialField(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestDSNPassword(t *testing.T) {
	t.Parallel()
	for dsn, want := range map[string]string{
		"postgres://app:hunter22@db:5432/shop?sslmode=disable": "hunter22",
		"root:hunter22@tcp(127.0.0.1:3306)/test":               "hunter22",
		"host=db user=app password=hunter22 dbname=shop":       "hunter22",
		"host=db password='hunter 22' dbname=shop":             "hunter 22",
		"postgres://app@db/shop":                               "",
		"shop.db":                                              "",
		"file:shop.db?mode=ro":                                 "",
	} {
		from, to := dsnPassword(dsn)
		got := ""
		if from >= 0 {
			got = dsn[from:to]
		}
		if got != want {
			t.Errorf("dsnPassword(%q) = %q, want %q", dsn, got, want)
		}
	}
}
