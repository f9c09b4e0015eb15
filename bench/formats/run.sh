#!/usr/bin/env bash
# The other formats' benchmark (called at the end of bench/run.sh; runs alone too):
#   bash bench/formats/run.sh
#   BENCH_XRAY_MB=64 BENCH_JIT_MB=32 BENCH_GPERF_MB=32 BENCH_RUNS=5 BENCH_PERF_RUNS=3 bash bench/formats/run.sh
# 1. builds the seeded generators bench/gen/{xraygen,jitgen,gperfgen}.cc and
#    bench/formats/format_bench.cc (-O2, with the core, as bench/run.sh builds
#    decode_bench) into build/bench;
# 2. writes an XRay FDR log (+ its `llvm-xray extract` YAML map), a jitdump and a
#    gperftools CPU profile of the sizes asked (files are kept and reused);
# 3. measures on the same files: profscope native decode (in-process, medians of
#    BENCH_RUNS), profscope WASM decode under node (bench/wasm_bench.mjs), the
#    profscope CLI as a process, and the competing tools as processes:
#    `llvm-xray account` / `llvm-xray stack` (XRay), `google-pprof --raw` /
#    `--text` (gperftools; Debian's google-perftools package); jitdump has no
#    direct competitor (records/s only). Processes: median wall of BENCH_PERF_RUNS
#    runs, with CPU time (user+sys) and peak RSS from /usr/bin/time, output to /dev/null.
# Results: build/bench/formats.json and Markdown tables on stdout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/build/bench"
RUNS=${BENCH_RUNS:-5}
PERF_RUNS=${BENCH_PERF_RUNS:-3}
SEED=${BENCH_SEED:-42}
XRAY_MB=${BENCH_XRAY_MB:-64}
JIT_MB=${BENCH_JIT_MB:-32}
GPERF_MB=${BENCH_GPERF_MB:-32}
CLI=${PROFSCOPE_CLI:-$ROOT/build/native/profscope}
mkdir -p "$B"
log() { printf '[bench/formats] %s\n' "$*" >&2; }

for g in xraygen jitgen gperfgen; do
  if [[ ! -x "$B/$g" || "$ROOT/bench/gen/$g.cc" -nt "$B/$g" ]]; then
    g++ -O2 -std=c++20 "$ROOT/bench/gen/$g.cc" -o "$B/$g"
  fi
done
if [[ ! -x "$B/format_bench" || -n "$(find "$ROOT/core" "$ROOT/bench/formats" -newer "$B/format_bench" -name '*.[ch]*' | head -1)" ]]; then
  log "building format_bench (-O2)"
  g++ -O2 -DNDEBUG -std=c++20 -DPROFSCOPE_HAVE_ZSTD=1 -I"$ROOT" $(find "$ROOT/core" -name '*.cc' | sort) \
    "$ROOT/bench/formats/format_bench.cc" -o "$B/format_bench" -lzstd
fi
[[ -x "$CLI" ]] || { log "no profscope CLI at $CLI (npm run build, or set PROFSCOPE_CLI)"; CLI=""; }

XRAY="$B/xray-${XRAY_MB}MB-s$SEED.log"; XMAP="$B/xray-${XRAY_MB}MB-s$SEED.yaml"
JIT="$B/jit-${JIT_MB}MB-s$SEED.dump"
GPERF="$B/gperf-${GPERF_MB}MB-s$SEED.prof"
[[ -f "$XRAY" && -f "$XMAP" ]] || "$B/xraygen" "$XRAY" "$XMAP" "$XRAY_MB" "$SEED" > "$XRAY.gen.json"
[[ -f "$JIT" ]] || "$B/jitgen" "$JIT" "$JIT_MB" "$SEED" > "$JIT.gen.json"
[[ -f "$GPERF" ]] || "$B/gperfgen" "$GPERF" "$GPERF_MB" "$SEED" > "$GPERF.gen.json"

# proc NAME CMD...: median wall (s), median CPU (user+sys, s), max peak RSS (MB) of PERF_RUNS runs,
# output to /dev/null, exit status of the last run; one JSON object
proc() {
  local name=$1; shift
  local walls=() cpus=() rss=0 rc=0 tf
  tf=$(mktemp)
  for ((i = 0; i < PERF_RUNS; i++)); do
    local t0; t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S %M' -o "$tf" "$@" >/dev/null 2>"$tf.err" && rc=0 || rc=$?
    walls+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.4f", b - a }')")
    read -r u s m < <(tail -1 "$tf")
    cpus+=("$(awk -v a="$u" -v b="$s" 'BEGIN { printf "%.2f", a + b }')")
    ((m > rss)) && rss=$m
  done
  local err; err=$(grep -v -e '^Using local file' -e 'No such file' -e '^Command exited' "$tf.err" | head -c 300 | tr '\n"\\' '   ')
  rm -f "$tf" "$tf.err"
  local mid=$(((PERF_RUNS + 1) / 2))
  printf '{"name":"%s","wall_s":%s,"cpu_s":%s,"peak_rss_MB":%s,"exit":%d,"stderr":"%s"}' "$name" \
    "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")" "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")" \
    "$(awk -v a="$rss" 'BEGIN { printf "%.1f", a / 1024 }')" "$rc" "$err"
}

