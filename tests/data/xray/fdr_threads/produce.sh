#!/bin/bash
# xray case 'fdr_threads' (generated): FDR mode (log version 5), three threads started together,
# several small buffers per thread (buffer_size=256), XRay custom events, func_duration_threshold_us=0.
# Needs clang-14 with compiler-rt's XRay runtime and llvm-xray-14 (Debian 12: clang-14, llvm-14).
# Builds and records in a temporary directory, then copies the inputs and references here.
# The recording differs at every run (thread ids, TSCs); the references always match their log.
# MODE=xray-basic CASE=basic_threads is the basic-mode twin (../basic_threads/produce.sh).
set -eu
D=${CASE_DIR:-$(dirname "$(readlink -f "$0")")}
MODE=${MODE:-xray-fdr}
INIT=${INIT:-func_duration_threshold_us=0:buffer_size=256}
R=$(mktemp -d)
cd "$R"
cp "$D/threads.cpp" .
clang++-14 -O1 -fxray-instrument -fxray-instruction-threshold=1 -pthread threads.cpp -o xray_threads
# main() selects the mode and initialises/flushes the log itself (LLVM 14 writes no FDR log
# from XRAY_OPTIONS alone); XRAY_INIT is the mode's configuration string.
XRAY_OPTIONS="patch_premain=false verbosity=1 xray_logfile_base=xray-log." \
XRAY_INIT="$INIT" ./xray_threads "$MODE" 2> run.stderr
mv xray-log.* xray.log
X=llvm-xray-14
$X extract ./xray_threads > instrmap.yaml
$X convert -f yaml xray.log > convert_yaml.txt
$X convert -f yaml -symbolize -instr_map=./xray_threads xray.log > convert_yaml_symbolized.txt
[ "$MODE" = xray-fdr ] && $X fdr-dump xray.log > fdr_dump.txt
$X stack -all-stacks -stack-format=flame -instr_map=./xray_threads xray.log > stack_flame.txt
$X stack -all-stacks -stack-format=flame -aggregation-type=count -instr_map=./xray_threads xray.log > stack_flame_count.txt
# llvm-xray-14 account stops at the first record of a second thread here ("empty stack": every
# record has cpu 0 under the emulated TSC); -keep-going is what it can report.
$X account -instr_map=./xray_threads xray.log > account.txt 2> account.stderr || {
  rm -f account.txt
  $X account -keep-going -instr_map=./xray_threads xray.log > account_keep_going.txt 2> account.stderr || true
}
rm -f threads.cpp account.stderr
find "$D" -mindepth 1 -maxdepth 1 ! -name produce.sh ! -name threads.cpp ! -name meta.json -exec rm -rf {} +
cp -a "$R"/. "$D"/
rm -rf "$R"
