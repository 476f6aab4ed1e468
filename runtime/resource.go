package runtime

import "github.com/mcpgen/mcpgen/runtime/plan"

// MaxResourceSize bounds the contents of one resource read.
const MaxResourceSize = plan.MaxResourceSize
