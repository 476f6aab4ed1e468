package templates

import "testing"

// TestExecErrorsSpeakJSON checks that rendering errors name the failing
// action and JSON types, never Go's.
func TestExecErrorsSpeakJSON(t *testing.T) {
	t.Parallel()
	data := map[string]any{"args": map[string]any{"id": int64(3), "name": "x", "list": []any{1}, "on": true,
		"m": map[string]any{"k": 1}}}
	for text, want := range map[string]string{
		"{{ .args.id.foo }}":       `rendering template: .args.id.foo: .args.id has no field "foo": it is not an object`,
		"{{ .args.m.k.z }}":        `rendering template: .args.m.k.z: .args.m.k has no field "z": it is not an object`,
		"{{ .args.missing }}":      `rendering template: .args.missing: map has no entry for key "missing"`,
		"{{ .args.id | upper }}":   `rendering template: upper: wrong type for value; expected string; got number`,
		"{{ .args.on | upper }}":   `rendering template: upper: wrong type for value; expected string; got boolean`,
		"{{ len .args.id }}":       `rendering template: len .args.id: error calling len: len of type number`,
		"{{ .args.m | upper }}":    `rendering template: upper: wrong type for value; expected string; got object`,
		"{{ .args.list | upper }}": `rendering template: upper: wrong type for value; expected string; got list`,
		"{{ index .args.list 5 }}": `rendering template: index .args.list 5: error calling index: index out of range: 5`,
		// what the template says itself stays as written
		`{{ fail "print an int64" }}`: `rendering template: fail "print an int64": error calling fail: print an int64`,
	} {
		tp, perr := Parse("t", text, map[string][]string{"args": nil})
		if perr != nil {
			t.Fatalf("%s: %v", text, perr)
		}
		_, err := tp.Execute(data)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", text, err, want)
		}
	}
}
