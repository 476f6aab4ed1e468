package httpkind_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// errRuleConfig is a tool with one error rule, whose message is on line
// 11 from column 20 (a plain scalar) and whose body_schema, if any,
// follows.
func errRuleConfig(message, schema string) string {
	cfg := "version: 1\ntools:\n  - name: t\n    description: d\n    handler:\n      kind: http\n      base_url: https://api.example.com\n" +
		"      path: /x\n      errors:\n        - status: [422]\n          message: " + message + "\n"
	if schema != "" {
		cfg += "          body_schema: " + schema + "\n"
	}
	return cfg
}

// problemSchema is a closed error body: {message, errors: [{field, code}]}.
const problemSchema = `{type: object, additionalProperties: false, properties: {message: {type: string}, ` +
	`errors: {type: array, items: {type: object, properties: {field: {type: string}}}}, meta: {type: object}}}`

// openSchema declares message and detail and allows other keys.
const openSchema = `{type: object, properties: {message: {type: string}, detail: {type: object, properties: {reason: {type: string}}}}}`

// TestErrorMessageChecked: what can be known statically of the response
// an error rule's message reads is reported at its place in the message.
func TestErrorMessageChecked(t *testing.T) {
	t.Parallel()
	cases := map[string][2]string{}
	for _, tt := range []struct{ name, message, schema, want string }{
		{"unknown response key", `"{{ .response.bdy.message }}"`, "",
			`mcpgen.yaml:11:33: tools[0].handler.errors[0].message: .response has no "bdy"; it has body, headers, status; did you mean "body"?`},
		{"field of the status", `"status {{ .response.status.code }}"`, "",
			"mcpgen.yaml:11:47: tools[0].handler.errors[0].message: .response.status is a number: it has no fields"},
		{"header in capitals", `"retry after {{ .response.headers.RetryAfter }}"`, "",
			"mcpgen.yaml:11:53: tools[0].handler.errors[0].message: .response.headers names headers in lowercase: write .response.headers.retryafter"},
		{"key the closed body cannot have", `"{{ .response.body.mesage }}"`, problemSchema,
			`mcpgen.yaml:11:38: tools[0].handler.errors[0].message: .response.body has no "mesage" in the declared body (body_schema), which allows only errors, message, meta; did you mean "message"?`},
		{"field of an array", `"{{ .response.body.message }}: {{ .response.body.errors.field }}"`, problemSchema,
			"mcpgen.yaml:11:75: tools[0].handler.errors[0].message: .response.body.errors is array in the declared body (body_schema): it has no fields; read its elements instead"},
		{"nested key, through $", `"{{ $.response.body.detail.reson }}"`, openSchema,
			`mcpgen.yaml:11:46: warning: tools[0].handler.errors[0].message: .response.body.detail declares no "reson" in body_schema (it declares reason)`},
		{"key not declared, others allowed", `"{{ if .response.body }}{{ .response.body.title }}{{ end }}"`, openSchema,
			`mcpgen.yaml:11:61: warning: tools[0].handler.errors[0].message: .response.body declares no "title" in body_schema (it declares detail, message)`},
		{"in a block", "|\n            first line\n            {{ .response.body.nope }}", problemSchema,
			`mcpgen.yaml:13:30: tools[0].handler.errors[0].message: .response.body has no "nope"`},
		{"schema not a mapping", `"{{ .response.body.message }}"`, "[object]",
			"tools[0].handler.errors[0].body_schema: body_schema is a JSON Schema"},
		{"syntax error", `"{{ .response.body.message "`, "", "mcpgen.yaml:11:20: tools[0].handler.errors[0].message: unclosed action"},
		{"unknown function", `"{{ shout .response.body.message }}"`, "", `mcpgen.yaml:11:24: tools[0].handler.errors[0].message: function "shout" not defined`},
	} {
		cases[tt.name] = [2]string{errRuleConfig(tt.message, tt.schema), tt.want}
	}
	cases["a backend's rule"] = [2]string{"version: 1\nbackends:\n  api:\n    kind: http\n    base_url: https://api.example.com\n" +
		"    errors:\n      - {status: [422], message: \"{{ .response.bdy }}\"}\ntools:\n  - {name: t, description: d, handler: {backend: api, path: /x}}\n",
		`mcpgen.yaml:7:47: backends.api.errors[0].message: .response has no "bdy"`}
	for name, c := range map[string][2]string{
		"when: key the closed body cannot have": {`"${{ response.body?.eror?.code == 'x' }}"`,
			`mcpgen.yaml:11:37: tools[0].handler.errors[0].when: .response.body has no "eror" in the declared body (body_schema), which allows only errors, message, meta; did you mean "errors"?`},
		"when: field of an array": {`"${{ response.body.errors?.field == 'x' }}"`,
			"mcpgen.yaml:11:44: tools[0].handler.errors[0].when: .response.body.errors is array in the declared body (body_schema): it has no fields"},
	} {
		cases[name] = [2]string{whenConfig(c[0], problemSchema), c[1]}
	}
	cases["when: key not declared"] = [2]string{whenConfig(`"${{ response.body.detail?.code == 'x' }}"`, openSchema),
		`mcpgen.yaml:11:44: warning: tools[0].handler.errors[0].when: .response.body.detail declares no "code" in body_schema (it declares reason); the rule does not apply when the body has none`}
	handlertest.WantDiagnostics(t, registry(), cases)
}

