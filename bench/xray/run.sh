#!/usr/bin/env bash
# XRay at scale (called by bench/run.sh; runs alone too):
#   bash bench/xray/run.sh
#   BENCH_XRAY_CALLS=14000000 BENCH_XRAY_DEEP=20000 BENCH_PERF_RUNS=1 bash bench/xray/run.sh
# 1. builds bench/xray/xray_prog.cpp with clang-14 -fxray-instrument and records,
#    with compiler-rt's FDR runtime, two real logs (kept in build/bench/xray and reused):
#    `calls` (~BENCH_XRAY_CALLS calls over 4 threads: 14 M calls = ~200 MB) and
#    `deep` (one recursion BENCH_XRAY_DEEP frames deep: quadratic folded stacks);
#    `llvm-xray extract` gives their instrumentation maps;
# 2. times, as processes (/usr/bin/time: wall, CPU = user+sys, peak RSS; output to
#    /dev/null; median wall of BENCH_PERF_RUNS): profscope native `info` and `stacks`,
#    the WASM CLI under node (`node wasm/cli.mjs`: its RSS holds the WASM heap), and
#    `llvm-xray stack` (-keep-going: it stops at the first unmatched exit otherwise)
#    and `llvm-xray stack -all-stacks -stack-format=flame`. profscope runs with
#    --max-memory 100000 so the whole log is decoded (the default budget stops a
#    200 MB log part way, with a memory_budget diagnostic);
# 3. checks that native and WASM print the same folded stacks (md5).
# Results: build/bench/xray.json and a Markdown table (goals: peak <= 1x the log,
# native stacks >= 5x faster than llvm-xray stack).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/build/bench/xray"
CALLS=${BENCH_XRAY_CALLS:-14000000}
DEEP=${BENCH_XRAY_DEEP:-20000}
PERF_RUNS=${BENCH_PERF_RUNS:-1}
CLI=${PROFSCOPE_CLI:-$ROOT/build/native/profscope}
WCLI="$ROOT/wasm/cli.mjs"
XRAY=${LLVM_XRAY:-llvm-xray-14}
mkdir -p "$B"
log() { printf '[bench/xray] %s\n' "$*" >&2; }
command -v clang++-14 >/dev/null || { log "clang++-14 (with compiler-rt's XRay runtime) is needed to record the logs: skipped"; exit 0; }
[[ -x "$CLI" ]] || { log "no profscope CLI at $CLI (npm run build, or set PROFSCOPE_CLI): skipped"; exit 0; }

