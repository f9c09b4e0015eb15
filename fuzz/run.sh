#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan + UBSan) into build/fuzz and runs
# each one for a bounded time, seeded from the real test files in tests/data.
#   bash fuzz/run.sh                 # every target, FUZZ_SECONDS (default 60) each
#   FUZZ_SECONDS=600 bash fuzz/run.sh perf_fuzz
# First every input in fuzz/regressions/<target>/ is replayed (each once crashed).
# A new crash leaves its input in build/fuzz/artifacts/<target>/; copy it to
# fuzz/regressions/<target>/ once fixed (tests/unit/fuzz_regressions_test.cc
# replays that directory in the normal GoogleTest run too).
# FUZZ_INPUT_TIMEOUT (default 120 s): one input slower than this is a failure
# (generous: the ASan build on a loaded 2-core machine takes 30 s wall for a seed
# that needs 0.7 s of CPU).
# Writes build/test-results/fuzz.json: {"passed":N,"failed":N,"targets":[...]}
# (scripts/test-all.mjs adds those counts to the totals). Exit 1 on any failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/build/fuzz"
SECONDS_EACH=${FUZZ_SECONDS:-60}
MAX_LEN=${FUZZ_MAX_LEN:-65536}
OUT="$ROOT/build/test-results"
mkdir -p "$B" "$OUT"
log() { printf '[fuzz] %s\n' "$*" >&2; }

CXX=${FUZZ_CXX:-clang++-14}
CC=${FUZZ_CC:-clang-14}
if ! command -v "$CXX" >/dev/null; then
  log "$CXX not found (apt-get install clang-14)"; echo '{"passed":0,"failed":1,"error":"no clang"}' > "$OUT/fuzz.json"; exit 1
fi
if [[ ! -f "$B/build.ninja" ]]; then
  cmake -S "$ROOT/fuzz" -B "$B" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_COMPILER="$CC" >/dev/null || {
    echo '{"passed":0,"failed":1,"error":"configure failed"}' > "$OUT/fuzz.json"; exit 1; }
fi
if ! ninja -C "$B" >"$B/build.log" 2>&1; then
  tail -30 "$B/build.log" >&2
  echo '{"passed":0,"failed":1,"error":"build failed"}' > "$OUT/fuzz.json"; exit 1
fi

# libtraceevent's own parse-error leaks are suppressed (fuzz/lsan.supp says which and why).
export LSAN_OPTIONS="suppressions=$ROOT/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for s in "$ROOT"/fuzz/*_fuzz.cc; do targets+=("$(basename "$s" .cc)"); done
fi

# Seeds: the binary files of the target's formats in tests/data (plus fuzz/seeds/<target>/ if present).
seed_dirs() {
  case "$1" in
    perf_fuzz) echo perf perf_dir simpleperf ;;
    unwind_fuzz) ;;  # fuzz/seeds/unwind_fuzz only (CFI + stacks, see make_unwind_seeds.py)
    archive_fuzz|symbols_fuzz|dwarf_fuzz) echo perf ;;
    jit_unwind_fuzz) echo jitdump ;;  # the dumps (their UNWINDING_INFO records)  # (dwarf_fuzz: the programs' ELF files, and fuzz/seeds/dwarf_fuzz)
    *) echo "${1%_fuzz}" ;;
  esac
}
seed_files() {
  local d
  for d in $(seed_dirs "$1"); do
    [[ -d "$ROOT/tests/data/$d" ]] || continue
    find "$ROOT/tests/data/$d" -type f -size +0 -size -2M \
      ! -regex '.*\.\(txt\|md\|json\|stderr\|rc\|gz\|sh\|pb_text\|yaml\|yml\|string\|foldedstack\|folded\)' \
      ! -name calltree ! -name '*_calltree' ! -name calltree_prof
  done
  [[ -d "$ROOT/fuzz/seeds/$1" ]] && find "$ROOT/fuzz/seeds/$1" -type f
  return 0
}

passed=0; failed=0; json_targets=()
for t in "${targets[@]}"; do
  bin="$B/$t"
  [[ -x "$bin" ]] || { log "$t: not built"; failed=$((failed+1)); json_targets+=("{\"target\":\"$t\",\"ok\":false,\"why\":\"not built\"}"); continue; }
  # 1. regressions: every kept input must run clean
  reg="$ROOT/fuzz/regressions/$t"
  if [[ -d "$reg" ]] && compgen -G "$reg/*" >/dev/null; then
    if "$bin" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=${FUZZ_INPUT_TIMEOUT:-120} "$reg"/* >"$B/$t.regressions.log" 2>&1; then
      passed=$((passed+1)); log "$t: regressions ok ($(ls "$reg" | wc -l) inputs)"
      json_targets+=("{\"target\":\"$t regressions\",\"ok\":true}")
    else
      failed=$((failed+1)); log "$t: a regression input fails again:"; grep -E 'ERROR|runtime error|SUMMARY|Running' "$B/$t.regressions.log" | tail -8 >&2
      json_targets+=("{\"target\":\"$t regressions\",\"ok\":false}")
    fi
  fi
  # 2. bounded fuzzing from the seeds (the corpus in build/fuzz/corpus/<t> grows across runs)
  seeds="$B/seeds/$t"; corpus="$B/corpus/$t"; art="$B/artifacts/$t"
  rm -rf "$seeds"; mkdir -p "$seeds" "$corpus" "$art"
  while IFS= read -r f; do cp "$f" "$seeds/$(echo "${f#$ROOT/}" | tr '/' '_')"; done < <(seed_files "$t")
  before=$(ls "$art" | grep -cE "^(crash|leak|timeout|oom)-")
  log "$t: fuzzing ${SECONDS_EACH}s (max_len $MAX_LEN, $(ls "$seeds" | wc -l) seeds)"
  "$bin" -max_total_time="$SECONDS_EACH" -max_len="$MAX_LEN" -timeout=${FUZZ_INPUT_TIMEOUT:-120} -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$art/" "$corpus" "$seeds" \
    >"$B/$t.log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$B/$t.log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$B/$t.log" | tail -1 | grep -o '[0-9]*')
  after=$(ls "$art" | grep -cE "^(crash|leak|timeout|oom)-")
  if [[ $rc -eq 0 && $after -eq $before ]]; then
    passed=$((passed+1)); log "$t: ok, ${execs:-?} inputs, coverage ${cov:-?} edges"
    json_targets+=("{\"target\":\"$t\",\"ok\":true,\"execs\":${execs:-0},\"cov\":${cov:-0}}")
  else
    failed=$((failed+1)); log "$t: FAILED (exit $rc); input kept in $art:"
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$B/$t.log" | head -8 >&2
    json_targets+=("{\"target\":\"$t\",\"ok\":false,\"execs\":${execs:-0}}")
  fi
done
(IFS=,; echo "{\"passed\":$passed,\"failed\":$failed,\"targets\":[${json_targets[*]}]}") > "$OUT/fuzz.json"
log "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
