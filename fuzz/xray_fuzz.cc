// libFuzzer target seeded with XRay FDR/basic logs (tests/data/xray).
// Built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#include "fuzz/session_driver.h"
