package build

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// A stateless server (server.http.stateless) has no session to send a
// request to the client on: a client up to 2025-11-25 cannot be asked
// anything, and no response stream can be resumed. 2026-07-28 clients are
// asked in rounds (mrtr.go), which needs no session. What only fails when
// a call comes is reported when the config loads.

// stateless reports whether the server is served over HTTP without
// sessions: by its config or by serve --stateless.
func (b *builder) stateless() bool {
	return b.opts.Stateless || (b.plan.HTTP != nil && b.plan.HTTP.Stateless)
}

// statelessSteps warns about the confirm and steps at path (a tool's or a
// prompt's) that a stateless server cannot run for every client.
func (b *builder) statelessSteps(f *load.File, path, confirm string, steps []*spec.Step) {
	if !b.stateless() {
		return
	}
	asks := false
	if confirm != "" {
		asks = true
		b.diag(f, load.Warning, path+".confirm", statelessAsk("confirm"),
			"serve with sessions (drop server.http.stateless) to confirm with every client")
	}
	for i, st := range steps {
		p := fmt.Sprintf("%s.steps[%d]", path, i)
		switch kind, ifSupported := askingStep(st); {
		case st != nil && st.CloseStream != nil:
			b.diag(f, load.Warning, p+".close_stream",
				"close_stream does nothing on a stateless server: without a session no response stream can be resumed",
				"remove the step, or serve with sessions (drop server.http.stateless)")
		case kind == "":
		case ifSupported:
			asks = true // skipped for older clients, asked of newer ones
		default:
			asks = true
			b.diag(f, load.Warning, p+"."+kind, statelessAsk(kind),
				"mark the step if_supported to skip it for those clients, or serve with sessions (drop server.http.stateless)")
		}
	}
	if asks {
		b.statelessAsks = true
	}
}

// statelessAsk is the warning about a step of this kind on a stateless
// server.
func statelessAsk(kind string) string {
	return kind + " cannot ask clients up to 2025-11-25 on a stateless server (there is no session to ask on): " +
		"their calls fail; 2026-07-28 clients are asked in rounds"
}

// askingStep returns the key of a step that asks the client something
// (sample, elicit, roots), "" for others, and whether it is if_supported.
func askingStep(st *spec.Step) (string, bool) {
	switch {
	case st == nil:
	case st.Sample != nil:
		return "sample", st.Sample.IfSupported
	case st.Elicit != nil:
		return "elicit", st.Elicit.IfSupported
	case st.Roots != nil:
		return "roots", st.Roots.IfSupported
	}
	return "", false
}

// statelessKey warns when a stateless server asks 2026-07-28 clients in
// rounds without a request_state key shared by its replicas: each process
// signs with its own random key, and an answer that reaches another replica
// is refused.
func (b *builder) statelessKey(files []*load.File) {
	if !b.statelessAsks || b.stateKeySet {
		return
	}
	for _, f := range files {
		if load.Field(load.Field(f.Root, "server"), "http") != nil {
			b.diag(f, load.Warning, "server.http.stateless",
				"tools ask the client in rounds and server.request_state.key is not set: each replica signs requests with its own random key, so an answer that reaches another replica is refused",
				"set server.request_state.key (e.g. ${MCPGEN_STATE_KEY}, the same on every replica), or run one replica")
			return
		}
	}
}
