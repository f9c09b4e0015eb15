#!/usr/bin/env bash
# Browser figures (opt-in last step of bench/run.sh: BENCH_BROWSER=1). Builds the site
# (npx vite build web -> web/dist, which the Playwright config serves) and runs
# e2e/bench-browser.spec.js in headless chromium on a perf.data of BENCH_BROWSER_MB
# (default 100; several sizes: BENCH_BROWSER_MB="100 1024"), written by build/bench/perfgen.
# Files over 1 GB are deleted afterwards unless BENCH_KEEP=1. BENCH_BROWSER_FILE names another
# file to open instead (a real recording: bench/perfreal/run.sh); BENCH_BROWSER_RUNS repeats
# the test (each run a fresh page in the same browser).
#   BENCH_BROWSER_MB=100 bash bench/browser/run.sh
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B="$ROOT/build/bench"
SEED=${BENCH_SEED:-42}
PORT=${PROFSCOPE_E2E_PORT:-4197}
OUT=${PROFSCOPE_E2E_OUT:-/tmp/profscope-bench-browser}
mkdir -p "$B"
cd "$ROOT"
[[ -x "$B/perfgen" ]] || g++ -O2 -std=c++20 "$ROOT/bench/gen/perfgen.cc" -o "$B/perfgen"
npx --no-install vite build web >&2 || { echo "[bench/browser] vite build failed" >&2; exit 1; }
status=0
for mb in ${BENCH_BROWSER_MB:-100}; do
  f=${BENCH_BROWSER_FILE:-$B/browser-${mb}MB-s$SEED.data}
  [[ -f "$f" ]] || nice -n 10 "$B/perfgen" "$f" "$mb" "$SEED" >&2
  tag=$(basename "$f" .data)
  echo "[bench/browser] $f ($mb MB)" >&2
  PROFSCOPE_BENCH_BROWSER=1 BENCH_BROWSER_MB=$mb BENCH_BROWSER_FILE="$f" PROFSCOPE_E2E_PORT=$PORT PROFSCOPE_E2E_OUT=$OUT \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/bench-browser-$tag.json" \
    npx --no-install playwright test -c e2e/playwright.config.js e2e/bench-browser.spec.js --workers=1 --reporter=list \
    --repeat-each="${BENCH_BROWSER_RUNS:-1}" | tee "$B/browser-$tag.txt" || status=1
  if [[ -z "${BENCH_KEEP:-}" && -z "${BENCH_BROWSER_FILE:-}" && $(stat -c %s "$f") -ge $((1 << 30)) ]]; then rm -f "$f"; fi
done
grep -h '^BENCH_JSON' "$B"/browser-*.txt 2>/dev/null | sed 's/^BENCH_JSON //' > "$B/browser.jsonl" || true
exit $status
