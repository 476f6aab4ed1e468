package toolsearch

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// The names of the tools tool search serves.
const (
	SearchName   = "search_tools"
	DescribeName = "describe_tools"
	CallName     = "call_tool"
)

// DefaultResults and MaxResults bound how many tools one search returns.
const (
	DefaultResults = 5
	MaxResults     = 20
)

// Tools are the definitions of the three tools, as tools/list sends them.
var Tools = []*mcp.Tool{
	{
		Name:  SearchName,
		Title: "Search tools",
		Description: "Finds this server's tools for a task: returns the best matches' names and what each does. " +
			"Describe the task in plain words; then call describe_tools for the schemas of the ones you need.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in plain words, e.g. \"merge a pull request\"."},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"How many tools to return (default 5)."}},"required":["query"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	},
	{
		Name:        DescribeName,
		Title:       "Describe tools",
		Description: "Returns the full definitions (description, input and output schemas) of the named tools, as found by search_tools.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"names":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":20,"description":"The tools' names."}},"required":["names"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	},
	{
		Name:        CallName,
		Title:       "Call a tool",
		Description: "Calls one of this server's tools by name with its arguments, as described by describe_tools, and returns its result.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The tool's name."},"arguments":{"type":"object","description":"The tool's arguments, as its input schema says."}},"required":["name"]}`),
	},
}
