// ByteReader (core/io/byte_reader.h), the bounds-checked cursor every decoder
// reads through: both byte orders, the sticky failure (read ten fields, check
// once), reads that do not fit at every length, child readers limited to
// their slice, absolute offsets, strings, and RangeFits at the 2^64 edge.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/byte_reader.h"

namespace profscope {
namespace {

const std::vector<uint8_t> kBytes = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                     0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10};

TEST(ByteReader, LittleEndianIntegers) {
  ByteReader r(kBytes.data(), kBytes.size(), 100, ByteOrder::kLittle);
  EXPECT_FALSE(r.swapped());
  EXPECT_EQ(r.U8(), 0x01);
  EXPECT_EQ(r.U16(), 0x0302);
  EXPECT_EQ(r.U32(), 0x07060504u);
  EXPECT_EQ(r.U64(), 0x0f0e0d0c0b0a0908ull);
  EXPECT_EQ(r.pos(), 15u);
  EXPECT_EQ(r.abs_pos(), 115u);
  EXPECT_TRUE(r.ok());
}

TEST(ByteReader, BigEndianIntegers) {
  ByteReader r(kBytes.data(), kBytes.size(), 0, ByteOrder::kBig);
  EXPECT_TRUE(r.swapped());
  EXPECT_EQ(r.U8(), 0x01);
  EXPECT_EQ(r.U16(), 0x0203);
  EXPECT_EQ(r.U32(), 0x04050607u);
  EXPECT_EQ(r.U64(), 0x08090a0b0c0d0e0full);
  EXPECT_TRUE(r.ok());
}

TEST(ByteReader, SignedReadsInBothOrders) {
  const std::vector<uint8_t> le = {0xfe, 0xff, 0xff, 0xff, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  ByteReader a(le.data(), le.size(), 0, ByteOrder::kLittle);
  EXPECT_EQ(a.I32(), -2);
  EXPECT_EQ(a.I64(), -3);
  const std::vector<uint8_t> be = {0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd};
  ByteReader b(be.data(), be.size(), 0, ByteOrder::kBig);
  EXPECT_EQ(b.I32(), -2);
  EXPECT_EQ(b.I64(), -3);
}

TEST(ByteReader, ShortReadOfEveryWidthFailsGivesZeroAndMovesToTheEnd) {
  for (size_t have = 0; have < 8; ++have) {
    for (size_t width : {1u, 2u, 4u, 8u}) {
      if (width <= have) continue;
      ByteReader r(kBytes.data(), have, 0, ByteOrder::kLittle);
      uint64_t v = width == 1 ? r.U8() : width == 2 ? r.U16() : width == 4 ? r.U32() : r.U64();
      EXPECT_EQ(v, 0u) << "have " << have << " width " << width;
      EXPECT_FALSE(r.ok());
      EXPECT_TRUE(r.at_end());
      EXPECT_EQ(r.remaining(), 0u);
    }
  }
}

TEST(ByteReader, FailureIsSticky) {
  ByteReader r(kBytes.data(), 6, 0, ByteOrder::kLittle);
  EXPECT_EQ(r.U32(), 0x04030201u);
  EXPECT_EQ(r.U32(), 0u);  // only 2 bytes left
  EXPECT_FALSE(r.ok());
  // Later reads that would fit on their own do not bring ok() back.
  r.Seek(0);
  EXPECT_EQ(r.U8(), 0x01);
  EXPECT_FALSE(r.ok());
}

TEST(ByteReader, SkipSeekAlignStayInBounds) {
  ByteReader r(kBytes.data(), kBytes.size(), 0, ByteOrder::kLittle);
  EXPECT_TRUE(r.Skip(3));
  r.Align(8);
  EXPECT_EQ(r.pos(), 8u);
  EXPECT_TRUE(r.Seek(16));
  EXPECT_TRUE(r.at_end());
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(r.Seek(17));
  EXPECT_FALSE(r.ok());
  ByteReader s(kBytes.data(), kBytes.size(), 0, ByteOrder::kLittle);
  EXPECT_FALSE(s.Skip(SIZE_MAX));  // no overflow: the check subtracts
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.pos(), s.size());
}

TEST(ByteReader, PeekDoesNotMoveAndIsBounded) {
  ByteReader r(kBytes.data(), kBytes.size(), 0, ByteOrder::kBig);
  r.Skip(2);
  EXPECT_EQ(r.PeekU16(0), 0x0102);
  EXPECT_EQ(r.PeekU32(4), 0x05060708u);
  EXPECT_EQ(r.PeekU64(8), 0x090a0b0c0d0e0f10ull);
  EXPECT_EQ(r.PeekU64(9), 0u);  // past the end
  EXPECT_EQ(r.pos(), 2u);
  EXPECT_TRUE(r.ok());
}

TEST(ByteReader, SubReaderIsLimitedToItsBytesAndKnowsItsOffset) {
  ByteReader r(kBytes.data(), kBytes.size(), 1000, ByteOrder::kLittle);
  r.Skip(4);
  ByteReader c = r.Sub(4);
  EXPECT_EQ(r.pos(), 8u);
  EXPECT_EQ(c.base(), 1004u);
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c.U32(), 0x08070605u);
  EXPECT_EQ(c.U8(), 0u);  // never reads into the parent's next bytes
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.U8(), 0x09);
}

