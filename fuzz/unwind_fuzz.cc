// libFuzzer target for core/unwind (see fuzz/unwind_fuzz_input.h for the input
// layout). Built and run by fuzz/run.sh (clang-14, ASan + UBSan), seeded with
// fuzz/seeds/unwind_fuzz/ (fuzz/make_unwind_seeds.py).
#include "fuzz/unwind_fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return profscope::fuzz::RunUnwindInput(data, size);
}
