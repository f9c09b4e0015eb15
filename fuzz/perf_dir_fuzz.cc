// libFuzzer target for perf record --threads recordings: one input holds the main file and its data.N
// files, each but the last prefixed by its length (u32, little-endian); the rest is the last file (at
// most 8 files). The data files are read in turns (PerfTokenizer::DataFiles), paused, resumed and
// stopped inside a turn. Seeded with fuzz/seeds/perf_dir_fuzz (tests/data/perf_dir's recordings so
// framed, made by fuzz/make_dir_seeds.sh) and the single files of tests/data/perf_dir.
// Built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#define PROFSCOPE_FUZZ_OWN_INPUT
#include <memory>
#include <vector>

#include "fuzz/session_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::unique_ptr<profscope::MemorySource>> files;
  size_t at = 0;
  while (files.size() < 7 && size - at >= 4) {
    const uint32_t n = static_cast<uint32_t>(data[at]) | static_cast<uint32_t>(data[at + 1]) << 8 |
                       static_cast<uint32_t>(data[at + 2]) << 16 | static_cast<uint32_t>(data[at + 3]) << 24;
    if (n > size - at - 4) break;
    files.push_back(std::make_unique<profscope::MemorySource>(data + at + 4, n));
    at += 4 + n;
  }
  files.push_back(std::make_unique<profscope::MemorySource>(data + at, size - at));
  profscope::Session s(*files[0], "perf.data/data");
  for (size_t k = 1; k < files.size(); ++k) s.AddDataFile(*files[k], "data." + std::to_string(k - 1));
  DriveSession(s, size ? data[size - 1] : 0);  // (the last byte chooses the steps)
  return 0;
}
