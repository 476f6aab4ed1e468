#!/usr/bin/env bash
# Measures mcpgen side by side with MCP Toolbox for Databases 1.9.0 on the
# same SQLite tool (one table, a query returning two rows), the servers
# interleaved in the same runs, and prints the table of issue 13 with ratios.
# It also runs a hand-written echo server (scripts/echobench, no SDK) beside
# mcpgen's backend-less tool: the physical limit of this machine.
#
# Absolute times on a shared machine are noise; the ratios taken pair by pair
# inside one run are the result. Each figure is the median of ROUNDS rounds,
# with its range [min..max]; the machine's load is printed with every part.
#
# Environment:
#   TOOLBOX=path        a Toolbox 1.9.0 binary; otherwise one is built from
#                       the Go module proxy into the cache (8-20 minutes)
#   BENCH_CLIENT=dir    the side-by-side client (default ../shared/bench)
#   CACHE=dir           where Toolbox and the client are kept, outside the repo
#                       (default ${XDG_CACHE_HOME:-~/.cache}/mcpgen-bench)
#   ROUNDS=3 DUR=10s N=2000 STARTUPS=30 CONC=16 PORT=22100
#   OUT=dir             keep every raw output there (default: a temp dir)
#   MCPGEN=path         the mcpgen binary to measure (default: built from this tree)
#   BEFORE=path         another mcpgen binary (say, the commit before a change),
#                       run interleaved with the others in the stdio and HTTP
#                       parts and named "before" and "before-stateless"
#   ONLY="startup stdio http ceiling anchor validate inprocess"  parts to run
#
# To see where a server's time goes, build it with `go build -tags profsig`
# (cmd/mcpgen/profsig.go) and run tbbench -profsig with
# MCPGEN_CPUPROFILE=file: the server writes a CPU profile of each
# concurrent round to file, and its allocations to file.allocs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
toolbox_version=v1.9.0
cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpgen-bench}
client_src=${BENCH_CLIENT:-$root/../shared/bench}
rounds=${ROUNDS:-3}
dur=${DUR:-10s}
n=${N:-2000}
startups=${STARTUPS:-30}
conc=${CONC:-16}
port=${PORT:-22100}
only=${ONLY:-startup stdio http ceiling anchor validate inprocess}
out=${OUT:-$(mktemp -d)}
mkdir -p "$cache" "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

want() { [[ " $only " == *" $1 "* ]]; }
say() { printf '== %s  [%s]\n' "$*" "$(uptime | sed 's/.*load/load/')" >&2; }

# ---------- binaries ----------

