package load

import "testing"

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
		if got := secretName(name); got != want {
			t.Errorf("secretName(%q) = %v, want %v", name, got, want)
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
