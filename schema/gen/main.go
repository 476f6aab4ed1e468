// Command gen writes mcpgen.schema.json, the Markdown reference
// docs/reference.md and the schema of test files, mcpgen-test.schema.json;
// `go generate ./schema` runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/configtest"
	"github.com/mcpgen/mcpgen/schema"
)

func main() {
	root := flag.String("root", "..", "the module's root directory")
	out := flag.String("out", "mcpgen.schema.json", "the file to write")
	docs := flag.String("docs", "../docs/reference.md", "the Markdown reference to write")
	tests := flag.String("tests", "mcpgen-test.schema.json", "the schema of test files (mcpgen test) to write")
	flag.Parse()
	data, err := schema.Generate(builtin.Kinds(), *root)
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err == nil {
		var ref []byte
		if ref, err = schema.Reference(data); err == nil {
			err = os.WriteFile(*docs, ref, 0o644)
		}
	}
	if err == nil {
		var ts []byte
		if ts, err = schema.GenerateTests(&configtest.File{}, *root); err == nil {
			err = os.WriteFile(*tests, ts, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
