package build

import (
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// taskOptions reads server.tasks.
func (b *builder) taskOptions(f *load.File, t *spec.Tasks) {
	if t == nil {
		return
	}
	if t.MaxPerCaller < 0 {
		b.errorf(f, "server.tasks.max_per_caller", "max_per_caller must be at least 1, got %d", t.MaxPerCaller)
	}
	for path, d := range map[string]spec.Duration{"ttl": t.TTL, "poll_interval": t.PollInterval} {
		if d < 0 {
			b.errorf(f, "server.tasks."+path, "%s must be positive", path)
		}
	}
	o := &b.plan.TaskOpts
	o.TTL, o.PollInterval, o.MaxPerOwner = time.Duration(t.TTL), time.Duration(t.PollInterval), t.MaxPerCaller
}

// taskSupport declares how a built tool may run as a task.
func taskSupport(tl *plan.Tool, mode string) {
	tl.Task = mode
	if mode != "" {
		tl.Def.Execution = &mcp.ToolExecution{TaskSupport: mode}
	}
}

// taskAfter finds the step a tool's task_after names: -1 for none.
func (b *builder) taskAfter(f *load.File, path string, t *spec.Tool, steps []*plan.Step) int {
	if t.TaskAfter == "" {
		return -1
	}
	if t.Task == "" {
		b.errorf(f, path+".task_after", "task_after is for tools that run as tasks; add `task: optional` or `task: required`")
		return -1
	}
	var names []string
	for i, st := range steps {
		if st.As == t.TaskAfter {
			return i
		}
		if st.As != "" {
			names = append(names, st.As)
		}
	}
	b.diag(f, load.Error, path+".task_after", fmt.Sprintf("no step of this tool is named %q", t.TaskAfter),
		suggest.DidYouMean(t.TaskAfter, names))
	return -1
}

// startTasks creates the task manager when a tool runs as a task.
func (b *builder) startTasks(store task.Store) {
	s := b.plan
	for _, t := range s.Tools {
		if t.Task != "" {
			s.TaskOpts.Store = store
			s.TaskOpts.Panicked = func(method string, v any) { observe.Panicked(s.Logger, s.Obs.Metrics, method, v) }
			s.Tasks = task.NewManager(s.TaskOpts)
			s.Closers = append(s.Closers, s.Tasks)
			return
		}
	}
}