TEST(ByteReader, SubReaderPastTheEndCoversWhatIsLeftAndFailsTheParent) {
  ByteReader r(kBytes.data(), kBytes.size(), 0, ByteOrder::kLittle);
  r.Skip(12);
  ByteReader c = r.Sub(10);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(c.size(), 4u);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.U32(), 0x100f0e0du);
}

TEST(ByteReader, SliceDoesNotMoveAndIsClipped) {
  ByteReader r(kBytes.data(), kBytes.size(), 50, ByteOrder::kLittle);
  ByteReader s = r.Slice(14, 4);
  EXPECT_EQ(r.pos(), 0u);
  EXPECT_EQ(s.base(), 64u);
  EXPECT_EQ(s.size(), 2u);
  EXPECT_FALSE(s.ok());  // asked for more than there is
  ByteReader t = r.Slice(40, 1);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_FALSE(t.ok());
  ByteReader u = r.Slice(2, 2);
  EXPECT_TRUE(u.ok());
  EXPECT_EQ(u.U16(), 0x0403);
}

TEST(ByteReader, Strings) {
  const std::string text("ab\0cd\0\0\0xyz", 11);
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  ByteReader r(p, text.size(), 0, ByteOrder::kLittle);
  EXPECT_EQ(r.CString(), "ab");
  EXPECT_EQ(r.FixedString(5), "cd");  // NUL-padded field
  EXPECT_EQ(r.pos(), 8u);
  EXPECT_EQ(r.CString(), "xyz");  // no NUL: the rest, and a failure
  EXPECT_FALSE(r.ok());
  ByteReader f(p, 4, 0, ByteOrder::kLittle);
  EXPECT_EQ(f.FixedString(8), "");
  EXPECT_FALSE(f.ok());
}

TEST(ByteReader, BytesCopiesOnlyWhenAllFit) {
  ByteReader r(kBytes.data(), 4, 0, ByteOrder::kBig);
  uint8_t out[8] = {0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa};
  EXPECT_FALSE(r.Bytes(out, 8));
  EXPECT_EQ(out[0], 0xaa);  // nothing written
  ByteReader s(kBytes.data(), 4, 0, ByteOrder::kBig);
  EXPECT_TRUE(s.Bytes(out, 4));
  EXPECT_EQ(out[3], 0x04);  // raw, never swapped
}

TEST(ByteReader, RangeFitsWithoutOverflow) {
  EXPECT_TRUE(RangeFits(0, 16, 16));
  EXPECT_TRUE(RangeFits(16, 0, 16));
  EXPECT_FALSE(RangeFits(17, 0, 16));
  EXPECT_FALSE(RangeFits(8, 9, 16));
  EXPECT_FALSE(RangeFits(8, UINT64_MAX, 16));
  EXPECT_FALSE(RangeFits(UINT64_MAX, 2, UINT64_MAX));
  EXPECT_TRUE(RangeFits(UINT64_MAX - 1, 1, UINT64_MAX));
}

}  // namespace
}  // namespace profscope
