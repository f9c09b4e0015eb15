// Window (core/io/byte_source.h) over a source that lends its bytes (the native
// CLI maps a file's pages in) and over one that only copies them (the WASM
// worker's Blob, tests' memory): the same bytes at every offset, the lent
// chunk given back before the next is asked for, and a whole decode of a
// file larger than a chunk saying the same. The lent chunks here are copies
// scribbled over when given back, so a pointer kept past its Get reads
// garbage and the comparison fails.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/io/byte_source.h"
#include "tests/unit/perf_test_writer.h"

namespace profscope {
namespace {

class LendingSource : public ByteSource {
 public:
  explicit LendingSource(const std::vector<uint8_t>& b) : inner_(b), bytes_(b) {}
  uint64_t size() const override { return inner_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    ++reads;
    return inner_.Read(offset, dst, len);
  }
  std::shared_ptr<const uint8_t> Lend(uint64_t offset, size_t len) override {
    EXPECT_LE(offset + len, bytes_.size());
    ++lends;
    ++out;
    most_out = std::max(most_out, out);
    uint8_t* copy = new uint8_t[len ? len : 1];
    std::memcpy(copy, bytes_.data() + offset, len);
    return std::shared_ptr<const uint8_t>(copy, [this, len](const uint8_t* p) {
      std::memset(const_cast<uint8_t*>(p), 0xdd, len);
      delete[] p;
      --out;
    });
  }
  int reads = 0, lends = 0, out = 0, most_out = 0;

 private:
  MemorySource inner_;
  const std::vector<uint8_t>& bytes_;
};

TEST(Window, LentChunksGiveTheBytesCopiedChunksDo) {
  std::mt19937_64 rng(5);
  std::vector<uint8_t> bytes(300000);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  for (const size_t chunk : {1u, 4096u, 65536u}) {
    MemorySource copying(bytes);
    LendingSource lending(bytes);
    Window a(copying, chunk), b(lending, chunk);
    for (int i = 0; i < 5000; ++i) {
      const uint64_t off = rng() % 8 == 0 ? bytes.size() - rng() % 100 : rng() % (bytes.size() + 10);
      const size_t len = rng() % 4 == 0 ? rng() % 200000 : rng() % 300;
      const uint8_t* x = a.Get(off, len);
      const uint8_t* y = b.Get(off, len);
      ASSERT_EQ(x == nullptr, y == nullptr) << off << " " << len;
      ASSERT_EQ(x == nullptr, off + len > bytes.size()) << off << " " << len;
      if (x && len) ASSERT_EQ(std::memcmp(y, bytes.data() + off, len), 0) << off << " " << len;
      ASSERT_LE(lending.out, 1);
    }
    EXPECT_EQ(lending.reads, 0);
    EXPECT_GT(lending.lends, 100);
    EXPECT_EQ(lending.most_out, 1);  // (each lent chunk given back before the next is asked for)
  }
}

// A perf.data of 160 000 samples with callchains (about 13 MiB: more than three of the session's 4 MiB chunks), in
// both byte orders: a session over a lending source says what one over a copying source says.
TEST(Window, ADecodeOverLentChunksSaysWhatOneOverCopiesSays) {
  using namespace perf;
  for (const ByteOrder order : {ByteOrder::kLittle, ByteOrder::kBig}) {
    FileBuilder fb(order);
    fb.AddAttr(SamplingAttr(kTypeSoftware, 1000, kSampleIp | kSampleTid | kSampleTime | kSampleCallchain | kSamplePeriod, 0), {});
    PerfWriter& w = fb.data();
    w.BeginRecord(kComm, 0);
    w.I32(7), w.I32(7), w.String("lent");
    w.EndRecord();
    std::mt19937_64 rng(9);
    for (int i = 0; i < 160000; ++i) {
      w.BeginRecord(kSample, 2);
      w.U64(0x400000 + rng() % 64);
      w.I32(7), w.I32(7 + static_cast<int32_t>(rng() % 2));
      w.U64(1000 + static_cast<uint64_t>(i));
      const uint64_t depth = 1 + rng() % 8;
      w.U64(depth);
      for (uint64_t d = 0; d < depth; ++d) w.U64(0x400000 + rng() % 32);
      w.U64(1000);
      w.EndRecord();
    }
    const std::vector<uint8_t> file = fb.Build();
    ASSERT_GT(file.size(), 3u * (4u << 20));
    auto said = [](ByteSource& src) {
      Session s(src, "perf.data");
      s.Decode();
      return s.StacksText(false, "") + "\n" + s.StacksText(true, "") + "\n" + s.InfoJson() + "\n" + s.DiagnosticsJson() + "\n" +
             std::to_string(s.result().records.rows());
    };
    MemorySource copying(file);
    LendingSource lending(file);
    const std::string want = said(copying), got = said(lending);
    EXPECT_NE(want.find("lent"), std::string::npos);
    EXPECT_EQ(got, want);
    EXPECT_GE(lending.lends, 3);
  }
}

}  // namespace
}  // namespace profscope
