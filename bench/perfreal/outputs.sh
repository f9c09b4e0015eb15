#!/usr/bin/env bash
# The outputs of a profscope CLI on every perf.data of the corpus, to prove that a
# change to the perf decoding path keeps them byte for byte:
#   bash bench/perfreal/outputs.sh CLI OUTDIR      (CLI: build/native/profscope, or "wasm")
#   diff -r OUTDIR_BEFORE OUTDIR_AFTER
# Each perf.data / pipe-mode file (found by its PERFILE2 magic) under tests/data and
# ../shared/corpus, and the perf --threads directory, through `stacks`, `stacks
# --addresses`, `script` and `info`, each: alone; with its case folder as a side folder
# (--symbols DIR: binaries, perf archive tarballs, vmlinux, modules); with this machine's
# libc and ld.so and the case's tarball (the archive cases); with its jit dumps (--jitdump).
# Each output file holds the exit status, stdout and stderr.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=${1:?CLI}
OUT=${2:?OUTDIR}
mkdir -p "$OUT"
run() {  # NAME ARGS...
  local name=$1; shift
  if [[ $CLI == wasm ]]; then node "$ROOT/wasm/cli.mjs" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  else "$CLI" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; fi
  echo "exit $?" >>"$OUT/$name.err"
}
cases=()
for dir in "$ROOT/tests/data" "$ROOT/../shared/corpus"; do
  [[ -d $dir ]] || continue
  while IFS= read -r f; do
    case "$(head -c 8 "$f" | tr -d '\0')" in PERFILE2 | 2ELIFREP) cases+=("$f") ;; esac
  done < <(find "$dir" -type f -size +15c \( -path '*perf*' -o -path '*jitdump*' \) | sort)
done
[[ -d $ROOT/tests/data/perf_dir/threads_dir/perf.data ]] && cases+=("$ROOT/tests/data/perf_dir/threads_dir/perf.data")
LIBC=/lib/x86_64-linux-gnu/libc.so.6 LDSO=/lib64/ld-linux-x86-64.so.2
n=0
for f in "${cases[@]}"; do
  [[ -d $f ]] && case_dir=$(dirname "$f") || case_dir=$(dirname "$f")
  key=$(realpath --relative-to="$ROOT/.." "$f" | tr '/' '_')
  variants=("plain")
  variants+=("folder")
  [[ -f $case_dir/perf.data.tar.bz2 ]] && variants+=("archive")
  compgen -G "$case_dir/jit-*.dump" >/dev/null && variants+=("jit")
  for v in "${variants[@]}"; do
    side=()
    case $v in
      folder) side=(--symbols "$case_dir") ;;
      archive) side=(--symbols "$case_dir/perf.data.tar.bz2" --symbols "$LIBC" --symbols "$LDSO") ;;
      jit) for j in "$case_dir"/jit-*.dump; do side+=(--jitdump "$j"); done ;;
    esac
    run "$key.$v.stacks" stacks "$f" "${side[@]}"
    run "$key.$v.stacks-addresses" stacks "$f" --addresses "${side[@]}"
    run "$key.$v.script" script "$f" "${side[@]}"
    run "$key.$v.info" info "$f" "${side[@]}"
    n=$((n + 4))
  done
done
echo "$n outputs of ${#cases[@]} inputs in $OUT" >&2
