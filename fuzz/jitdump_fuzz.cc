// libFuzzer target seeded with jit-PID.dump files (tests/data/jitdump).
// Built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#include "fuzz/session_driver.h"
