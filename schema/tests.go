package schema

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
)

// TestsID is the $id of the schema of test files (mcpgen test).
const TestsID = "https://github.com/mcpgen/mcpgen/schema/mcpgen-test.schema.json"

// GenerateTests builds the schema of the test files whose Go type is that
// of file (a pointer to configtest.File), with each field's doc comment as
// its description and the rules declared on the types; root is the
// module's root directory.
func GenerateTests(file any, root string) ([]byte, error) {
	g := &generator{defs: jsonschema.Definitions{}, types: map[string]reflect.Type{}}
	g.r = &jsonschema.Reflector{FieldNameTag: "yaml", RequiredFromJSONSchemaTags: true, Namer: g.name, ExpandedStruct: true}
	pkg := reflect.TypeOf(file).Elem().PkgPath()
	rel, ok := strings.CutPrefix(pkg, modulePath+"/")
	if !ok {
		return nil, fmt.Errorf("%s is not in module %s", pkg, modulePath)
	}
	if err := g.addComments(root, rel); err != nil {
		return nil, fmt.Errorf("reading the doc comments of %s: %w", pkg, err)
	}
	s := g.r.Reflect(file)
	s.ID = TestsID
	s.Title = "mcpgen tests"
	g.addRules(s.Definitions)
	return encode(s)
}
