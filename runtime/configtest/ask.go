package configtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// callTool calls the case's tool, asking for progress.
func (out *outcome) callTool(ctx context.Context, cs *mcp.ClientSession, c *Case) error {
	// clients of protocol 2026-07-28 give the log level with each request
	//lint:ignore SA1019 logging is deprecated in 2026-07-28 but still served
	p := &mcp.CallToolParams{Name: c.Call, Arguments: orEmpty(c.Args), Meta: mcp.Meta{mcp.MetaKeyLogLevel: "debug"}}
	p.SetProgressToken("mcpgen-test")
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		return err
	}
	out.isError = res.IsError
	out.text = contentText(res.Content)
	out.structured = res.StructuredContent
	return nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// contentText joins the text of text blocks and embedded text resources.
func contentText(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// readResource reads uri; the text is its contents' text.
func (out *outcome) readResource(ctx context.Context, cs *mcp.ClientSession, uri string) error {
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return err
	}
	var parts []string
	for _, c := range res.Contents {
		if c.Text != "" {
			parts = append(parts, c.Text)
		} else {
			parts = append(parts, fmt.Sprintf("[%s, %d bytes]", c.MIMEType, len(c.Blob)))
		}
	}
	out.text = strings.Join(parts, "\n")
	return nil
}

// getPrompt gets the case's prompt; its arguments are strings, so other
// values are sent as JSON.
func (out *outcome) getPrompt(ctx context.Context, cs *mcp.ClientSession, c *Case) error {
	args := map[string]string{}
	for k, v := range c.Args {
		if s, ok := v.(string); ok {
			args[k] = s
			continue
		}
		b, _ := json.Marshal(v)
		args[k] = string(b)
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: c.Prompt, Arguments: args})
	if err != nil {
		return err
	}
	var parts []string
	for _, m := range res.Messages {
		parts = append(parts, contentText([]mcp.Content{m.Content}))
	}
	out.text = strings.Join(parts, "\n")
	return nil
}
