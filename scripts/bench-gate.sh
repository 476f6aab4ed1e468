#!/usr/bin/env bash
# Fails when a hot path allocates grossly more than the committed baseline
# (scripts/bench-baseline.txt): more than FACTOR (default 3) times the
# allocations or the bytes per operation. Allocations are stable from run to
# run where times are not, so this catches a change that undoes the work on
# speed without failing on a busy machine. It also prints, without judging
# them, the time figures of issue 13: validate of 1,000 tools and the config
# work per tool of BenchmarkStartupInProcess; and those of a real API at
# scale, the GitHub REST config (runtime/testdata/github-rest.yaml.gz):
# validate's time and peak memory, serve's time to answer initialize.
#
#   scripts/bench-gate.sh            # check
#   scripts/bench-gate.sh -update    # rewrite the baseline from this run
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
baseline=scripts/bench-baseline.txt
factor=${FACTOR:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# package, benchmark pattern, iterations: each operation is one tools/call
# (or one start of a 200-tool config), the same count every run.
run() { go test -run '^$' -bench "$2" -benchmem -benchtime "$3" "$1" | grep '^Benchmark' >>"$out"; }
run ./runtime '^BenchmarkCallInMemory$' 2000x
run ./runtime/transport '^BenchmarkHTTPCalls$/^mcpgen/' 2000x
run ./handlers/sqlkind '^BenchmarkOneRow$' 1000x
run ./cmd/mcpgen '^BenchmarkStartupInProcess$' 20x
run ./cmd/mcpgen '^BenchmarkCompileGitHub$' 1x
run ./cmd/mcpgen '^Benchmark(Validate|Initialize)GitHub$' 3x

# name allocs/op B/op, the -2 (GOMAXPROCS) suffix dropped
current=$(awk '{name=$1; sub(/-[0-9]+$/, "", name); a=b=""; for (i=2; i<=NF; i++) { if ($i=="allocs/op") a=$(i-1); if ($i=="B/op") b=$(i-1) } print name, a, b}' "$out")
if [[ ${1:-} == -update ]]; then
  { echo "# benchmark allocs/op B/op, written by scripts/bench-gate.sh -update"; echo "$current"; } >"$baseline"
  cat "$baseline"
  exit 0
fi

status=0
while read -r name allocs bytes; do
  [[ $name == \#* || -z $name ]] && continue
  read -r _ a b <<<"$(grep "^$name " <<<"$current" || echo "$name - -")"
  if [[ $a == - ]]; then
    echo "FAIL $name: not run"
    status=1
    continue
  fi
  verdict=$(awk -v a="$a" -v b="$b" -v A="$allocs" -v B="$bytes" -v f="$factor" 'BEGIN{print (a > f*A || b > f*B) ? "FAIL" : "ok"}')
  printf '%-4s %-45s allocs/op %8s (baseline %8s)  B/op %10s (baseline %10s)\n' "$verdict" "$name" "$a" "$allocs" "$b" "$bytes"
  [[ $verdict == ok ]] || status=1
done <"$baseline"

# The time figures, for the log only: times on a shared machine are noise.
grep '^BenchmarkStartupInProcess' "$out" | awk '{printf "info: config work per tool, in process: %.1f µs (of a 200-tool config; target ≤ 50)\n", $3/200/1000}'
grep '^BenchmarkValidateGitHub' "$out" | awk '{for (i=2; i<=NF; i++) { if ($i=="ms-median") t=$(i-1); if ($i=="MB-peak") m=$(i-1) } printf "info: validate of GitHub REST (1,223 tools): %d ms wall, median of 3 (target ≤ 3000); peak %d MB (target ≤ 300)\n", t, m}'
grep '^BenchmarkInitializeGitHub' "$out" | awk '{for (i=2; i<=NF; i++) { if ($i=="ms-median") t=$(i-1); if ($i=="tools/list-bytes") n=$(i-1) } printf "info: serve of GitHub REST answers initialize after %d ms, median of 3 (target ≤ 1000); tools/list %d bytes\n", t, n}'
# Peak memory is steady from run to run: past 1.5 times the goal fails.
peak=$(grep '^BenchmarkValidateGitHub' "$out" | awk '{for (i=2; i<=NF; i++) if ($i=="MB-peak") print int($(i-1))}')
if [[ -z $peak || $peak -gt 450 ]]; then
  echo "FAIL validate of GitHub REST: peak ${peak:-?} MB (more than 450)"
  status=1
fi
cfg=$(mktemp -d)
go build -o "$cfg/mcpgen" ./cmd/mcpgen
{ printf 'version: 1\ntools:\n'; for ((i = 0; i < 1000; i++)); do
  printf '  - name: tool_%d\n    description: Tool %d.\n    args: [{name: id, type: integer, required: true, minimum: 1}, {name: q, max_length: 200}]\n    content: [{text: "{{ .args.id }} {{ .args.q }}"}]\n' "$i" "$i"
done; } >"$cfg/big.yaml"
for _ in 1 2 3 4 5; do
  t0=$(date +%s%N)
  "$cfg/mcpgen" validate "$cfg/big.yaml" >/dev/null
  echo $((($(date +%s%N) - t0) / 1000000))
done | sort -n | sed -n 3p | awk '{printf "info: validate of 1,000 tools: %d ms wall, median of 5 (target ≤ 150)\n", $1}'
rm -rf "$cfg"
exit $status
