package plan

import (
	"sync"

	"github.com/mcpgen/mcpgen/runtime/toolsearch"
)

// SearchIndex ranks a plan's tools for tool search. It is built on the
// first search, not when the server starts.
type SearchIndex struct {
	once  sync.Once
	index *toolsearch.Index
}

// Index returns the index of tools, built once.
func (si *SearchIndex) Index(tools []*Tool) *toolsearch.Index {
	si.once.Do(func() {
		docs := make([]toolsearch.Doc, len(tools))
		for i, t := range tools {
			docs[i] = toolsearch.Doc{Name: t.Def.Name, Title: t.Def.Title, Description: t.Def.Description,
				Args: t.Args.Names(), Tags: t.Tags}
		}
		si.index = toolsearch.New(docs)
	})
	return si.index
}
