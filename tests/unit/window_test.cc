// Window (core/io/byte_source.h): the source's bytes at every offset and length, read in chunks into one
// buffer that is reused (the native CLI, the WASM worker's Blob and the tests' memory all copy into it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "core/io/byte_source.h"

namespace profscope {
namespace {

class CountingSource : public ByteSource {
 public:
  explicit CountingSource(const std::vector<uint8_t>& b) : inner_(b) {}
  uint64_t size() const override { return inner_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    ++reads;
    return inner_.Read(offset, dst, len);
  }
  int reads = 0;

 private:
  MemorySource inner_;
};

TEST(Window, GivesTheSourcesBytesAtAnyOffsetAndLength) {
  std::mt19937_64 rng(5);
  std::vector<uint8_t> bytes(300000);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  for (const size_t chunk : {1u, 4096u, 65536u}) {
    CountingSource src(bytes);
    Window w(src, chunk);
    int refills = 0;
    for (int i = 0; i < 5000; ++i) {
      const uint64_t off = rng() % 8 == 0 ? bytes.size() - rng() % 100 : rng() % (bytes.size() + 10);
      const size_t len = rng() % 4 == 0 ? rng() % 200000 : rng() % 300;
      const int before = src.reads;
      const uint8_t* x = w.Get(off, len);
      ASSERT_EQ(x == nullptr, off + len > bytes.size()) << off << " " << len;
      if (x && len) ASSERT_EQ(std::memcmp(x, bytes.data() + off, len), 0) << off << " " << len;
      ASSERT_LE(src.reads - before, 1) << off << " " << len;  // one read a refill
      refills += src.reads - before;
    }
    EXPECT_GT(refills, 100);
  }
}

// A source that gives at most half of what is asked for (a short read, as a file being cut or a slow pipe
// gives) and scribbles over the rest of the buffer it was given.
class ShortSource : public ByteSource {
 public:
  explicit ShortSource(const std::vector<uint8_t>& b) : inner_(b) {}
  uint64_t size() const override { return inner_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    const size_t got = inner_.Read(offset, dst, (len + 1) / 2);
    std::memset(dst + got, 0xEE, len - got);
    return got;
  }

 private:
  MemorySource inner_;
};

TEST(Window, ReadsWhatASourceCouldNotGiveAsZerosAndSaysWhereThatBegan) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> bytes(100000);
  for (auto& b : bytes) b = static_cast<uint8_t>(1 + rng() % 200);  // (never 0, never 0xEE)
  ShortSource src(bytes);
  Window w(src, 4096);
  EXPECT_EQ(w.ended_at(), Window::kNotEnded);
  const uint8_t* x = w.Get(0, 100);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(std::memcmp(x, bytes.data(), 100), 0);
  EXPECT_EQ(w.ended_at(), 2048u);  // half of the chunk asked for
  x = w.Get(3000, 100);            // past what the source gave: zeros, not what it scribbled
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(std::count(x, x + 100, 0), 100);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t off = rng() % (bytes.size() + 100);
    const size_t len = 1 + rng() % 3000;
    x = w.Get(off, len);
    ASSERT_EQ(x == nullptr, off + len > bytes.size()) << off << " " << len;
    for (size_t k = 0; x && k < len; ++k) ASSERT_TRUE(x[k] == bytes[off + k] || x[k] == 0) << off + k;
  }
  EXPECT_EQ(w.ended_at(), 2048u);  // (the lowest)
  EXPECT_TRUE(w.Ended(2048));
  EXPECT_FALSE(w.Ended(2047));
}

}  // namespace
}  // namespace profscope
