// Random damage over every real test file (issue 6, "never falls over"):
// fixed-seed bit flips and extreme values (0, ~0, 2^60, INT_MIN...) written
// over random fields of each profile in tests/data. For every mutant:
//  - Decode returns (no crash, no sanitizer report under the fuzz build, no
//    hang: each decode must finish within a generous time bound), and every
//    text the CLI prints and the fields of the rows can be produced;
//  - a failed decode carries a fatal diagnostic; diagnostics point inside the
//    file (offset <= size);
//  - damage inside the record stream leaves every record that ends before the
//    first damaged byte decoded exactly as in the undamaged file.
// Files are discovered by content (whatever Session decodes), so formats other
// engineers add with their tests/data cases are swept too.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus/corpus_util.h"
#include "core/api/session.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::AnalysisOptions;
using profscope::Session;

namespace {

using profscope::corpus::ReadFile;
using profscope::corpus::Lines;

const fs::path kData = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data";


bool TextLike(const fs::path& p) {
  static const std::set<std::string> kSkip = {".txt", ".md", ".json", ".stderr", ".rc", ".gz",
                                              ".sh", ".pb_text", ".string", ".foldedstack", ".yaml", ".yml", ".c", ".cc", ".cpp",
                                              ".py", ".folded", ".svg", ".html", ".js"};
  return kSkip.count(p.extension().string()) > 0 || p.filename() == "calltree";
}

// Every binary file under tests/data (those no decoder opens are skipped by the test).
std::vector<std::string> ProfileFiles() {
  std::vector<std::string> out;
  if (!fs::exists(kData)) return out;
  for (const auto& e : fs::recursive_directory_iterator(kData)) {
    if (!e.is_regular_file() || TextLike(e.path())) continue;
    if (e.path().extension() == ".log") {  // xray.log is binary; folded.log and friends are text
      std::ifstream f(e.path(), std::ios::binary);
      int c = f.get();
      if (c >= 0x20 && c < 0x7f) continue;
    }
    if (e.file_size() == 0 || e.file_size() > (4u << 20)) continue;
    // cheap listing (every test process of ctest runs this): the test itself skips
    // files no decoder opens
    out.push_back(fs::relative(e.path(), kData).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}


class Sweep : public ::testing::TestWithParam<std::string> {};

struct Outcome {
  bool ok = false;
  std::string records;
  double seconds = 0;
};

// Decodes and exercises everything the UI or CLI can ask for.
Outcome Exercise(const std::vector<uint8_t>& bytes, const std::string& what) {
  Outcome o;
  MemorySource src(bytes);
  Session s(src, "mutant");
  auto t0 = std::chrono::steady_clock::now();
  o.ok = s.Decode();
  std::string sink = s.InfoJson() + s.DiagnosticsJson();
  if (o.ok) {
    o.records = s.RecordsText();
    sink += s.StacksText(false, "") + s.StacksText(true, "") + s.EventsText();
    sink += s.SummaryJson() + s.ThreadsJson() + s.MappingsJson();
    size_t rows = s.result().records.rows();
    size_t step = rows <= 4000 ? 1 : rows / 4000 + 1;
    for (size_t r = 0; r < rows; r += step) {
      sink += s.RecordLabel(static_cast<int32_t>(r));
      sink += s.RecordFieldsJson(static_cast<int32_t>(r));
    }
    AnalysisOptions a;
    a.invert = true;
    EXPECT_GE(s.Analyze(a).size(), 1u) << what;  // the page's call tree: at least the root
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& diags = s.result().diags;
  if (!o.ok) EXPECT_TRUE(diags.has_fatal()) << what << ": decode failed without a fatal diagnostic";
  // Offsets are file offsets, except inside a decompressed stream (kNested rows,
  // perf COMPRESSED records), where they are offsets within that stream.
  uint64_t bound = bytes.size();
  const auto& rt = s.result().records;
  for (size_t r = 0; r < rt.rows(); ++r)
    if (rt.kind[r] == 9) bound = std::max<uint64_t>(bound, rt.offset[r] + rt.size[r]);
  for (const auto& d : diags.items()) {
    EXPECT_LE(d.offset, bound) << what << ": diagnostic past the end: " << d.message;
  }
  EXPECT_LT(o.seconds, 20.0) << what << ": decode took " << o.seconds << " s";
  return o;
}

// A file of tests/data and its whole decode: what each mutant or cut of it is held against.
struct Whole {
  std::vector<uint8_t> bytes;
  MemorySource src;
  Session session;
  bool ok;
  explicit Whole(const std::string& name) : bytes(ReadFile(kData / name)), src(bytes), session(src, "full"), ok(session.Decode()) {}
  // The first offset the whole file's own damage is said at (an error or worse), else UINT64_MAX.
  uint64_t FirstDamage() const {
    uint64_t first = UINT64_MAX;
    for (const auto& d : session.result().diags.items())
      if (d.severity >= profscope::Severity::kError) first = std::min<uint64_t>(first, d.offset);
    return first;
  }
};

TEST_P(Sweep, RandomDamageNeverCrashesAndKeepsWhatCameBefore) {
  const Whole whole(GetParam());
  const std::vector<uint8_t>& orig = whole.bytes;
  ASSERT_FALSE(orig.empty());
  if (!whole.ok) GTEST_SKIP() << "no decoder opens this file";
  const Session& full = whole.session;
  auto full_lines = Lines(full.RecordsText());
  // The record stream: top-level rows of kind Record (5). Damage there may only
  // affect that record and what follows.
  const auto& rt = full.result().records;
  uint64_t stream_begin = UINT64_MAX, stream_end = 0;
  for (size_t r = 0; r < rt.rows(); ++r) {
    if (rt.kind[r] != 5 || rt.parent[r] != -1 || rt.file[r] != 0) continue;
    stream_begin = std::min(stream_begin, rt.offset[r]);
    stream_end = std::max(stream_end, rt.offset[r] + rt.size[r]);
  }
  const uint64_t first_damage = whole.FirstDamage();

  std::mt19937_64 rng(0x70726f6673636f70ULL ^ std::hash<std::string>()(GetParam()));
  const int kMutants = orig.size() > 200000 ? 60 : 150;
  const uint64_t kExtremes[] = {0, ~0ULL, 1ULL << 60, 0x8000000000000000ULL, 0x7fffffffULL,
                                0xffffffffULL, 0x80000000ULL, 0x10000ULL};
  int checked_prefix = 0;
  for (int m = 0; m < kMutants; ++m) {
    auto bytes = orig;
    uint64_t lo = UINT64_MAX;  // first byte changed
    int kind = m % 3;
    if (kind == 0) {  // 1..4 random bit flips
      int flips = 1 + static_cast<int>(rng() % 4);
      for (int i = 0; i < flips; ++i) {
        uint64_t at = rng() % bytes.size();
        bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        lo = std::min(lo, at);
      }
    } else {  // an extreme value over an aligned 2/4/8-byte field
      size_t w = kind == 1 ? 8 : (rng() % 2 ? 4 : 2);
      if (bytes.size() < w) continue;
      uint64_t at = (rng() % (bytes.size() - w + 1)) & ~static_cast<uint64_t>(w - 1);
      uint64_t v = kExtremes[rng() % (sizeof kExtremes / sizeof kExtremes[0])];
      std::memcpy(&bytes[at], &v, w);
      lo = at;
    }
    std::string what = GetParam() + " mutant " + std::to_string(m) + " (first change at " + std::to_string(lo) + ")";
    Outcome o = Exercise(bytes, what);
    if (::testing::Test::HasFailure()) return;
    // Damage inside the record stream: what ended before it decodes as before.
    if (o.ok && lo >= stream_begin && lo < stream_end && lo < first_damage) {
      auto lines = Lines(o.records);
      std::set<std::string> have(lines.begin(), lines.end());
      for (const auto& l : full_lines) {
        std::istringstream in(l);
        uint64_t off = 0, size = 0;
        in >> off >> size;
        if (l.find("in:") != std::string::npos || off < stream_begin) continue;
        if (off + size <= lo) {
          ASSERT_TRUE(have.count(l)) << what << " lost record " << l;
        }
      }
      ++checked_prefix;
    }
  }
  RecordProperty("prefix_checks", checked_prefix);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  EXPECT_LT(ru.ru_maxrss, 2L << 20) << "peak RSS " << ru.ru_maxrss << " KB: a mutant made the decoder allocate too much";
}

// The file's bytes up to `cut`, though its size says the whole file: a file cut (or changed) after it was
// opened, or a read that failed.
class CutSource : public profscope::ByteSource {
 public:
  CutSource(const std::vector<uint8_t>& b, uint64_t cut) : bytes_(b), cut_(cut) {}
  uint64_t size() const override { return bytes_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    if (offset >= cut_) return 0;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(len, cut_ - offset));
    std::memcpy(dst, bytes_.data() + offset, n);
    return n;
  }

 private:
  const std::vector<uint8_t>& bytes_;
  uint64_t cut_;
};

TEST_P(Sweep, AFileCutAfterItWasOpenedSaysWhereAndKeepsWhatCameBefore) {
  const Whole whole(GetParam());
  const std::vector<uint8_t>& orig = whole.bytes;
  ASSERT_FALSE(orig.empty());
  if (!whole.ok) GTEST_SKIP() << "no decoder opens this file";
  const Session& full = whole.session;
  const auto full_lines = Lines(full.RecordsText());
  const uint64_t first_damage = whole.FirstDamage();
  std::mt19937_64 rng(0x637574ULL ^ std::hash<std::string>()(GetParam()));
  for (int k = 0; k < 8; ++k) {
    const uint64_t cut = k < 4 ? orig.size() * static_cast<uint64_t>(k + 1) / 5 : rng() % orig.size();
    const std::string what = GetParam() + " cut at " + std::to_string(cut);
    CutSource src(orig, cut);
    Session s(src, "cut");
    const auto t0 = std::chrono::steady_clock::now();
    s.Decode();
    std::string sink = s.InfoJson() + s.DiagnosticsJson() + s.RecordsText() + s.StacksText(false, "") + s.SummaryJson();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 20.0) << what;
    // Where the file ended is said, as an error at the cut: a profile's decoder reads the whole file (an ELF
    // file, its headers and the sections it names).
    bool said = false;
    for (const auto& d : s.result().diags.items())
      if (d.code == profscope::DiagCode::kFileChanged) {
        said = true;
        EXPECT_EQ(d.offset, cut) << what;
        EXPECT_EQ(d.severity, profscope::Severity::kError) << what;
      }
    if (full.result().format != "elf") EXPECT_TRUE(said) << what << ": " << s.DiagnosticsJson().substr(0, 2000);
    // No record is read from the zeros past the cut (a decoder stops its records there).
    const auto& rt = s.result().records;
    for (size_t r = 0; r < rt.rows(); ++r)
      if (rt.kind[r] == 5 && rt.parent[r] == -1 && rt.file[r] == 0 && rt.offset[r] >= cut) {
        ADD_FAILURE() << what << ": a record at " << rt.offset[r] << ", past the cut";
        break;
      }
    // The top-level records that ended before the cut (and before any damage of the file itself) are as
    // in the whole file.
    const auto lines = Lines(s.RecordsText());
    const std::set<std::string> have(lines.begin(), lines.end());
    for (const auto& l : full_lines) {
      std::istringstream in(l);
      uint64_t off = 0, size = 0;
      in >> off >> size;
      if (l.find("in:") != std::string::npos || l.rfind(" ", 0) == 0) continue;
      if (off + size <= std::min(cut, first_damage) && !have.count(l)) {
        ADD_FAILURE() << what << " lost record " << l;
        break;
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(TestData, Sweep, ::testing::ValuesIn(ProfileFiles()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Sweep);

// Headers that claim absurd counts get a diagnostic, not an allocation: a
// perf.data header whose attrs/data/feature sections claim 2^60 bytes, and a
// pipe stream whose first record claims a 4 GiB size.
TEST(Limits, HugeClaimedSizesGiveDiagnosticsNotAllocations) {
  auto orig = ReadFile(kData / "perf" / "default_event" / "perf.data");
  ASSERT_GE(orig.size(), 104u);
  // perf_file_header: magic, size, attr_size, attrs{off,size}, data{off,size}, event_types{off,size}
  for (size_t field : {24u + 8u, 40u + 8u, 56u + 8u, 16u, 24u, 40u}) {
    auto bytes = orig;
    uint64_t v = 1ULL << 60;
    std::memcpy(&bytes[field], &v, 8);
    MemorySource src(bytes);
    Session s(src, "huge");
    s.Decode();
    s.InfoJson();
    EXPECT_FALSE(s.result().diags.items().empty()) << "header field at " << field << " = 2^60 gave no diagnostic";
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  EXPECT_LT(ru.ru_maxrss, 2L << 20);
}

}  // namespace
