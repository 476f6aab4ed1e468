package graphqlkind_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIntrospectionMatchesSDL checks that testdata/schema.json, a server's
// introspection result, describes the example's schema.graphql: the same
// types, and in each the same fields, input fields and enum values, of the
// same types.
func TestIntrospectionMatchesSDL(t *testing.T) {
	t.Parallel()
	d := newDirectory(t)
	var want []string
	for name, def := range d.schema.Types {
		if def.BuiltIn {
			continue
		}
		for _, f := range def.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				want = append(want, name+"."+f.Name+": "+f.Type.String())
			}
		}
		for _, v := range def.EnumValues {
			want = append(want, name+"."+v.Name)
		}
	}
	var got []string
	var res struct {
		Schema struct {
			Types []struct {
				Name        string        `json:"name"`
				Fields      []introMember `json:"fields"`
				InputFields []introMember `json:"inputFields"`
				EnumValues  []introMember `json:"enumValues"`
			} `json:"types"`
		} `json:"__schema"`
	}
	if err := json.Unmarshal([]byte(d.introspection(t)), &res); err != nil {
		t.Fatal(err)
	}
	for _, ty := range res.Schema.Types {
		if strings.HasPrefix(ty.Name, "__") || d.schema.Types[ty.Name] != nil && d.schema.Types[ty.Name].BuiltIn {
			continue
		}
		for _, m := range slices.Concat(ty.Fields, ty.InputFields) {
			got = append(got, ty.Name+"."+m.Name+": "+m.Type.String())
		}
		for _, m := range ty.EnumValues {
			got = append(got, ty.Name+"."+m.Name)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("testdata/schema.json does not describe %sschema.graphql (-want +got):\n%s", example, diff)
	}
}

// introMember is a field, input field or enum value of an introspection result.
type introMember struct {
	Name string   `json:"name"`
	Type introRef `json:"type"`
}

// introRef is an introspection type reference.
type introRef struct {
	Kind   string    `json:"kind"`
	Name   string    `json:"name"`
	OfType *introRef `json:"ofType"`
}

// String writes r as GraphQL does: [String!]!.
func (r introRef) String() string {
	switch {
	case r.Kind == "NON_NULL" && r.OfType != nil:
		return r.OfType.String() + "!"
	case r.Kind == "LIST" && r.OfType != nil:
		return "[" + r.OfType.String() + "]"
	}
	return r.Name
}
