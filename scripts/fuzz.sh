#!/usr/bin/env bash
# Runs every fuzz target of the module, one after the other, for DURATION each
# (a Go duration such as 30s or 10m, or a count of executions such as 5000x).
#
#   scripts/fuzz.sh DURATION [REGEXP]
#
# Targets are found with `go test -list` in every package that has a Fuzz
# function in a test file, so new targets are picked up without editing this
# script; REGEXP (default: all) narrows them by name. An input that fails is
# written by go test under the package's testdata/fuzz/<Target>/: commit it
# with the fix, and it runs as a regression test in every `go test`.
#
# Environment: FUZZ_PARALLEL=n fuzzing workers per target (default 1: the
# targets run one at a time, on one core); FUZZ_MINIMIZE=t bounds how long
# go test minimizes each new interesting input (default 5s: its default of
# 60s, spent on every new input of a config-sized target, is what made the
# load fuzzers sit at 0 execs/s for half a minute at a time); FUZZ_LOGS=dir keeps each target's
# full output (default: a temporary directory, removed at the end).
# Prints one line per target (executions, new interesting inputs, result) and
# exits 1 if any target failed.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: scripts/fuzz.sh DURATION [REGEXP]" >&2
  echo "Try: scripts/fuzz.sh 1m" >&2
  exit 2
fi
duration=$1
filter=${2:-.}
parallel=${FUZZ_PARALLEL:-1}
minimize=${FUZZ_MINIMIZE:-5s}

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
logs=${FUZZ_LOGS:-}
if [[ -z $logs ]]; then
  logs=$(mktemp -d)
  trap 'rm -rf "$logs"' EXIT
fi
mkdir -p "$logs"

# targets prints "package target" for every fuzz target matching the filter.
targets() {
  local dirs pkg
  dirs=$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u)
  for dir in $dirs; do
    pkg=$(go list "$dir")
    go test -list 'Fuzz.*' -run '^$' "$dir" | grep '^Fuzz' | grep -E -- "$filter" | sed "s|^|$pkg |" || true
  done
}

failed=0
summary=()
while read -r pkg target; do
  log="$logs/${pkg//\//_}.$target.log"
  echo "fuzzing $pkg $target for $duration" >&2
  status=ok
  if ! go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "$duration" -fuzzminimizetime "$minimize" -parallel "$parallel" >"$log" 2>&1 </dev/null; then
    status=FAILED
    failed=1
    tail -n 30 "$log" >&2
  fi
  last=$(grep -E 'execs: [0-9]+' "$log" | tail -n 1 || true)
  execs=$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$last")
  interesting=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
  summary+=("$(printf '%-45s %-22s execs %-10s new interesting %-6s %s' "$pkg" "$target" "${execs:-0}" "${interesting:-0}" "$status")")
done < <(targets)

printf '%s\n' "${summary[@]}"
exit "$failed"
