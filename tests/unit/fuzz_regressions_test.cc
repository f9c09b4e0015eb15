// Replays every input the fuzzers ever crashed on (fuzz/regressions/<target>/*)
// through the same calls the fuzz target makes (fuzz/perf_fuzz.cc): decode,
// every text, the fields of every row, the call trees, every export and a self-diff. Each file once crashed or tripped a
// sanitizer; here it must decode (or fail with a fatal diagnostic) cleanly.
// Under the normal build this catches crashes and hangs; fuzz/run.sh replays
// the same files under ASan + UBSan.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/api/compare.h"
#include "core/api/export/exporter.h"
#include "core/api/session.h"
#include "fuzz/unwind_fuzz_input.h"

namespace fs = std::filesystem;

namespace {

const fs::path kRegressions = fs::path(PROFSCOPE_SOURCE_DIR) / "fuzz" / "regressions";

std::vector<std::string> Inputs() {
  std::vector<std::string> out;
  if (!fs::exists(kRegressions)) return out;
  for (const auto& e : fs::recursive_directory_iterator(kRegressions))
    if (e.is_regular_file() && e.path().extension() != ".md")
      out.push_back(fs::relative(e.path(), kRegressions).string());
  std::sort(out.begin(), out.end());
  return out;
}

class FuzzRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzRegression, DecodesWithoutCrashing) {
  std::ifstream f(kRegressions / GetParam(), std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (GetParam().rfind("unwind_fuzz/", 0) == 0) {
    // Not a profile: the unwinder's own target (CFI, stack and registers).
    EXPECT_EQ(profscope::fuzz::RunUnwindInput(bytes.data(), bytes.size()), 0);
    return;
  }
  profscope::MemorySource src(bytes);
  profscope::Session s(src, "regression");
  bool ok = s.Decode();
  std::string sink = s.InfoJson();
  EXPECT_FALSE(sink.empty());
  if (!ok) {
    EXPECT_TRUE(s.result().diags.has_fatal());
    return;
  }
  sink += s.RecordsText() + s.StacksText(false, "") + s.StacksText(true, "") + s.EventsText();
  sink += s.SummaryJson() + s.ThreadsJson() + s.MappingsJson() + s.EventsJson();
  const auto rows = static_cast<int32_t>(s.result().records.rows());
  for (int32_t r = 0; r < rows; ++r) {
    sink += s.RecordLabel(r);
    std::string fields = s.RecordFieldsJson(r);
    ASSERT_FALSE(fields.empty()) << "row " << r;
    ASSERT_EQ(fields.front(), '[') << "row " << r;
  }
  profscope::AnalysisOptions o;
  EXPECT_GE(s.Analyze(o).size(), 1u);  // the page's call tree: at least the root
  o.invert = true;
  EXPECT_GE(s.Analyze(o).size(), 1u);
  // every export and a self-diff, as the fuzz targets do
  for (const char* f : {"folded", "speedscope", "gecko", "pprof", "chrome"})
    for (const char* w : {"samples", "period", "time"}) {
      profscope::exporter::Output out = profscope::exporter::ExportByName(s.result(), f, w, "");
      if (!out.error.empty()) {
        EXPECT_TRUE(out.bytes.empty()) << f << " " << w;  // refused: nothing written
      }
    }
  sink += profscope::DiffCommand(s.result(), s.result(), "", false).text;
}

INSTANTIATE_TEST_SUITE_P(Kept, FuzzRegression, ::testing::ValuesIn(Inputs()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzRegression);

}  // namespace
