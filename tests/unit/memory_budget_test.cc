// The decode's memory budget, repeated diagnostics counted once, and the
// perf -z container cap (issue 16's hostile input).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/format/perf/perf_zstd_stream.h"
#include "core/model/memory_budget.h"

#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#endif

namespace profscope {
namespace {

TEST(MemoryBudget, ReachedOnceWithOffsetAndBudget) {
  MemoryBudget b;
  b.set_limit_mib(2);
  Diagnostics d;
  EXPECT_FALSE(b.Reached(1u << 20, 100, d));
  EXPECT_TRUE(b.Reached(2u << 20, 4096, d));
  EXPECT_TRUE(b.Reached(1, 8192, d));  // stays reached, no second diagnostic
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].code, DiagCode::kMemoryBudget);
  EXPECT_EQ(d.items()[0].offset, 4096u);
  EXPECT_NE(d.items()[0].message.find("byte offset 4096"), std::string::npos);
  EXPECT_NE(d.items()[0].message.find("memory budget of 2 MB"), std::string::npos);
}

TEST(MemoryBudget, CountsRowsNotCapacity) {
  // Records of one size one after the other: every column is one run (offsets step 8), 4 + 2 x 8 bytes for
  // offset and size, 4 + 2 x 4 for type and parent, 4 + 2 x 1 for kind, category and file.
  RecordTable t;
  t.Reserve(100000);
  for (int i = 0; i < 1000; ++i) t.Add(i * 8, 8, 9, RecordKind::kRecord, kNone, RecordCategory::kSample);
  EXPECT_EQ(MemoryBudget::Bytes(t), 2u * 20 + 2u * 12 + 3u * 6);
  // Sizes that vary are kept plain, as narrow as they fit: 2 bytes a row.
  RecordTable v;
  uint64_t at = 0;
  for (int i = 0; i < 8192; ++i) {
    const uint64_t size = 8 + ((static_cast<uint32_t>(i) * 2654435761u) >> 11) % 1000;
    v.Add(at, size, 9, RecordKind::kRecord, kNone, RecordCategory::kSample);
    at += size;
  }
  EXPECT_EQ(v.size.packed_bytes(), 2u * 8192);
  EXPECT_EQ(v.offset.packed_bytes(), 4u * 8192);
  EXPECT_EQ(MemoryBudget::Bytes(v), 6u * 8192 + 2u * 12 + 3u * 6);
}

TEST(Diagnostics, SameShapeIsCountedOnce) {
  Diagnostics d;
  for (int i = 0; i < 20000; ++i)
    d.Error(DiagCode::kCallchainTooDeep, 64 + 100 * i, 8, "callchain at 0x" + std::to_string(64 + 100 * i) + " declares 268435456 entries");
  d.Error(DiagCode::kRecordTruncated, 5, 1, "record at 0x5 runs past the end");
  ASSERT_EQ(d.items().size(), 2u);
  EXPECT_EQ(d.items()[0].count, 20000u);
  EXPECT_EQ(d.items()[0].offset, 64u);
  EXPECT_EQ(d.items()[0].last_offset, 64u + 100u * 19999u);
  EXPECT_EQ(d.items()[1].count, 1u);
}

#ifdef PROFSCOPE_HAVE_ZSTD
// `n` 16-byte records of an unknown type (the stream's content), zstd-compressed as one frame.
std::vector<uint8_t> Frame(size_t n) {
  std::vector<uint8_t> raw(n * 16, 0);
  for (size_t i = 0; i < n; ++i) {
    uint32_t type = 12;
    uint16_t size = 16;
    std::memcpy(&raw[i * 16], &type, 4);
    std::memcpy(&raw[i * 16 + 6], &size, 2);
  }
  std::vector<uint8_t> z(ZSTD_compressBound(raw.size()));
  z.resize(ZSTD_compress(z.data(), z.size(), raw.data(), raw.size(), 3));
  return z;
}

TEST(ZstdStream, CapsAContainerAtMmapLen) {
  std::vector<uint8_t> z = Frame(100000);  // 1.6 MB of records
  perf::CompressedRecord c;
  c.data = z.data();
  c.data_len = z.size();
  c.data_offset = 8;
  perf::ZstdStream s;
  Diagnostics d;
  size_t records = 0;
  uint64_t last = 0;
  s.Expand(c, 1000, 3, 4096, ByteOrder::kLittle, d, [&](int32_t container, uint64_t off, ByteReader rec) {
    EXPECT_EQ(container, 3);
    EXPECT_EQ(rec.size(), 16u);
    last = off;
    ++records;
    return true;
  });
  EXPECT_EQ(records, 4096u / 16);  // exactly mmap_len of output
  EXPECT_EQ(last, 4096u - 16);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].code, DiagCode::kLimitExceeded);
  EXPECT_NE(d.items()[0].message.find("expands past the 4096 bytes of HEADER_COMPRESSED's mmap_len"), std::string::npos);
}

TEST(ZstdStream, ContentWithinMmapLenIsWhole) {
  std::vector<uint8_t> z = Frame(256);
  perf::CompressedRecord c;
  c.data = z.data();
  c.data_len = z.size();
  perf::ZstdStream s;
  Diagnostics d;
  size_t records = 0;
  s.Expand(c, 0, 0, 4096, ByteOrder::kLittle, d, [&](int32_t, uint64_t, ByteReader) { return ++records, true; });
  EXPECT_EQ(records, 256u);
  EXPECT_TRUE(d.items().empty());
}
#endif

}  // namespace
}  // namespace profscope
