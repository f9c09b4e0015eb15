// libFuzzer target seeded with perf.data and simpleperf files (tests/data/perf, perf_dir, simpleperf).
// Built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#include "fuzz/session_driver.h"
