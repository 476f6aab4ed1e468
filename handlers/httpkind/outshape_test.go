package httpkind_test

import (
	"strings"
	"testing"
)

// TestOutputSchemaCheckedAgainstResult: an output_schema that a result
// expression can never match is an error when the config loads, at the
// place in the schema that cannot be met; one that can, or a result whose
// type is not known, passes.
func TestOutputSchemaCheckedAgainstResult(t *testing.T) {
	t.Parallel()
	withOutput := func(result, schema string) string {
		return withBackend("http://127.0.0.1:9", "", "  - name: t\n    description: test tool\n"+
			"    args:\n      - {name: id, required: true}\n      - {name: n, type: integer}\n"+
			"    output_schema:\n"+indent(schema, "      ")+
			"    handler:\n      backend: api\n      path: /x\n      result: "+result+"\n")
	}
	for _, tt := range []struct {
		name, result, schema string
		want                 []string // each a part of one diagnostic; none: the config is fine
	}{
		{"required key the mapping lacks", "{id: '${{ args.id }}', titel: x}",
			"type: object\nrequired: [id, title]\nproperties: {id: {type: string}, title: {type: string}}\n",
			[]string{`:14:22: tools[0].output_schema.required[1]: "title" is required, and the result never has it; did you mean "titel"?`}},
		{"property of the wrong type", "{id: '${{ args.id }}', count: '${{ len(args.id) }}'}",
			"type: object\nproperties: {count: {type: string}}\n",
			[]string{`tools[0].output_schema.properties.count.type: the result is always an integer here, never a string`}},
		{"key not allowed", "{id: '${{ args.id }}', extra: 1}",
			"type: object\nproperties: {id: {}}\nadditionalProperties: false\n",
			[]string{`tools[0].output_schema.additionalProperties: the result has "extra", which is not allowed`}},
		{"a list is wrapped as items", "'${{ [1, 2] }}'",
			"type: object\nrequired: [rows]\n",
			[]string{`"rows" is required, and the result never has it`}},
		{"a string is wrapped as value", "'${{ \"n=\" + string(args.n) }}'",
			"type: object\nproperties: {value: {type: number}}\n",
			[]string{`properties.value.type: the result is always a string here, never a number`}},
		{"matching mapping", "{id: '${{ args.id }}', count: '${{ args.n * 2 }}', tags: [a, b]}",
			"type: object\nrequired: [id, count]\nproperties: {count: {type: number}, tags: {type: array, items: {type: string}}}\n", nil},
		{"unknown type: not checked", "'${{ response.body.data }}'",
			"type: object\nrequired: [anything]\n", nil},
		{"an argument may be absent: not checked", "{id: '${{ args.n }}'}",
			"type: object\nproperties: {id: {type: string}}\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := diagnose(t, withOutput(tt.result, tt.schema))
			if len(tt.want) == 0 {
				if got != "" {
					t.Errorf("want no diagnostics, got:\n%s", got)
				}
				return
			}
			lines := strings.Split(got, "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("want %d diagnostics, got:\n%s", len(tt.want), got)
			}
			for i, w := range tt.want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, lines[i], w)
				}
			}
		})
	}
}
