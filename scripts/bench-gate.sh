#!/usr/bin/env bash
# Fails when a hot path allocates grossly more than the committed baseline
# (scripts/bench-baseline.txt): more than FACTOR (default 3) times the
# allocations or the bytes per operation. Allocations are stable from run to
# run where times are not, so this catches a change that undoes the work on
# speed without failing on a busy machine. On a real API at scale, the
# GitHub REST config (runtime/testdata/github-rest.yaml.gz), it also fails
# when validate, or serve up to its initialize answer (with and without
# tool search), takes more than CPU_FACTOR (default 2) times the CPU time
# (user+sys) of the baseline: CPU time, unlike wall time, moves little on a
# busy machine. It prints, without judging them, the wall times: validate
# of 1,000 tools and the config work per tool of BenchmarkStartupInProcess;
# validate's time and peak memory and serve's time to answer initialize on
# the GitHub REST config.
#
#   scripts/bench-gate.sh            # check
#   scripts/bench-gate.sh -update    # rewrite the baseline from this run
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
baseline=scripts/bench-baseline.txt
factor=${FACTOR:-3}
cpu_factor=${CPU_FACTOR:-2}
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
run ./cmd/mcpgen '^BenchmarkInitializeGitHubInProcess$' 2x
run ./cmd/mcpgen '^Benchmark(Validate|Initialize)GitHub$|^BenchmarkInitializeGitHubToolSearch$' 3x

# name allocs/op B/op, the -2 (GOMAXPROCS) suffix dropped
current=$(awk '{name=$1; sub(/-[0-9]+$/, "", name); a=b=""; for (i=2; i<=NF; i++) { if ($i=="allocs/op") a=$(i-1); if ($i=="B/op") b=$(i-1) } print name, a, b}' "$out")
# cpu-ms name median-CPU-milliseconds, of the benchmarks that report cpu-ms
cpu=$(awk '{name=$1; sub(/-[0-9]+$/, "", name); for (i=2; i<=NF; i++) if ($i=="cpu-ms") print "cpu-ms", name, $(i-1)}' "$out")
if [[ ${1:-} == -update ]]; then
  { echo "# benchmark allocs/op B/op, and cpu-ms benchmark CPU-ms, written by scripts/bench-gate.sh -update"
    # a benchmark of a process (it reports cpu-ms) is judged by its CPU
    # time: what its own process allocates is the harness's
    echo "$current" | grep -v -F -f <(awk '{print $2 " "}' <<<"$cpu"); echo "$cpu"; } >"$baseline"
  cat "$baseline"
  exit 0
fi

status=0
while read -r kind name ms; do
  [[ $kind == cpu-ms ]] || continue
  read -r _ _ m <<<"$(grep "^cpu-ms $name " <<<"$cpu" || echo "- - -")"
  if [[ $m == - ]]; then
    echo "FAIL $name: no CPU time"
    status=1
    continue
  fi
  verdict=$(awk -v m="$m" -v M="$ms" -v f="$cpu_factor" 'BEGIN{print (m > f*M) ? "FAIL" : "ok"}')
  printf '%-4s %-45s CPU %8s ms (baseline %8s ms)\n' "$verdict" "$name" "$m" "$ms"
  [[ $verdict == ok ]] || status=1
done <"$baseline"
while read -r name allocs bytes; do
  [[ $name == \#* || $name == cpu-ms || -z $name ]] && continue
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
grep '^BenchmarkInitializeGitHub\(ToolSearch\)\?-' "$out" | awk '{for (i=2; i<=NF; i++) { if ($i=="ms-median") t=$(i-1); if ($i=="tools/list-bytes") n=$(i-1) } printf "info: %s of GitHub REST answers initialize after %d ms, median of 3 (target ≤ 1000); tools/list %d bytes\n", ($1 ~ /ToolSearch/ ? "serve --tool-search" : "serve"), t, n}'
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
