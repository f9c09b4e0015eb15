// OpenFileSource (core/io/file_source.h), the native hosts' files: a regular file read with pread through a
// window, a file cut after it was opened (short reads: the decode says where the bytes ended, keeps what it
// read), a file that does not say its size (read whole) and one that is not there.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/io/byte_source.h"
#include "core/io/file_source.h"

namespace profscope {
namespace {

namespace fs = std::filesystem;

class TempFile {
 public:
  explicit TempFile(const std::vector<uint8_t>& bytes) {
    path_ = fs::temp_directory_path() / ("profscope_file_source_" + std::to_string(getpid()) + "_" + std::to_string(next_++));
    std::ofstream(path_, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  static inline int next_ = 0;
  fs::path path_;
};

std::vector<uint8_t> RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

std::vector<uint8_t> ReadAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// The file at p opened (nullptr and a failure when it cannot be).
std::unique_ptr<ByteSource> Open(const fs::path& p) {
  std::string error;
  std::unique_ptr<ByteSource> src = OpenFileSource(p.string(), &error);
  if (!src) ADD_FAILURE() << p << ": " << error;
  return src;
}

TEST(FileSource, ReadsARegularFileAtAnyOffsetThroughAWindow) {
  const std::vector<uint8_t> bytes = RandomBytes(200000, 1);
  TempFile t(bytes);
  std::unique_ptr<ByteSource> src = Open(t.path());
  ASSERT_TRUE(src);
  EXPECT_EQ(src->size(), bytes.size());
  Window w(*src, 4096);
  std::mt19937_64 rng(2);
  for (int i = 0; i < 3000; ++i) {
    const uint64_t off = rng() % (bytes.size() + 10);
    const size_t len = rng() % 4 == 0 ? rng() % 50000 : rng() % 300;
    const uint8_t* x = w.Get(off, len);
    ASSERT_EQ(x == nullptr, off + len > bytes.size()) << off << " " << len;
    if (x && len) ASSERT_EQ(std::memcmp(x, bytes.data() + off, len), 0) << off << " " << len;
  }
}

TEST(FileSource, AFileCutAfterItWasOpenedGivesShortReadsNotOtherBytes) {
  const std::vector<uint8_t> bytes = RandomBytes(100000, 3);
  TempFile t(bytes);
  std::unique_ptr<ByteSource> src = Open(t.path());
  ASSERT_TRUE(src);
  fs::resize_file(t.path(), 40000);
  EXPECT_EQ(src->size(), 100000u);  // (as opened)
  std::vector<uint8_t> buf(70000, 0xAB);
  EXPECT_EQ(src->Read(30000, buf.data(), buf.size()), 10000u);
  EXPECT_EQ(std::memcmp(buf.data(), bytes.data() + 30000, 10000), 0);
  EXPECT_EQ(src->Read(50000, buf.data(), 100), 0u);
  Window w(*src, 4096);
  const uint8_t* x = w.Get(39000, 500);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(std::memcmp(x, bytes.data() + 39000, 500), 0);
  EXPECT_EQ(w.ended_at(), 40000u);
  x = w.Get(39500, 1000);  // across the cut: the file's bytes, then zeros
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(std::memcmp(x, bytes.data() + 39500, 500), 0);
  EXPECT_EQ(std::count(x + 500, x + 1000, 0), 500);
  EXPECT_EQ(w.Get(99990, 20), nullptr);  // (past the size it was opened with)
}

TEST(FileSource, ARecordingCutWhileOpenDecodesWhatWasThereAndSaysWhere) {
  const fs::path real = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf/leader_group_u/perf.data";
  const std::vector<uint8_t> bytes = ReadAll(real);
  ASSERT_GT(bytes.size(), 20000u);
  std::unique_ptr<ByteSource> whole = Open(real);
  ASSERT_TRUE(whole);
  Session full(*whole, "perf.data");
  ASSERT_TRUE(full.Decode());
  const size_t all_samples = full.result().profile.samples.size();
  ASSERT_GT(all_samples, 10u);

  TempFile t(bytes);
  std::unique_ptr<ByteSource> src = Open(t.path());
  ASSERT_TRUE(src);
  const uint64_t cut = bytes.size() / 2;
  fs::resize_file(t.path(), cut);
  Session s(*src, "perf.data");
  s.Decode();  // (may report failure: the header's sections past the cut are gone)
  const DecodeResult& res = s.result();
  EXPECT_LT(res.profile.samples.size(), all_samples);
  const Diagnostic* said = nullptr;
  for (const auto& d : res.diags.items())
    if (d.code == DiagCode::kFileChanged) said = &d;
  ASSERT_NE(said, nullptr) << s.DiagnosticsJson();
  EXPECT_EQ(said->severity, Severity::kError);
  EXPECT_EQ(said->offset, cut);
  EXPECT_EQ(said->length, bytes.size() - cut);
  EXPECT_NE(said->message.find("ended at byte offset " + std::to_string(cut)), std::string::npos) << said->message;
  EXPECT_GT(res.records.rows(), 10u);  // what came before the cut
}

// The file cut after the decode, when a record is opened in the record tree: its fields say that the bytes
// from the cut read as zeros; a record before the cut reads as before.
TEST(FileSource, ARecordOpenedAfterTheFileWasCutSaysSo) {
  const fs::path real = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf/leader_group_u/perf.data";
  const std::vector<uint8_t> bytes = ReadAll(real);
  TempFile t(bytes);
  std::unique_ptr<ByteSource> src = Open(t.path());
  ASSERT_TRUE(src);
  Session s(*src, "perf.data");
  ASSERT_TRUE(s.Decode());
  const RecordTable& rt = s.result().records;
  // the first and the last SAMPLE records of the data section
  int32_t first = -1, last = -1;
  for (size_t r = 0; r < rt.rows(); ++r)
    if (rt.kind[r] == static_cast<uint8_t>(RecordKind::kRecord) && rt.parent[r] >= 0 && s.RecordTypeName(static_cast<int32_t>(r)) == "SAMPLE") {
      if (first < 0) first = static_cast<int32_t>(r);
      last = static_cast<int32_t>(r);
    }
  ASSERT_GE(first, 0);
  ASSERT_GT(rt.offset[static_cast<size_t>(last)], rt.offset[static_cast<size_t>(first)] + rt.size[static_cast<size_t>(first)]);
  const std::string before = s.RecordFieldsJson(last);
  EXPECT_EQ(before.find("file changed"), std::string::npos) << before;

  const uint64_t cut = rt.offset[static_cast<size_t>(first)] + rt.size[static_cast<size_t>(first)];
  fs::resize_file(t.path(), cut);
  const std::string first_fields = s.RecordFieldsJson(first);
  EXPECT_EQ(first_fields.find("file changed"), std::string::npos) << first_fields;
  const std::string cut_fields = s.RecordFieldsJson(last);
  EXPECT_NE(cut_fields.find("\"name\":\"file changed\""), std::string::npos) << cut_fields;
  EXPECT_NE(cut_fields.find("reading the file found it ending at byte offset " + std::to_string(cut) + ", though it had " +
                            std::to_string(bytes.size()) + " bytes"),
            std::string::npos)
      << cut_fields;
  EXPECT_NE(before, cut_fields);
}

TEST(FileSource, ASideFileCutWhileOpenIsSaid) {
  const fs::path dir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf_symdirs/symdir_fp";
  const std::vector<uint8_t> binary = ReadAll(dir / "symdir");
  ASSERT_GT(binary.size(), 4096u);
  std::unique_ptr<ByteSource> data = Open(dir / "perf.data");
  ASSERT_TRUE(data);
  TempFile t(binary);
  std::unique_ptr<ByteSource> side = Open(t.path());
  ASSERT_TRUE(side);
  fs::resize_file(t.path(), 3000);
  Session s(*data, "perf.data");
  s.AddSideFile(*side, "symdir");
  s.Decode();
  const Diagnostic* said = nullptr;
  for (const auto& d : s.result().diags.items())
    if (d.code == DiagCode::kFileChanged) said = &d;
  ASSERT_NE(said, nullptr) << s.DiagnosticsJson();
  EXPECT_EQ(said->severity, Severity::kError);
  EXPECT_EQ(said->offset, 0u);  // (not the main file's bytes: the offset is in the message)
  EXPECT_EQ(said->message.rfind("symdir ended at byte offset 3000 ", 0), 0u) << said->message;
  EXPECT_GT(s.result().profile.samples.size(), 0u);
}

TEST(FileSource, AFileThatDoesNotSayItsSizeIsReadWhole) {
  std::string error;
  std::unique_ptr<ByteSource> src = OpenFileSource("/proc/self/status", &error);
  ASSERT_TRUE(src) << error;
  ASSERT_GT(src->size(), 5u);
  std::vector<uint8_t> head(5);
  ASSERT_EQ(src->Read(0, head.data(), head.size()), 5u);
  EXPECT_EQ(std::string(head.begin(), head.end()), "Name:");
}

TEST(FileSource, AMissingFileSaysWhy) {
  std::string error;
  EXPECT_EQ(OpenFileSource("/nonexistent/profscope/perf.data", &error), nullptr);
  EXPECT_EQ(error, std::strerror(ENOENT));
}

}  // namespace
}  // namespace profscope