// whenConfig is errRuleConfig with a when, on line 11 from column 17, before
// the message.
func whenConfig(when, schema string) string {
	return strings.Replace(errRuleConfig(`"invalid: {{ .response.status }}"`, schema), "          message:", "          when: "+when+"\n          message:", 1)
}

// TestErrorMessageAccepted: references that can resolve, or that nothing
// declares, draw no diagnostic.
func TestErrorMessageAccepted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, message, schema string }{
		{"no schema: any body key", `"{{ .response.body.errors.field }} {{ .response.body.x.y.z }}"`, ""},
		{"declared keys", `"{{ .response.body.message }} ({{ len .response.body.errors }}) {{ .response.body.meta.anything }}"`, problemSchema},
		{"nested declared key", `"{{ .response.body.detail.reason }}"`, openSchema},
		{"elements of an array", `"{{ range .response.body.errors }}{{ .field }} {{ .whatever }}{{ end }}"`, problemSchema},
		{"with changes dot", `"{{ with .response.body.errors }}{{ .field }}{{ end }}"`, problemSchema},
		{"index", `"{{ (index .response.body.errors 0).field }}"`, problemSchema},
		{"lowercase header, status", `"{{ .response.status }} {{ .response.headers.etag }}"`, problemSchema},
		{"schema with a reference", `"{{ .response.body.anything.deep }}"`, `{$ref: "#/definitions/x"}`},
		{"arguments", `"{{ .args }}"`, problemSchema},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := handlertest.Diagnose(t, registry(), errRuleConfig(tt.message, tt.schema))
			if ds.Errors() > 0 || ds.Warnings() > 0 {
				t.Errorf("got\n%v", ds)
			}
		})
	}
}

// TestErrorMessageArgs: a message's arguments are checked against the
// tool's.
func TestErrorMessageArgs(t *testing.T) {
	t.Parallel()
	cfg := strings.Replace(errRuleConfig(`"no ticket {{ .args.nme }}"`, ""), "    handler:", "    args: [{name: name}]\n    handler:", 1)
	ds := handlertest.Diagnose(t, registry(), cfg)
	if want := `mcpgen.yaml:12:34: tools[0].handler.errors[0].message: unknown field .args.nme; did you mean "name"?`; !strings.Contains(ds.Error(), want) {
		t.Errorf("got\n%v\nwant %q", ds, want)
	}
}

// TestErrorWhenAccepted: a when that reads what the body declares, or
// what nothing declares, draws no diagnostic.
func TestErrorWhenAccepted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ when, schema string }{
		{`"${{ response.body?.message == 'x' && len(response.body?.errors ?? []) > 0 }}"`, problemSchema},
		{`"${{ response.body?.errors?.[0]?.field == 'x' }}"`, problemSchema},
		{`"${{ response.body?.detail?.reason == 'x' && response.status == 422 }}"`, openSchema},
		{`"${{ response.body?.anything?.deep == 'x' }}"`, ""},
	} {
		if ds := handlertest.Diagnose(t, registry(), whenConfig(tt.when, tt.schema)); ds.Errors() > 0 || ds.Warnings() > 0 {
			t.Errorf("%s: got\n%v", tt.when, ds)
		}
	}
}
