// The same diagnostic repeated is one item with a count and its first and last
// offsets; diagnostics that differ in what they name stay apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/diag/diagnostics.h"

namespace profscope {
namespace {

// The messages, each added at offsets 10, 20, ..., as items: text x count.
std::vector<std::string> Merged(DiagCode code, const std::vector<std::string>& messages) {
  Diagnostics d;
  uint64_t at = 0;
  for (const auto& m : messages) d.Warning(code, at += 10, 0, m);
  std::vector<std::string> out;
  for (const auto& x : d.items()) out.push_back(x.message + " x" + std::to_string(x.count));
  return out;
}

TEST(Diagnostics, NumbersInTheTextMergeOneDiagnostic) {
  EXPECT_EQ(Merged(DiagCode::kCallchainTooDeep,
                   {"SAMPLE at 0x1f00: callchain claims 268435456 entries, 12 bytes remain",
                    "SAMPLE at 0x2a40: callchain claims 268435457 entries, 1,024 bytes remain",
                    "SAMPLE at 0xffff8100: callchain claims 7 entries, 8 bytes remain"}),
            (std::vector<std::string>{"SAMPLE at 0x1f00: callchain claims 268435456 entries, 12 bytes remain x3"}));
  // numbers with units, hex without 0x, ranges, decimals
  EXPECT_EQ(Merged(DiagCode::kClockMismatch, {"took 12ms at ffffffff81000000 (cpus 0-3), 12.5%",
                                              "took 480ms at ffffffff8a00bc00 (cpus 4-7), 3.25%"})
                .size(),
            1u);
  Diagnostics d;
  d.Warning(DiagCode::kRecordTruncated, 100, 0, "record at 100 is cut");
  d.Warning(DiagCode::kRecordTruncated, 900, 0, "record at 900 is cut");
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].offset, 100u);
  EXPECT_EQ(d.items()[0].last_offset, 900u);
  EXPECT_EQ(d.items()[0].count, 2u);
}

TEST(Diagnostics, NamesThatDifferInTheirDigitsStayApart) {
  // what perf_unwind, perf_jit, xray_map and the side files say: file names with digits
  EXPECT_EQ(Merged(DiagCode::kUnwindMissingBinary,
                   {"drop lib1.so to unwind 3 samples: their user stacks stop at /opt/a/lib1.so",
                    "drop lib2.so to unwind 3 samples: their user stacks stop at /opt/a/lib2.so",
                    "drop jit-4242.dump to unwind 9 samples", "drop jit-4343.dump to unwind 9 samples",
                    "drop jit-4343.dump to unwind 12 samples"}),
            (std::vector<std::string>{
                "drop lib1.so to unwind 3 samples: their user stacks stop at /opt/a/lib1.so x1",
                "drop lib2.so to unwind 3 samples: their user stacks stop at /opt/a/lib2.so x1",
                "drop jit-4242.dump to unwind 9 samples x1", "drop jit-4343.dump to unwind 9 samples x2"}));
  EXPECT_EQ(Merged(DiagCode::kSideFileMismatch,
                   {"side file perf.data.3 differs", "side file perf.data.4 differs", "map /tmp/perf-77.map",
                    "map /tmp/perf-78.map", "libc-2.31.so", "libc-2.36.so", "abc1.so", "abc2.so"})
                .size(),
            8u);
  // a name's digits kept, the numbers beside it still merge
  EXPECT_EQ(Merged(DiagCode::kSideFileMismatch, {"jit dump jit-5.dump is damaged (3 problems)",
                                                 "jit dump jit-5.dump is damaged (40 problems)"}),
            (std::vector<std::string>{"jit dump jit-5.dump is damaged (3 problems) x2"}));
}

TEST(Diagnostics, AFileThatChangedIsSaidOnceForEachFile) {
  EXPECT_EQ(Merged(DiagCode::kFileChanged, {"data.1 ended at byte offset 4096", "data.2 ended at byte offset 4096",
                                            "data.10 ended at byte offset 8192"})
                .size(),
            3u);
}

}  // namespace
}  // namespace profscope
