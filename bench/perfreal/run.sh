#!/usr/bin/env bash
# A real 1 GB perf.data (issue 16), called by bench/run.sh; runs alone too:
#   bash bench/perfreal/run.sh
#   BENCH_REAL_MB=1024 BENCH_REAL_PATHS="1 1024" BENCH_REAL_RUNS=3 BENCH_REAL_BROWSER=1 bash bench/perfreal/run.sh
#   bash bench/perfreal/run.sh record       only make the recordings
# 1. builds bench/perfreal/deep.c (a deep recursion, frame pointers, no libc in the hot
#    path) and records it with `perf record -F 20000 -g --max-size=BENCH_REAL_MB M` until
#    the file reaches the size (perf stops the program there), once per BENCH_REAL_PATHS
#    (default "1 1024": one function calling itself, the issue's case; and 1024 paths
#    through three mutually recursive functions, many more distinct callchains); the
#    recordings are kept in build/bench/perfreal/ and reused (never committed);
# 2. times, in one run, as processes (/usr/bin/time: wall, CPU = user+sys, peak RSS;
#    output to /dev/null; medians of BENCH_REAL_RUNS, default 3): profscope native
#    `stacks` and `info`, the WASM CLI under node (`node wasm/cli.mjs stacks`) and
#    `perf report --stdio` (BENCH_REAL_REPORT_RUNS, default 1: it takes a while; 0 skips it), with
#    the load average beside each; checks that native and WASM print the same stacks;
# 3. (BENCH_REAL_BROWSER=1, or `browser` as an argument) opens the recording in headless
#    chromium through the page (e2e/bench-browser.spec.js via bench/browser/run.sh):
#    drop -> flame graph drawn, and the growth of the browser's memory;
# 4. prints the figures against the goals of issue 16 (native >= 20x faster than
#    perf report; WASM <= 1.3x native; page <= 3 s, growth <= 0.5x the file).
# Results: build/bench/perfreal.json (+ build/bench/browser.jsonl for the page).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH_REAL_DIR:-$ROOT/build/bench/perfreal}  # the recordings (another tree's run can share them)
MB=${BENCH_REAL_MB:-1024}
RUNS=${BENCH_REAL_RUNS:-3}
REPORT_RUNS=${BENCH_REAL_REPORT_RUNS:-1}
CLI=${PROFSCOPE_CLI:-$ROOT/build/native/profscope}
WCLI="$ROOT/wasm/cli.mjs"
PERF=${PERF:-perf}
mkdir -p "$B" "$ROOT/build/bench"
log() { printf '[bench/perfreal] %s\n' "$*" >&2; }
command -v "$PERF" >/dev/null || { log "no perf: skipped"; exit 0; }

# 1. the recordings
if [[ ! -x "$B/deep" || "$ROOT/bench/perfreal/deep.c" -nt "$B/deep" ]]; then
  gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread "$ROOT/bench/perfreal/deep.c" -o "$B/deep"
  rm -f "$B"/deep-*.data
fi
PATHS_LIST=${BENCH_REAL_PATHS:-1 1024}
for paths in $PATHS_LIST; do
  DATA="$B/deep-p$paths-${MB}MB.data"
  if [[ ! -f "$DATA" ]]; then
    log "recording $DATA: perf record -F 20000 -g --max-size=${MB}M -- deep 36000 $(nproc) $paths (stops at the size)"
    # perf stops the program with SIGTERM at the size and then ends the same way: not an error.
    (cd "$B" && "$PERF" record -F 20000 -g --max-size="${MB}M" -o "$DATA.tmp" -- ./deep 36000 "$(nproc)" "$paths" \
      >"$DATA.record.stdout" 2>"$DATA.record.stderr") || true
    grep -q 'Captured and wrote' "$DATA.record.stderr" || { cat "$DATA.record.stderr" >&2; exit 1; }
    mv "$DATA.tmp" "$DATA"
  fi
  log "$(basename "$DATA"): $(stat -c %s "$DATA") bytes; $(grep -o 'wrote .*' "$DATA.record.stderr" 2>/dev/null || true)"
done
[[ ${1:-} == record ]] && exit 0

# 2. the processes
[[ -x "$CLI" ]] || { log "no profscope CLI at $CLI (npm run build, or set PROFSCOPE_CLI): skipped"; exit 0; }
load() { cut -d' ' -f1 /proc/loadavg; }
# proc NAME RUNS OUT CMD...: median wall and CPU, max peak RSS of RUNS runs (stdout to OUT),
# with the load average (1 min) before each run
proc() {
  local name=$1 runs=$2 out=$3; shift 3
  local walls=() cpus=() loads=() rss=0 rc=0 tf
  tf=$(mktemp)
  for ((i = 0; i < runs; i++)); do
    loads+=("$(load)")
    local t0; t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S %M' -o "$tf" "$@" >"$out" 2>"$tf.err" && rc=0 || rc=$?
    walls+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')")
    read -r u s m < <(tail -1 "$tf")
    cpus+=("$(awk -v a="$u" -v b="$s" 'BEGIN { printf "%.2f", a + b }')")
    ((m > rss)) && rss=$m
  done
  local err; err=$(grep -v '^Command exited' "$tf.err" | head -c 200 | tr '\n"\\\t' '    ')
  rm -f "$tf" "$tf.err"
  local mid=$(((runs + 1) / 2))
  j() { printf '%s\n' "$@" | paste -sd, -; }
  printf '{"name":"%s","runs":%d,"wall_s":%s,"cpu_s":%s,"walls":[%s],"cpus":[%s],"loads":[%s],"peak_rss_MB":%s,"exit":%d,"stderr":"%s"}' \
    "$name" "$runs" "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")" \
    "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")" "$(j "${walls[@]}")" "$(j "${cpus[@]}")" "$(j "${loads[@]}")" \
    "$(awk -v a="$rss" 'BEGIN { printf "%.1f", a / 1024 }')" "$rc" "$err"
}