build_toolbox() {
  local bin=$cache/toolbox-$toolbox_version
  if [[ -n ${TOOLBOX:-} ]]; then echo "$TOOLBOX"; return; fi
  if [[ ! -x $bin ]]; then
    say "building MCP Toolbox $toolbox_version from the module proxy into $cache (8-20 minutes)"
    local dir
    dir=$(go mod download -json "github.com/googleapis/genai-toolbox@$toolbox_version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
    rm -rf "$cache/toolbox-src" && cp -r "$dir" "$cache/toolbox-src" && chmod -R u+w "$cache/toolbox-src"
    (cd "$cache/toolbox-src" && go build -o "$bin.tmp" .) && mv "$bin.tmp" "$bin"
  fi
  echo "$bin"
}

toolbox=none
if want startup || want stdio || want http || want ceiling; then
  toolbox=$(build_toolbox)
  [[ -x $toolbox ]] || { echo "no Toolbox binary at $toolbox" >&2; exit 1; }
fi
[[ -f $client_src/ab.go ]] || { echo "no benchmark client in $client_src; set BENCH_CLIENT" >&2; exit 1; }
(cd "$client_src" && go build -o "$cache/tbbench" .)
tbbench=$cache/tbbench
if [[ -n ${MCPGEN:-} ]]; then
  mcpgen=$MCPGEN
else
  go build -o "$work/mcpgen" ./cmd/mcpgen
  mcpgen=$work/mcpgen
fi
go build -o "$work/echobench" ./scripts/echobench
before=()
before_http=()
if [[ -n ${BEFORE:-} ]]; then
  before=(-s "before=$BEFORE serve --log-level warn $work/mcpgen.yaml")
  before_http=(-s "before=$BEFORE serve --log-level warn --http 127.0.0.1:{port} $work/mcpgen.yaml"
    -s "before-stateless=$BEFORE serve --log-level warn --stateless --http 127.0.0.1:{port} $work/mcpgen.yaml")
fi

# ---------- the workload ----------

cat >"$work/hotels.sql" <<'EOF'
CREATE TABLE hotels (id INTEGER PRIMARY KEY, name TEXT, location TEXT, price_tier TEXT, booked INTEGER);
INSERT INTO hotels VALUES (1, 'Hilton Basel', 'Basel', 'Luxury', 0), (2, 'Marriott Zurich', 'Zurich', 'Upscale', 0),
  (3, 'Hyatt Regency Basel', 'Basel', 'Upper Upscale', 0), (4, 'Radisson Blu Lucerne', 'Lucerne', 'Midscale', 0),
  (5, 'Best Western Bern', 'Bern', 'Upper Midscale', 0);
EOF
cat >"$work/toolbox.yaml" <<EOF
kind: source
name: hotels-db
type: sqlite
database: $work/hotels.db
---
kind: tool
name: search_hotels_by_location
type: sqlite-sql
source: hotels-db
description: Search hotels by city/location. Returns matching rows.
parameters:
  - name: location
    type: string
    description: City name, e.g. Basel
statement: SELECT * FROM hotels WHERE location = ?
EOF
# sql_tools N: a config of N tools on the hotels database; the first is the
# one the benchmark calls.
sql_tools() {
  printf 'version: 1\nbackends:\n  hotels: {kind: sql, driver: sqlite, dsn: %s/hotels.db, init: %s/hotels.sql}\ntools:\n' "$work" "$work"
  printf '  - name: search_hotels_by_location\n    description: Search hotels by city/location. Returns matching rows.\n'
  printf '    args: [{name: location, description: "City name, e.g. Basel", required: true}]\n'
  printf '    handler:\n      backend: hotels\n      query: SELECT * FROM hotels WHERE location = :location\n'
  printf '      params: {location: "${{ args.location }}"}\n'
  for ((i = 1; i < $1; i++)); do
    printf '  - name: hotels_%d\n    description: Hotels of one price tier in a city, at most a given number.\n' "$i"
    printf '    args:\n      - {name: location, required: true, max_length: 100}\n'
    printf '      - {name: tier, enum: [Luxury, Upscale, Midscale], default: Upscale}\n'
    printf '      - {name: limit, type: integer, minimum: 1, maximum: 100, default: 10}\n'
    printf '    handler:\n      backend: hotels\n'
    printf '      query: SELECT id, name FROM hotels WHERE location = :location AND price_tier = :tier LIMIT :limit\n'
    printf '      params: {location: "${{ args.location }}", tier: "${{ args.tier }}", limit: "${{ args.limit }}"}\n'
  done
}
sql_tools 1 >"$work/mcpgen.yaml"
sql_tools 200 >"$work/mcpgen200.yaml"
sql_tools 1000 >"$work/mcpgen1000.yaml"
cat >"$work/echo.yaml" <<'EOF'
version: 1
tools:
  - name: echo
    description: Echoes its argument.
    args: [{name: text}]
    content: [{text: "{{ .args.text }}"}]
EOF
# The first call creates the database from hotels.sql.
"$mcpgen" call --json '{"location":"Basel"}' "$work/mcpgen.yaml" search_hotels_by_location | grep -q 'Hilton Basel'

tb="toolbox=$toolbox --config $work/toolbox.yaml"
mg="mcpgen=$mcpgen serve --log-level warn"

# ---------- runs ----------

if want startup; then
  say "start to initialize: mcpgen with 200 tools vs Toolbox with 1"
  "$tbbench" -mode ab-startup -startups "$startups" -s "$tb --stdio" -s "$mg $work/mcpgen200.yaml" >"$out/startup.txt"
fi
if want stdio; then
  for r in $(seq "$rounds"); do
    say "stdio round $r"
    "$tbbench" -mode ab-stdio -n "$n" -block 100 -warm 50 -s "$tb --stdio" -s "$mg $work/mcpgen.yaml" "${before[@]}" >"$out/stdio-$r.txt"
  done
fi
if want http; then
  say "Streamable HTTP, $conc clients, $rounds rounds of $dur"
  "$tbbench" -mode ab-http -n "$n" -block 100 -conc "$conc" -dur "$dur" -rounds "$rounds" -port "$port" \
    -s "$tb --port {port}" -s "$mg --http 127.0.0.1:{port} $work/mcpgen.yaml" \
    -s "mcpgen-stateless=$mcpgen serve --log-level warn --stateless --http 127.0.0.1:{port} $work/mcpgen.yaml" \
    "${before_http[@]}" >"$out/http.txt"
fi
if want ceiling; then
  # What the machine allows: the echo server answering the same tool name
  # with no work at all, interleaved with Toolbox, same client and load. No
  # server can be more than this many times faster than Toolbox here.
  say "ceiling: hand-written echo server (no work) vs Toolbox, HTTP, $conc clients"
  "$tbbench" -mode ab-http -expect Basel -n "$n" -block 100 -conc "$conc" -dur "$dur" -rounds "$rounds" -port $((port + 20)) \
    -s "$tb --port {port}" -s "echo=$work/echobench -as search_hotels_by_location -http 127.0.0.1:{port}" >"$out/ceiling.txt"
fi
if want anchor; then
  echoargs=(-tool echo -toolargs '{"text":"Hilton Basel"}' -expect 'Hilton Basel')
  say "anchor: hand-written echo server vs mcpgen's backend-less tool, HTTP"
  "$tbbench" -mode ab-http "${echoargs[@]}" -n "$n" -block 100 -conc "$conc" -dur "$dur" -rounds "$rounds" -port $((port + 10)) \
    -s "echo=$work/echobench -http 127.0.0.1:{port}" -s "$mg --http 127.0.0.1:{port} $work/echo.yaml" \
    -s "mcpgen-stateless=$mcpgen serve --log-level warn --stateless --http 127.0.0.1:{port} $work/echo.yaml" >"$out/anchor-http.txt"
  say "anchor: stdio"
  "$tbbench" -mode ab-stdio "${echoargs[@]}" -n "$n" -block 100 -warm 50 \
    -s "echo=$work/echobench" -s "$mg $work/echo.yaml" >"$out/anchor-stdio.txt"
fi
if want validate; then
  say "validate, 1,000 tools"
  # wall, user and system seconds of each run
  for _ in $(seq 11); do
    TIMEFORMAT='%R %U %S'
    { time "$mcpgen" validate "$work/mcpgen1000.yaml" >/dev/null 2>&1; } 2>&1
  done >"$out/validate.txt"
fi
if want inprocess; then
  say "BenchmarkStartupInProcess"
  go test -run '^$' -bench 'StartupInProcess$' -benchtime 30x -count "$rounds" ./cmd/mcpgen >"$out/inprocess.txt"
fi

# ---------- the table ----------

# stats: median [min..max] of the numbers on stdin.
stats() { sort -g | awk '{a[NR]=$1} END{if(!NR){print "n/a";exit} m=NR%2?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%s [%s..%s]", fmt(m), fmt(a[1]), fmt(a[NR])}
  function fmt(x){return x>=100?sprintf("%.0f",x):sprintf("%.3g",x)}'; }
median() { stats | cut -d' ' -f1; }
# get KEY: the value of KEY=VALUE on each input line (units stripped).
get() { grep -o "$1=[0-9.]*" | cut -d= -f2; }
# lines FILE PREFIX NAME: the lines of FILE about server NAME.
lines() { grep -h "^$2 $3 " $1 || true; }
# ratio A B: A/B line by line of two equally long lists.
ratio() { paste <(echo "$1") <(echo "$2") | awk '$2>0{print $1/$2}'; }
# per_round FILE NAME KEY: KEY of each concurrent round of NAME.
per_round() { grep -h "^round [0-9]* $2 " $1 | get "$3"; }
# verdict VALUE OP LIMIT
verdict() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN{ok = op=="<=" ? v<=l : v>=l; print ok ? "met" : "NOT met"}'; }
row() { printf '| %s | %s | %s | %s | %s |\n' "$@"; }

echo
echo "mcpgen vs MCP Toolbox $toolbox_version, same SQLite tool, interleaved; median [min..max] of $rounds rounds; $(uptime | sed 's/.*load/load/')"
echo "raw outputs: $out"
echo
row "figure" "Toolbox" "mcpgen" "mcpgen / Toolbox" "target"
row "---" "---" "---" "---" "---"
if [[ -f $out/http.txt ]]; then
  h=$out/http.txt
  names=(mcpgen mcpgen-stateless)
  [[ -n ${BEFORE:-} ]] && names+=(before before-stateless)
  for m in "${names[@]}"; do
    r=$(ratio "$(per_round "$h" "$m" calls/s)" "$(per_round "$h" toolbox calls/s)" | median)
    errs=$(grep -h "^http-conc $m " "$h" | get errors)
    row "HTTP $conc clients, calls/s ($m; errors $errs)" "$(per_round "$h" toolbox calls/s | stats)" "$(per_round "$h" "$m" calls/s | stats)" \
      "$(ratio "$(per_round "$h" "$m" calls/s)" "$(per_round "$h" toolbox calls/s)" | stats)" "≥ 2: $(verdict "$r" '>=' 2)"
    r=$(ratio "$(per_round "$h" "$m" server-cpu/call)" "$(per_round "$h" toolbox server-cpu/call)" | median)
    row "server CPU per call, µs ($m)" "$(per_round "$h" toolbox server-cpu/call | stats)" "$(per_round "$h" "$m" server-cpu/call | stats)" \
      "$(ratio "$(per_round "$h" "$m" server-cpu/call)" "$(per_round "$h" toolbox server-cpu/call)" | stats)" "≤ 0.5: $(verdict "$r" '<=' 0.5)"
  done
  for m in "${names[@]}"; do
    tbm=$(lines "$h" http-mem toolbox | get VmHWM)
    mm=$(lines "$h" http-mem "$m" | get VmHWM)
    r=$(ratio "$mm" "$tbm")
    row "peak memory after HTTP load, MB ($m)" "$((tbm / 1024))" "$((mm / 1024))" "$(printf %.2f "$r")" "≤ 0.5: $(verdict "$r" '<=' 0.5)"
  done
fi
if ls "$out"/stdio-*.txt >/dev/null 2>&1; then
  s=("$out"/stdio-*.txt)
  tp50=$(lines "${s[*]}" stdio toolbox | get p50) mp50=$(lines "${s[*]}" stdio mcpgen | get p50)
  r=$(lines "${s[*]}" stdio mcpgen | grep -o 'ratio-vs-toolbox median=[0-9.]*' | cut -d= -f2)
  row "stdio tools/call p50, µs (block ratios)" "$(echo "$tp50" | stats)" "$(echo "$mp50" | stats)" "$(echo "$r" | stats)" "≤ 0.7: $(verdict "$(echo "$r" | median)" '<=' 0.7)"
  tp99=$(lines "${s[*]}" stdio toolbox | get p99) mp99=$(lines "${s[*]}" stdio mcpgen | get p99)
  r=$(ratio "$mp99" "$tp99")
  row "stdio tools/call p99, µs" "$(echo "$tp99" | stats)" "$(echo "$mp99" | stats)" "$(echo "$r" | stats)" "≤ 1: $(verdict "$(echo "$r" | median)" '<=' 1)"
  tc=$(lines "${s[*]}" stdio toolbox | get cpu/call) mc=$(lines "${s[*]}" stdio mcpgen | get cpu/call)
  row "stdio server CPU per call, µs" "$(echo "$tc" | stats)" "$(echo "$mc" | stats)" "$(ratio "$mc" "$tc" | stats)" ""
  if [[ -n ${BEFORE:-} ]]; then
    bp50=$(lines "${s[*]}" stdio before | get p50) bc=$(lines "${s[*]}" stdio before | get cpu/call)
    r=$(lines "${s[*]}" stdio before | grep -o 'ratio-vs-toolbox median=[0-9.]*' | cut -d= -f2)
    row "stdio tools/call p50, µs (before; block ratios)" "$(echo "$tp50" | stats)" "$(echo "$bp50" | stats)" "$(echo "$r" | stats)" ""
    row "stdio server CPU per call, µs (before)" "$(echo "$tc" | stats)" "$(echo "$bc" | stats)" "$(ratio "$bc" "$tc" | stats)" ""
  fi
  tbm=$(lines "${s[*]}" stdio-mem toolbox | get VmHWM) mm=$(lines "${s[*]}" stdio-mem mcpgen | get VmHWM)
  r=$(ratio "$mm" "$tbm" | median)
  row "peak memory on stdio, MB" "$(echo "$tbm" | awk '{print $1/1024}' | stats)" "$(echo "$mm" | awk '{print $1/1024}' | stats)" "$(ratio "$mm" "$tbm" | stats)" "≤ 0.5: $(verdict "$r" '<=' 0.5)"
fi
if [[ -f $out/startup.txt ]]; then
  st=$out/startup.txt
  r=$(lines "$st" startup mcpgen | grep -o 'median=[0-9.]*' | cut -d= -f2)
  range=$(lines "$st" startup mcpgen | grep -o '\[min [0-9.]* max [0-9.]*\]')
  row "start → initialize, ms (mcpgen 200 tools, Toolbox 1)" "$(lines "$st" startup toolbox | get p50 | awk '{print $1/1000}')" \
    "$(lines "$st" startup mcpgen | get p50 | awk '{print $1/1000}')" "$r $range" "≤ 1: $(verdict "$r" '<=' 1)"
fi
if [[ -f $out/validate.txt ]]; then
  v=$(awk '{print $1*1000}' "$out/validate.txt")
  row "validate, 1,000 tools, ms wall" "" "$(echo "$v" | stats)" "" "≤ 150: $(verdict "$(echo "$v" | median)" '<=' 150)"
  row "validate, 1,000 tools, ms CPU (user+sys)" "" "$(awk '{print ($2+$3)*1000}' "$out/validate.txt" | stats)" "" ""
fi
if [[ -f $out/inprocess.txt ]]; then
  v=$(grep '^BenchmarkStartupInProcess' "$out/inprocess.txt" | awk '{print $3/200/1000}')
  row "config work per tool in process, µs (BenchmarkStartupInProcess / 200)" "" "$(echo "$v" | stats)" "" "≤ 50: $(verdict "$(echo "$v" | median)" '<=' 50)"
fi
if [[ -f $out/ceiling.txt ]]; then
  a=$out/ceiling.txt
  echo
  echo "ceiling: hand-written echo server doing no work vs Toolbox, same client, interleaved"
  row "figure" "Toolbox" "echo" "echo / Toolbox" ""
  row "---" "---" "---" "---" "---"
  row "calls/s" "$(per_round "$a" toolbox calls/s | stats)" "$(per_round "$a" echo calls/s | stats)" "$(ratio "$(per_round "$a" echo calls/s)" "$(per_round "$a" toolbox calls/s)" | stats)" ""
  row "server CPU per call, µs" "$(per_round "$a" toolbox server-cpu/call | stats)" "$(per_round "$a" echo server-cpu/call | stats)" "$(ratio "$(per_round "$a" echo server-cpu/call)" "$(per_round "$a" toolbox server-cpu/call)" | stats)" ""
fi
for f in anchor-http anchor-stdio; do
  [[ -f $out/$f.txt ]] || continue
  echo
  echo "anchor ($f): hand-written echo server (no SDK) vs mcpgen's backend-less tool"
  row "figure" "echo" "mcpgen" "mcpgen / echo" ""
  row "---" "---" "---" "---" "---"
  a=$out/$f.txt
  if [[ $f == anchor-http ]]; then
    for m in mcpgen mcpgen-stateless; do
      row "calls/s ($m)" "$(per_round "$a" echo calls/s | stats)" "$(per_round "$a" "$m" calls/s | stats)" "$(ratio "$(per_round "$a" "$m" calls/s)" "$(per_round "$a" echo calls/s)" | stats)" ""
      row "server CPU per call, µs ($m)" "$(per_round "$a" echo server-cpu/call | stats)" "$(per_round "$a" "$m" server-cpu/call | stats)" "$(ratio "$(per_round "$a" "$m" server-cpu/call)" "$(per_round "$a" echo server-cpu/call)" | stats)" ""
    done
  else
    row "tools/call p50, µs" "$(lines "$a" stdio echo | get p50)" "$(lines "$a" stdio mcpgen | get p50)" "$(lines "$a" stdio mcpgen | grep -o 'ratio-vs-echo median=[0-9.]*' | cut -d= -f2)" ""
    row "server CPU per call, µs" "$(lines "$a" stdio echo | get cpu/call)" "$(lines "$a" stdio mcpgen | get cpu/call)" "$(ratio "$(lines "$a" stdio mcpgen | get cpu/call)" "$(lines "$a" stdio echo | get cpu/call)")" ""
  fi
done
