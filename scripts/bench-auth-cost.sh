#!/usr/bin/env bash
# What token checking costs the server of a tools/call, in instructions:
# mcpgen serves the echo tool of BenchmarkHTTPCallsAuth over HTTP without
# auth and with OAuth (ES256 JWT, cached JWKS, a required scope), under
# valgrind --tool=callgrind, driven by TestAuthCostDriver from outside the
# process. Per-call counts are (I(N2) - I(N1)) / (N2 - N1), which leaves out
# start-up; N2 is large enough to hold some 35 GC cycles, whose number
# would otherwise move the ratio by 2%. Three servers: none (no auth, no
# token sent), header (no auth, the same token sent: what its bytes cost
# net/http before anything checks them) and jwt; jwt/header is what
# checking the token adds. Instruction counts do not depend on the
# machine's load; the client's share (writing the header) is not counted,
# unlike the CPU time of BenchmarkHTTPCallsAuth, which runs client and
# server in one process.
#
#   scripts/bench-auth-cost.sh            # REPS=3 N1=200 N2=5200
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
reps=${REPS:-3} n1=${N1:-200} n2=${N2:-5200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpgen" ./cmd/mcpgen
go test -c -o "$work/transport.test" ./runtime/transport

# count MODE STATELESS N: instructions of one server run
count() {
  local out=$work/cg.$1.$2.$3
  MCPGEN_AUTHCOST_SERVER="env GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=$out $work/mcpgen" \
    MCPGEN_AUTHCOST_MODE=$1 MCPGEN_AUTHCOST_STATELESS=$2 MCPGEN_AUTHCOST_N=$3 \
    "$work/transport.test" -test.run '^TestAuthCostDriver$' -test.timeout 20m >"$out.log" 2>&1 ||
    { cat "$out.log" >&2; exit 1; }
  cat "$out".* | awk '/^summary:/ {s += $2} END {print s}'
  rm -f "$out" "$out".*
}
printf '%-9s %4s %10s %10s %10s %9s %9s  %s\n' mode rep none header jwt jwt/none jwt/header load
for sl in 0 1; do
  mode=$([[ $sl == 1 ]] && echo stateless || echo stateful)
  for r in $(seq "$reps"); do
    declare -A per=()
    for m in none header jwt; do
      a=$(count $m $sl "$n1") b=$(count $m $sl "$n2")
      per[$m]=$(((b - a) / (n2 - n1)))
    done
    printf '%-9s %4s %10s %10s %10s %9s %9s  %s\n' "$mode" "$r" "${per[none]}" "${per[header]}" "${per[jwt]}" \
      "$(awk -v a="${per[none]}" -v b="${per[jwt]}" 'BEGIN {printf "%.3f", b / a}')" \
      "$(awk -v a="${per[header]}" -v b="${per[jwt]}" 'BEGIN {printf "%.3f", b / a}')" "$(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
