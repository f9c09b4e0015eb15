#!/usr/bin/env bash
# The benchmark (not part of npm run test):  npm run bench   (= bash bench/run.sh)
#   BENCH_MB=256 BENCH_RUNS=5 bash bench/run.sh
# 1. builds bench/gen/perfgen.cc and bench/decode_bench.cc (-O2) into build/bench
# 2. writes a seeded perf.data (file mode) and a pipe-mode one, BENCH_MB each
# 3. measures, on the same files in the same run: profscope native decode (+ memcpy
#    ceiling, peak RSS), profscope WASM under node, `perf report --stdio` and
#    `perf script` (wall time, output to /dev/null), and prints the ratios.
# Results: build/bench/results.json and a Markdown table on stdout (pasted into
# docs/PERFORMANCE.md by hand).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/build/bench"
MB=${BENCH_MB:-128}
RUNS=${BENCH_RUNS:-5}
PERF_RUNS=${BENCH_PERF_RUNS:-3}
SEED=${BENCH_SEED:-42}
mkdir -p "$B"
log() { printf '[bench] %s\n' "$*" >&2; }

CORE=$(find "$ROOT/core" -name '*.cc' | sort)
if [[ ! -x "$B/decode_bench" || -n "$(find "$ROOT/core" "$ROOT/bench" -newer "$B/decode_bench" -name '*.[ch]*' | head -1)" ]]; then
  log "building decode_bench (-O2)"
  g++ -O2 -DNDEBUG -std=c++20 -DPROFSCOPE_HAVE_ZSTD=1 -I"$ROOT" $CORE "$ROOT/bench/decode_bench.cc" -o "$B/decode_bench" -lzstd
fi
g++ -O2 -std=c++20 "$ROOT/bench/gen/perfgen.cc" -o "$B/perfgen"
[[ -f "$ROOT/build/wasm/profscope_wasm.wasm" ]] || bash "$ROOT/scripts/build.sh" wasm

FILE="$B/bench-${MB}MB-s$SEED.data"; PIPE="$B/bench-${MB}MB-s$SEED.pipe"
[[ -f "$FILE" ]] || "$B/perfgen" "$FILE" "$MB" "$SEED" >&2
[[ -f "$PIPE" ]] || "$B/perfgen" "$PIPE" "$MB" "$((SEED + 1))" pipe >&2

median_time() {  # median wall seconds of PERF_RUNS runs of "$@"
  local ts=()
  for ((i = 0; i < PERF_RUNS; i++)); do
    local t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    ts+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')")  # leading 0: valid JSON
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((PERF_RUNS + 1) / 2))p"
}

results="["
for f in "$FILE" "$PIPE"; do
  log "$(basename "$f"): native"
  native=$("$B/decode_bench" "$f" "$RUNS")
  log "$(basename "$f"): wasm (node)"
  wasm=$(node "$ROOT/bench/wasm_bench.mjs" "$f" "$RUNS")
  log "$(basename "$f"): perf report --stdio, perf script ($PERF_RUNS runs each)"
  if [[ $f == *.pipe ]]; then
    report=$(median_time bash -c "perf report --stdio -i - < '$f'")
    script=$(median_time bash -c "perf script -i - < '$f'")
  else
    report=$(median_time perf report --stdio -i "$f")
    script=$(median_time perf script -i "$f")
  fi
  results+="{\"native\":$native,\"wasm\":$wasm,\"perf_report_s\":$report,\"perf_script_s\":$script},"
