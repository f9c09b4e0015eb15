// libFuzzer target seeded with gperftools CPU profiles (tests/data/gperf).
// Built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#include "fuzz/session_driver.h"
