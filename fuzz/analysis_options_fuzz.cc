// libFuzzer target of the analysis options' JSON form (core/api/analysis_options_json.h):
// the text comes from the page, whose URL a person can edit. Seeded from
// fuzz/seeds/analysis_options_fuzz/. Built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/api/analysis_options_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  profscope::AnalysisOptions o;
  std::string error;
  bool ok = profscope::ParseAnalysisOptions(text, uint64_t{1} << 60, &o, &error);
  // a refusal always says why; an acceptance says nothing
  if (ok == error.empty()) return 0;
  __builtin_trap();
}
