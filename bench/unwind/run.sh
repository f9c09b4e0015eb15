#!/usr/bin/env bash
# The DWARF unwinding benchmark (called at the end of bench/run.sh; runs alone too):
#   bash bench/unwind/run.sh
#   BENCH_RUNS=5 BENCH_PERF_RUNS=3 BENCH_UNWIND_SECONDS=2 bash bench/unwind/run.sh
# 1. builds bench/unwind/unwind_bench.cc with the core, natively (g++ -O2) and as
#    WebAssembly for node (em++ -O2, NODERAWFS: it reads the recordings and
#    binaries from disk) into build/bench;
# 2. records, once, a bigger `--call-graph dwarf` profile in build/bench/unwind-big
#    (tests/data/perf/dwarf_cpp_nofp's program for BENCH_UNWIND_SECONDS of CPU at
#    4 kHz; needs perf record, i.e. root or perf_event_paranoid <= 1);
# 3. on each dwarf case of tests/data/perf and on that recording: samples unwound
#    per second natively and in WASM (medians of BENCH_RUNS; the decode around it
#    is reported too), against `perf script -F ip` and `perf script` (median wall of
#    BENCH_PERF_RUNS runs, output to /dev/null; perf finds the programs at their
#    recorded paths under /opt/demo/run, which the cases' produce.sh made).
# Results: build/bench/unwind.json and a Markdown table on stdout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/build/bench"
RUNS=${BENCH_RUNS:-5}
PERF_RUNS=${BENCH_PERF_RUNS:-3}
SECONDS_CPU=${BENCH_UNWIND_SECONDS:-2}
mkdir -p "$B"
log() { printf '[bench/unwind] %s\n' "$*" >&2; }

CORE=$(find "$ROOT/core" -name '*.cc' | sort)
if [[ ! -x "$B/unwind_bench" || -n "$(find "$ROOT/core" "$ROOT/bench/unwind" "$ROOT/tests/corpus/unwind_driver.h" -newer "$B/unwind_bench" -name '*.[ch]*' | head -1)" ]]; then
  log "building unwind_bench (g++ -O2)"
  g++ -O2 -DNDEBUG -std=c++20 -DPROFSCOPE_HAVE_ZSTD=1 -DPROFSCOPE_HAVE_ZLIB=1 -DPROFSCOPE_SOURCE_DIR="\"$ROOT\"" -I"$ROOT" \
    $CORE "$ROOT/bench/unwind/unwind_bench.cc" -o "$B/unwind_bench" -lzstd -lz
fi
if [[ ! -f "$B/unwind_bench.cjs" || "$B/unwind_bench" -nt "$B/unwind_bench.cjs" ]]; then
  log "building unwind_bench.cjs (em++ -O2)"
  bash "$ROOT/scripts/build-wasm-deps.sh" zstd zlib >&2
  # protozero (header-only) without the rest of /usr/include, as CMakeLists.txt does
  mkdir -p "$B/protozero-include" && ln -sfn /usr/include/protozero "$B/protozero-include/protozero"
  NODE_PATH=/usr/share/nodejs em++ -O2 -DNDEBUG -std=c++20 -DPROFSCOPE_HAVE_ZSTD=1 -DPROFSCOPE_HAVE_ZLIB=1 \
    -DPROFSCOPE_SOURCE_DIR="\"$ROOT\"" -I"$ROOT" -I"$ROOT/build/zstd-wasm/include" -I"$ROOT/build/zlib-wasm/include" \
    -isystem "$B/protozero-include" $CORE "$ROOT/bench/unwind/unwind_bench.cc" "$ROOT/build/zstd-wasm/lib/libzstd.a" "$ROOT/build/zlib-wasm/lib/libz.a" \
    -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 \
    -o "$B/unwind_bench.cjs"
fi

BIG="$B/unwind-big"
if [[ ! -f "$BIG/perf.data" ]]; then
  log "recording $BIG/perf.data (cpp_nofp, ${SECONDS_CPU}s of CPU at 4 kHz, --call-graph dwarf)"
  mkdir -p "$BIG"
  g++ -O2 -fomit-frame-pointer -g -o "$BIG/cpp_nofp" "$ROOT/tests/data/perf/dwarf_cpp_nofp/cpp_nofp.cpp"
  rounds=$((SECONDS_CPU * 14))
  (cd "$BIG" && perf record -F 4000 --call-graph dwarf -o perf.data ./cpp_nofp "$rounds" > /dev/null 2> record.stderr) || {
    log "perf record failed (root or perf_event_paranoid <= 1 needed): the bigger recording is skipped"; rm -rf "$BIG"; }
fi

median_time() {  # median wall seconds of PERF_RUNS runs of "$@"
  local ts=()
  for ((i = 0; i < PERF_RUNS; i++)); do
    local t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    ts+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((PERF_RUNS + 1) / 2))p"
}

results="["
dirs=()
for d in "$ROOT"/tests/data/perf/dwarf_*/; do dirs+=("${d%/}"); done
[[ -f "$BIG/perf.data" ]] && dirs+=("$BIG")
for d in "${dirs[@]}"; do
  input="$d/perf.data"; [[ -f "$input" ]] || input="$d/pipe.data"
  log "$(basename "$d"): native"
  native=$("$B/unwind_bench" "$d" "$RUNS")
  log "$(basename "$d"): wasm (node)"
  wasm=$(node "$B/unwind_bench.cjs" "$d" "$RUNS")
  log "$(basename "$d"): perf script -F ip, perf script ($PERF_RUNS runs each)"
  ip=$(median_time perf script -F ip -i "$input")
  full=$(median_time perf script -i "$input")
  results+="{\"case\":\"$(basename "$d")\",\"native\":$native,\"wasm\":$wasm,\"perf_script_ip_s\":$ip,\"perf_script_s\":$full},"
done
results="${results%,}]"
echo "$results" > "$B/unwind.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const f = (x, d = 1) => Number(x).toFixed(d);
console.log(`\n| recording | samples | frames | native unwind | native samples/s | WASM unwind | WASM samples/s | native decode+unwind | WASM decode+unwind | perf script -F ip | perf script | ×faster than perf script -F ip (native / WASM, decode+unwind) |`);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|`);
for (const x of r) {
  const n = x.native, w = x.wasm;
  console.log(`| ${x.case} | ${n.samples} | ${n.frames} | ${f(n.unwind_s * 1000, 1)} ms | ${f(n.samples_per_s / 1000, 0)} k | ${f(w.unwind_s * 1000, 1)} ms | ${f(w.samples_per_s / 1000, 0)} k | ${f(n.total_s * 1000, 0)} ms | ${f(w.total_s * 1000, 0)} ms | ${f(x.perf_script_ip_s, 2)} s | ${f(x.perf_script_s, 2)} s | ${f(x.perf_script_ip_s / n.total_s, 0)}× / ${f(x.perf_script_ip_s / w.total_s, 0)}× |`);
}' "$B/unwind.json"