out="{"
log "XRay $(basename "$XRAY"): native, wasm"
xn=$(nice -n 10 "$B/format_bench" "$XRAY" "$RUNS" "$XMAP")
xw=$(nice -n 10 node "$ROOT/bench/wasm_bench.mjs" "$XRAY" "$RUNS")
log "XRay: processes (profscope CLI, llvm-xray account, llvm-xray stack; $PERF_RUNS runs each)"
xp="["
if [[ -n $CLI ]]; then
  xp+="$(proc "profscope info --instr-map" nice -n 10 "$CLI" info "$XRAY" --instr-map "$XMAP"),"
  xp+="$(proc "profscope stacks --instr-map" nice -n 10 "$CLI" stacks "$XRAY" --instr-map "$XMAP"),"
fi
if command -v llvm-xray >/dev/null; then
  xp+="$(proc "llvm-xray account" nice -n 10 llvm-xray account -instr_map="$XMAP" "$XRAY"),"
  xp+="$(proc "llvm-xray stack" nice -n 10 llvm-xray stack -instr_map="$XMAP" "$XRAY"),"
  xp+="$(proc "llvm-xray stack -all-stacks -stack-format=flame" nice -n 10 llvm-xray stack -all-stacks -stack-format=flame -instr_map="$XMAP" "$XRAY"),"
else
  log "llvm-xray not installed (Debian: llvm-14): XRay competitor not measured"
fi
xp="${xp%,}]"
out+="\"xray\":{\"gen\":$(cat "$XRAY.gen.json"),\"native\":$xn,\"wasm\":$xw,\"procs\":$xp},"

log "jitdump $(basename "$JIT"): native, wasm (no competing tool: perf reads jit dumps only through perf inject --jit with a perf.data)"
jn=$(nice -n 10 "$B/format_bench" "$JIT" "$RUNS")
jw=$(nice -n 10 node "$ROOT/bench/wasm_bench.mjs" "$JIT" "$RUNS")
jp="["
[[ -n $CLI ]] && jp+="$(proc "profscope info" nice -n 10 "$CLI" info "$JIT"),$(proc "profscope records" nice -n 10 "$CLI" records "$JIT"),"
jp="${jp%,}]"
out+="\"jitdump\":{\"gen\":$(cat "$JIT.gen.json"),\"native\":$jn,\"wasm\":$jw,\"procs\":$jp},"

log "gperftools $(basename "$GPERF"): native, wasm"
gn=$(nice -n 10 "$B/format_bench" "$GPERF" "$RUNS")
gw=$(nice -n 10 node "$ROOT/bench/wasm_bench.mjs" "$GPERF" "$RUNS")
log "gperftools: processes (profscope CLI, google-pprof --raw / --text; $PERF_RUNS runs each)"
gp="["
if [[ -n $CLI ]]; then
  gp+="$(proc "profscope info" nice -n 10 "$CLI" info "$GPERF"),"
  gp+="$(proc "profscope stacks --addresses" nice -n 10 "$CLI" stacks "$GPERF" --addresses),"
fi
if command -v google-pprof >/dev/null; then
  # the program argument only names the main binary for symbolization; the generated maps name
  # files that do not exist, so pprof prints addresses (as for a profile from another machine)
  gp+="$(proc "google-pprof --raw" nice -n 10 google-pprof --raw /bin/true "$GPERF"),"
  gp+="$(proc "google-pprof --text" nice -n 10 google-pprof --text /bin/true "$GPERF"),"
else
  log "google-pprof not installed (Debian: apt-get install google-perftools): gperftools competitor not measured"
fi
gp="${gp%,}]"
out+="\"gperf\":{\"gen\":$(cat "$GPERF.gen.json"),\"native\":$gn,\"wasm\":$gw,\"procs\":$gp}}"
echo "$out" > "$B/formats.json"

node "$ROOT/bench/formats/report.mjs" "$B/formats.json"
