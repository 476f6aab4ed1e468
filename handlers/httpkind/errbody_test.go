package httpkind_test

import (
	"net/http"
	"testing"
)

// rawReply answers with status, content type and body as given.
func rawReply(status int, ctype, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// TestFieldErrors: a 4xx whose JSON body names what is wrong with which
// field says so in the default error, in the shapes APIs use; an error
// rule whose message fails to render leaves the API's error in place.
func TestFieldErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler string
		reply         http.HandlerFunc
		want          string
	}{
		{"message and errors with field and code", "", rawReply(422, "application/json",
			`{"message": "Validation Failed", "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"},
			  {"field": "labels", "code": "invalid", "message": "label 'x' does not exist"}]}`),
			"HTTP 422 Unprocessable Entity: Validation Failed; title: missing_field; labels: label 'x' does not exist"},
		{"RFC 9457 errors with pointers", "", rawReply(422, "application/problem+json",
			`{"type": "https://example.net/validation-error", "title": "Your request is not valid.",
			  "errors": [{"detail": "must be a positive integer", "pointer": "#/age"},
			             {"detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"}]}`),
			"HTTP 422 Unprocessable Entity: Your request is not valid.; age: must be a positive integer; profile.color: must be 'green', 'red' or 'blue'"},
		{"RFC 9457 detail and invalid-params", "", rawReply(400, "application/problem+json",
			`{"title": "Bad request", "detail": "2 parameters did not validate",
			  "invalid-params": [{"name": "age", "reason": "must be a positive integer"}, {"name": "color", "reason": "unknown"}]}`),
			"HTTP 400 Bad Request: 2 parameters did not validate; age: must be a positive integer; color: unknown"},
		{"a list of details with locations", "", rawReply(422, "application/json",
			`{"detail": [{"loc": ["body", "age"], "msg": "value is not a valid integer", "type": "type_error.integer"}]}`),
			"HTTP 422 Unprocessable Entity: age: value is not a valid integer"},
		{"errors with a source pointer", "", rawReply(422, "application/vnd.api+json",
			`{"errors": [{"status": "422", "source": {"pointer": "/data/attributes/title"}, "detail": "can't be blank"}]}`),
			"HTTP 422 Unprocessable Entity: data.attributes.title: can't be blank"},
		{"a plain message stays as it was", "", rawReply(404, "application/json", `{"error": "no such ticket"}`),
			"HTTP 404 Not Found: no such ticket"},
		{"an error rule that fails to render", "errors:\n  - status: [4xx]\n    message: 'bad: {{ .response.body.missing.field }}'",
			rawReply(422, "application/json", `{"message": "Validation Failed", "errors": [{"field": "title", "code": "missing_field"}]}`),
			"HTTP 422 Unprocessable Entity: Validation Failed; title: missing_field"},
		{"an error rule that renders", "errors:\n  - status: [4xx]\n    message: 'bad: {{ .response.body.message }}'",
			rawReply(422, "application/json", `{"message": "Validation Failed"}`), "bad: Validation Failed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, tt.reply)
			s := build(t, withBackend(srv.URL, "", tool("", tt.handler)))
			if got := mustFail(t, call(t, s, "t", `{}`)); got != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
		})
	}
}