if [[ ! -x "$B/xray_prog" || "$ROOT/bench/xray/xray_prog.cpp" -nt "$B/xray_prog" ]]; then
  clang++-14 -O1 -fxray-instrument -fxray-instruction-threshold=1 -pthread "$ROOT/bench/xray/xray_prog.cpp" -o "$B/xray_prog"
  rm -f "$B"/*.log "$B"/*.yaml
fi
# record NAME ARGS...: a real FDR log (every call kept: func_duration_threshold_us=0; buffers for all of it)
record() {
  local name=$1; shift
  [[ -f "$B/$name.log" ]] && return
  log "recording $name ($*)"
  (cd "$B" && rm -f xray-log.* && XRAY_OPTIONS="patch_premain=false verbosity=0 xray_logfile_base=xray-log." \
    XRAY_INIT="func_duration_threshold_us=0:buffer_size=1048576:buffer_max=512" ./xray_prog "$@" 2>/dev/null && mv xray-log.* "$name.log")
}
record "calls-$CALLS" calls "$CALLS"
record "deep-$DEEP" deep "$DEEP"
[[ -f "$B/xray_prog.yaml" ]] || "$XRAY" extract "$B/xray_prog" > "$B/xray_prog.yaml"
MAP="$B/xray_prog.yaml"

# proc NAME OUT CMD...: median wall, CPU and max peak RSS of PERF_RUNS runs (stdout to OUT)
proc() {
  local name=$1 out=$2; shift 2
  local walls=() cpus=() rss=0 rc=0 tf
  tf=$(mktemp)
  for ((i = 0; i < PERF_RUNS; i++)); do
    local t0; t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S %M' -o "$tf" "$@" >"$out" 2>"$tf.err" && rc=0 || rc=$?
    walls+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')")
    read -r u s m < <(tail -1 "$tf")
    cpus+=("$(awk -v a="$u" -v b="$s" 'BEGIN { printf "%.2f", a + b }')")
    ((m > rss)) && rss=$m
  done
  local err; err=$(grep -v '^Command exited' "$tf.err" | head -c 200 | tr '\n"\\' '   ')
  rm -f "$tf" "$tf.err"
  local mid=$(((PERF_RUNS + 1) / 2))
  printf '{"name":"%s","wall_s":%s,"cpu_s":%s,"peak_rss_MB":%s,"exit":%d,"stderr":"%s"}' "$name" \
    "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")" "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")" \
    "$(awk -v a="$rss" 'BEGIN { printf "%.1f", a / 1024 }')" "$rc" "$err"
}

out="{"
for name in "calls-$CALLS" "deep-$DEEP"; do
  L="$B/$name.log"
  log "$name: $(stat -c %s "$L") bytes"
  p="["
  p+="$(proc "profscope info (native)" /dev/null nice -n 10 "$CLI" info "$L" --instr-map "$MAP" --max-memory 100000),"
  p+="$(proc "profscope stacks (native)" "$B/$name.native.txt" nice -n 10 "$CLI" stacks "$L" --instr-map "$MAP" --max-memory 100000),"
  p+="$(proc "profscope stacks (WASM CLI, node)" "$B/$name.wasm.txt" nice -n 10 node "$WCLI" stacks "$L" --instr-map "$MAP" --max-memory 100000),"
  if [[ $name == calls-* ]]; then
    p+="$(proc "llvm-xray stack -keep-going" /dev/null nice -n 10 "$XRAY" stack -keep-going -instr_map="$MAP" "$L"),"
  fi
  p+="$(proc "llvm-xray stack -keep-going -all-stacks -stack-format=flame" /dev/null nice -n 10 "$XRAY" stack -keep-going -all-stacks -stack-format=flame -aggregation-type=count -instr_map="$MAP" "$L"),"
  same=false
  cmp -s "$B/$name.native.txt" "$B/$name.wasm.txt" && same=true
  bytes_out=$(stat -c %s "$B/$name.native.txt")
  rm -f "$B/$name.native.txt" "$B/$name.wasm.txt"
  out+="\"$name\":{\"log_bytes\":$(stat -c %s "$L"),\"stacks_bytes\":$bytes_out,\"native_equals_wasm\":$same,\"procs\":${p%,}]},"
done
out="${out%,}}"
echo "$out" > "$ROOT/build/bench/xray.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const [name, c] of Object.entries(r)) {
  const mb = c.log_bytes / 1048576;
  console.log(`\n| ${name}: ${mb.toFixed(1)} MB log, ${(c.stacks_bytes / 1048576).toFixed(1)} MB of folded stacks, native = WASM: ${c.native_equals_wasm} | wall s | CPU s | peak RSS MB | peak / log |`);
  console.log("|---|---|---|---|---|");
  for (const p of c.procs)
    console.log(`| ${p.name}${p.exit ? " (exit " + p.exit + ")" : ""} | ${p.wall_s} | ${p.cpu_s} | ${p.peak_rss_MB} | ${(p.peak_rss_MB / mb).toFixed(1)}x |`);
  const st = c.procs.find((p) => p.name === "profscope stacks (native)");
  const lx = c.procs.find((p) => p.name.startsWith("llvm-xray stack"));
  if (!st || !lx) continue;
  if (name.startsWith("deep"))  // the goal here: the output streams (memory bounded, not growing with the text)
    console.log(`\nnative stacks: peak ${st.peak_rss_MB} MB for ${(c.stacks_bytes / 1048576).toFixed(1)} MB of output (streamed: ${st.peak_rss_MB < c.stacks_bytes / 1048576 ? "met" : "MISSED"}); vs ${lx.name} (CPU): ${(lx.cpu_s / st.cpu_s).toFixed(1)}x faster`);
  else
    console.log(`\nnative stacks vs ${lx.name} (CPU): ${(lx.cpu_s / st.cpu_s).toFixed(1)}x faster (goal >= 5x: ${lx.cpu_s / st.cpu_s >= 5 ? "met" : "MISSED"}); peak ${(st.peak_rss_MB / mb).toFixed(1)}x the log (goal <= 1x: ${st.peak_rss_MB <= mb ? "met" : "MISSED"})`);
}
' "$ROOT/build/bench/xray.json"
