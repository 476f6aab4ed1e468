package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// Call steps send requests to backends before a tool's handler runs, each
// seeing the results of the steps before it: an upsert (look up, then
// update or create), create then attach, a list then the details of its
// first items.

// maxForEach bounds the requests of one for_each.
const maxForEach = 100

// runCall sends a call step's request. Its result is the handler's
// structured result, or its text as {text}; a failure names the step.
func runCall(ctx context.Context, st *plan.Step, data map[string]any, n handlers.Notifier) (any, error) {
	args, _ := data["args"].(map[string]any)
	steps, _ := data["steps"].(map[string]any)
	auth, _ := data[plan.AuthName].(map[string]any)
	c := &handlers.Call{Args: args, Notify: n, Steps: steps, Auth: auth}
	if st.Each == nil {
		return callOnce(ctx, st, c, "")
	}
	x, err := st.Each.Eval(data)
	if err != nil {
		return nil, fmt.Errorf("step %s: for_each: %w", st.Key, err)
	}
	list, ok := x.([]any)
	switch {
	case x == nil:
		return []any{}, nil
	case !ok:
		return nil, fmt.Errorf("step %s: for_each gave %s, not a list", st.Key, eval.Format(x))
	case len(list) > maxForEach:
		return nil, fmt.Errorf("step %s: for_each gave %d elements; at most %d are sent", st.Key, len(list), maxForEach)
	}
	out := make([]any, 0, len(list))
	for i, item := range list {
		c.Item = item
		res, err := callOnce(ctx, st, c, fmt.Sprintf("[%d]", i))
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

// callOnce sends one request of a call step; which names the element of
// a for_each in errors.
func callOnce(ctx context.Context, st *plan.Step, c *handlers.Call, which string) (any, error) {
	res, err := st.Call.Call(ctx, c)
	switch {
	case err != nil:
		return nil, fmt.Errorf("step %s%s: %w", st.Key, which, err)
	case res.IsError:
		return nil, fmt.Errorf("step %s%s: %s", st.Key, which, res.Text())
	case res.Structured != nil:
		return res.Structured, nil
	}
	return map[string]any{"text": res.Text()}, nil
}

// dryRunSteps describes the requests of a tool's call steps. A request
// that depends on an earlier step's result cannot be shown without making
// that request; it is described as such.
func dryRunSteps(ctx context.Context, steps []*plan.Step, c *handlers.Call) string {
	var b strings.Builder
	for _, st := range steps {
		if st.Kind != "call" {
			continue
		}
		fmt.Fprintf(&b, "# step %s", st.Key)
		if st.WhenSrc != "" {
			fmt.Fprintf(&b, ", when %s", st.WhenSrc)
		}
		b.WriteString("\n")
		dr, ok := st.Call.(handlers.DryRunner)
		if !ok {
			b.WriteString("(this handler has no dry run)\n\n")
			continue
		}
		items := []any{nil}
		if st.Each != nil {
			x, err := st.Each.Eval(c.Vars())
			list, ok := x.([]any)
			if err != nil || !ok {
				fmt.Fprintf(&b, "(for_each depends on the results of earlier steps: %v)\n\n", cmp.Or(err, errNotList))
				continue
			}
			items = list[:min(len(list), maxForEach)]
		}
		for _, item := range items {
			cc := *c
			cc.Item = item
			out, err := dr.DryRun(ctx, &cc)
			if err != nil {
				fmt.Fprintf(&b, "(depends on the results of earlier steps: %v)\n\n", err)
				continue
			}
			b.WriteString(out)
			b.WriteString("\n")
		}
	}
	return b.String()
}

var errNotList = errors.New("not a list")
