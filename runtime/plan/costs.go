package plan

// Costs are the tokens a client's model reads before it calls anything,
// as validate counts them (build.Options.CountTokens).
type Costs struct {
	// Encoding names the tokenizer's encoding (tokens.Encoding).
	Encoding string
	// Tools holds each listed tool's tokens as tools/list sends it, in the
	// order of the config.
	Tools []Cost
	// Prompts and Templates hold each prompt's and resource template's
	// tokens as prompts/list and resources/templates/list send them.
	Prompts, Templates []Cost
	// ToolsList, PromptsList and TemplatesList are the sums of what the
	// lists send: with tool search, tools/list sends the search tools and
	// the tools marked always, Listed of them.
	ToolsList, PromptsList, TemplatesList int
	Listed                                int
	// BudgetToolsList and BudgetTool are server.budget's limits; 0: none.
	BudgetToolsList, BudgetTool int
}

// Cost is the tokens of one thing a client lists.
type Cost struct {
	Name   string
	Tokens int
}

// Total is all a client loads: tools, prompts and resource templates.
func (c *Costs) Total() int { return c.ToolsList + c.PromptsList + c.TemplatesList }