out="["
for paths in $PATHS_LIST; do
  DATA="$B/deep-p$paths-${MB}MB.data"
  p="["
  log "$(basename "$DATA"): profscope native stacks / info, WASM CLI stacks ($RUNS runs each)"
  p+="$(proc "profscope stacks (native)" "$RUNS" "$B/stacks.native.txt" "$CLI" stacks "$DATA"),"
  p+="$(proc "profscope info (native)" "$RUNS" /dev/null "$CLI" info "$DATA"),"
  p+="$(proc "profscope stacks (WASM CLI, node)" "$RUNS" "$B/stacks.wasm.txt" node "$WCLI" stacks "$DATA"),"
  if ((REPORT_RUNS > 0)); then
    log "$(basename "$DATA"): perf report --stdio ($REPORT_RUNS runs)"
    p+="$(proc "perf report --stdio" "$REPORT_RUNS" /dev/null "$PERF" report --stdio -i "$DATA"),"
  fi
  same=false
  cmp -s "$B/stacks.native.txt" "$B/stacks.wasm.txt" && same=true
  lines=$(wc -l <"$B/stacks.native.txt")
  samples=$("$CLI" info "$DATA" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).samples))')
  rm -f "$B/stacks.native.txt" "$B/stacks.wasm.txt"
  out+="{\"file\":\"$(basename "$DATA")\",\"paths\":$paths,\"bytes\":$(stat -c %s "$DATA"),\"samples\":$samples,\"stack_lines\":$lines,\"native_equals_wasm\":$same,\"nproc\":$(nproc),\"procs\":${p%,}]},"
done
echo "${out%,}]" >"$ROOT/build/bench/perfreal.json"

# 3. the page (opt-in: it builds the site and runs chromium), on the first recording
if [[ -n "${BENCH_REAL_BROWSER:-}" || ${1:-} == browser ]]; then
  for paths in $PATHS_LIST; do
    BENCH_BROWSER_FILE="$B/deep-p$paths-${MB}MB.data" BENCH_BROWSER_MB=$MB BENCH_BROWSER_RUNS=${BENCH_REAL_BROWSER_RUNS:-3} \
      BENCH_KEEP=1 bash "$ROOT/bench/browser/run.sh" || log "the browser step failed (see above)"
  done
fi

# 4. against the goals
node - "$ROOT/build/bench/perfreal.json" "$ROOT/build/bench/browser.jsonl" <<'EOF'
const fs = require('fs');
const all = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let browser = [];
try { browser = fs.readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)); } catch {}
const met = (ok) => (ok ? 'met' : 'MISSED');
for (const r of all) {
  const mb = r.bytes / 1048576;
  const by = (n) => r.procs.find((p) => p.name === n);
  console.log(`\n| ${r.file} (deep ... ${r.paths}): ${mb.toFixed(0)} MB, ${r.samples} samples, ${r.stack_lines} folded lines; native = WASM: ${r.native_equals_wasm} | wall s (median) | CPU s (median) | peak RSS MB | load avg (per run) |`);
  console.log('|---|---|---|---|---|');
  for (const p of r.procs)
    console.log(`| ${p.name}${p.exit ? ' (exit ' + p.exit + ')' : ''} | ${p.wall_s} | ${p.cpu_s} | ${p.peak_rss_MB} | ${p.loads.join(', ')} |`);
  const st = by('profscope stacks (native)'), w = by('profscope stacks (WASM CLI, node)'), rep = by('perf report --stdio');
  if (rep) console.log(`\nnative stacks vs perf report --stdio: ${(rep.wall_s / st.wall_s).toFixed(1)}x on wall, ${(rep.cpu_s / st.cpu_s).toFixed(1)}x on CPU (goal >= 20x: ${met(rep.cpu_s / st.cpu_s >= 20)} on CPU, ${met(rep.wall_s / st.wall_s >= 20)} on wall)`);
  console.log(`WASM CLI vs native stacks: ${(w.wall_s / st.wall_s).toFixed(2)}x on wall, ${(w.cpu_s / st.cpu_s).toFixed(2)}x on CPU (goal <= 1.3x: ${met(w.cpu_s / st.cpu_s <= 1.3)} on CPU, ${met(w.wall_s / st.wall_s <= 1.3)} on wall)`);
  for (const b of browser.filter((x) => x.file === r.file)) {
    const t = b.t?.flame, g = b.browserMemory;
    console.log(`page: drop -> flame graph drawn ${t == null ? '-' : (t / 1000).toFixed(2) + ' s'} (goal <= 3 s: ${met(t != null && t <= 3000)}); ` +
      (g ? `browser memory (PSS of chromium's processes) grew ${(g.peakGrowth / r.bytes).toFixed(2)}x the file at its peak, ${(g.endGrowth / r.bytes).toFixed(2)}x once drawn, ${((g.settledGrowth ?? NaN) / r.bytes).toFixed(2)}x 3 s later (goal <= 0.5x: ${met(g.peakGrowth <= 0.5 * r.bytes)})` : 'browser memory not measured') +
      (b.worker ? `; in the worker: decode ${(b.worker.decodeMs / 1000).toFixed(2)} s, of which reading the file ${(b.worker.readMs / 1000).toFixed(2)} s, then ${(b.worker.afterMs / 1000).toFixed(2)} s` : '') +
      (b.load ? `; load ${b.load}` : ''));
  }
}
EOF
