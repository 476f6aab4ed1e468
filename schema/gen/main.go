// Command gen writes mcpgen.schema.json; `go generate ./schema` runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/schema"
)

func main() {
	root := flag.String("root", "..", "the module's root directory")
	out := flag.String("out", "mcpgen.schema.json", "the file to write")
	flag.Parse()
	data, err := schema.Generate(builtin.Kinds(), *root)
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
