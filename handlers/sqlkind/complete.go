package sqlkind

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/handlers"
)

// Complete runs the query and returns the first column of each row as the
// completion values (NULLs skipped), for `complete_from`.
func (h *handler) Complete(ctx context.Context, c *handlers.Call) ([]string, error) {
	if len(h.steps) != 1 || h.steps[0].exec {
		return nil, errors.New("complete_from needs a single query")
	}
	results, pc, err := h.execute(ctx, c)
	if err != nil {
		return nil, err
	}
	if pc != nil && len(results[0].rows) > pc.limit {
		results[0].rows = results[0].rows[:pc.limit] // the first page
	}
	var values []string
	for _, row := range results[0].rows {
		if len(row) > 0 && row[0] != nil {
			values = append(values, fmt.Sprint(row[0]))
		}
	}
	return values, nil
}

var _ handlers.Completer = (*handler)(nil)