done
results="${results%,}]"
echo "$results" > "$B/results.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const f = (x, d = 1) => Number(x).toFixed(d);
console.log(`\n| file | MB | records | samples | native decode | native MB/s | records/s | memcpy MB/s | peak RSS (MB) | WASM decode | WASM/native | WASM heap (MB) | perf report --stdio | ×faster | perf script | ×faster |`);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|`);
for (const x of r) {
  const n = x.native, w = x.wasm;
  console.log(`| ${n.file.split("/").pop()} | ${f(n.bytes / 1048576, 0)} | ${n.records} | ${n.samples} | ${f(n.decode_s, 3)} s | ${f(n.decode_MBps, 0)} | ${f(n.decode_records_per_s / 1e6, 2)} M | ${f(n.memcpy_MBps, 0)} | ${f(n.peak_rss_MB, 0)} (file ${f(n.bytes / 1048576, 0)}) | ${f(w.decode_s, 3)} s | ${f(w.decode_s / n.decode_s, 2)}× | ${w.wasm_heap_MB} | ${f(x.perf_report_s, 2)} s | ${f(x.perf_report_s / n.decode_s, 1)}× | ${f(x.perf_script_s, 2)} s | ${f(x.perf_script_s / n.decode_s, 1)}× |`);
}' "$B/results.json"

# Re-aggregation (the call the worker makes after each filter / range / transform change):
# CallTreeBuilder::Build over a synthetic profile of BENCH_AGG_SAMPLES samples, native and WASM.
AGG=${BENCH_AGG_SAMPLES:-5000000}
log "re-aggregation of $AGG samples (bench/analysis/analysis_bench.cc): native"
AGG_SRC=("$ROOT/core/analysis/call_tree.cc" "$ROOT/core/model/profile.cc" "$ROOT/bench/analysis/analysis_bench.cc")
g++ -O2 -DNDEBUG -std=c++20 -I"$ROOT" "${AGG_SRC[@]}" -o "$B/analysis_bench"
agg_native=$("$B/analysis_bench" "$AGG" "$RUNS")
log "re-aggregation: WASM (em++ -O2, node)"
NODE_PATH=/usr/share/nodejs em++ -O2 -DNDEBUG -std=c++20 -I"$ROOT" "${AGG_SRC[@]}" -sALLOW_MEMORY_GROWTH=1 \
  -sMAXIMUM_MEMORY=4GB -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -o "$B/analysis_bench.cjs"
agg_wasm=$(node "$B/analysis_bench.cjs" "$AGG" "$RUNS")
echo "{\"native\":$agg_native,\"wasm\":$agg_wasm}" > "$B/aggregation.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
console.log(`\n| re-aggregation of ${r.native.samples} samples (${r.native.stacks} stacks) | native ms | WASM ms | target |`);
console.log(`|---|---|---|---|`);
for (const k of ["all", "range_half", "one_thread", "merge_function", "inverted"])
  console.log(`| ${k} | ${r.native[k].median_ms} | ${r.wasm[k].median_ms} | ${k === "range_half" ? (r.wasm[k].median_ms < 200 ? "< 200 ms: met" : "< 200 ms: MISSED by " + (r.wasm[k].median_ms - 200).toFixed(0) + " ms") : ""} |`);
' "$B/aggregation.json"

# Other formats (bench/formats/run.sh): seeded XRay FDR / jitdump / gperftools files
# (bench/gen/{xraygen,jitgen,gperfgen}.cc), profscope native + WASM decode, and
# `llvm-xray account` / `llvm-xray stack` and `google-pprof --raw` / `--text` on the
# same files. Sizes: BENCH_XRAY_MB (64), BENCH_JIT_MB (32), BENCH_GPERF_MB (32).
bash "$ROOT/bench/formats/run.sh"

# XRay at scale (bench/xray/run.sh): real FDR logs recorded with clang-14's XRay runtime
# (~200 MB of calls, BENCH_XRAY_CALLS; a BENCH_XRAY_DEEP-deep recursion), profscope native and
# WASM CLI against `llvm-xray stack`, wall, CPU and peak memory against the log's size.
bash "$ROOT/bench/xray/run.sh"

# A real 1 GB perf.data (bench/perfreal/run.sh, issue 16): `perf record -F 20000 -g` of a deep
# recursion (BENCH_REAL_MB, default 1024), profscope native and WASM CLI against `perf report
# --stdio`, wall, CPU and peak memory, the load average beside each; with BENCH_BROWSER=1 also the
# page: drop -> flame graph drawn and the browser's memory growth.
BENCH_REAL_BROWSER=${BENCH_BROWSER:-} bash "$ROOT/bench/perfreal/run.sh"

# DWARF unwinding (bench/unwind/run.sh): samples unwound per second, native and WASM, on the
# --call-graph dwarf cases of tests/data/perf and on a bigger recording made once with perf
# record, against `perf script` on the same files.
bash "$ROOT/bench/unwind/run.sh"

# Browser figures (opt-in, BENCH_BROWSER=1): a perf.data of BENCH_BROWSER_MB (100)
# opened through the page's file input in headless chromium (e2e/bench-browser.spec.js):
# drop-to-first-hex-paint, drop-to-summary, drop-to-flame-graph, WASM heap.
if [[ -n "${BENCH_BROWSER:-}" ]]; then
  bash "$ROOT/bench/browser/run.sh"
fi
