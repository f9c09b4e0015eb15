// FieldReader (core/model/field_reader.h), the one field cursor: the same
// reads with and without a field list, absolute offsets and sizes of the
// fields, the stop at the first member that does not fit (with the format's
// FieldProblems told once), groups, strings and raw bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/model/field_reader.h"

namespace profscope {
namespace {

struct Problems : FieldProblems {
  std::vector<std::string> shorts, unterminated;
  bool stay = false;
  void Short(FieldReader& r, std::string_view member, uint64_t need) override {
    shorts.push_back(std::string(member) + " needs " + std::to_string(need) + " at " + std::to_string(r.abs_pos()) +
                     ", " + std::to_string(r.remaining()) + " left");
  }
  void Unterminated(std::string_view member, uint64_t at, uint64_t area) override {
    unterminated.push_back(std::string(member) + "@" + std::to_string(at) + "/" + std::to_string(area));
  }
  bool StayAtShortfall() const override { return stay; }
};

const std::vector<uint8_t> kData = {0x2a, 0x00, 0x00, 0x00,  // u32 42
                                    0xff, 0xff, 0xff, 0xff,  // i32 -1
                                    0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // u64 16
                                    'h', 'i', 0, 0};

TEST(FieldReader, ReadsTheSameWithAndWithoutFields) {
  for (bool with_fields : {false, true}) {
    std::vector<Field> fields;
    FieldReader r(ByteReader(kData.data(), kData.size(), 1000, ByteOrder::kLittle), with_fields ? &fields : nullptr);
    uint32_t a = 0;
    int32_t b = 0;
    uint64_t c = 0;
    std::string s;
    EXPECT_TRUE(r.U32("a", &a));
    EXPECT_TRUE(r.I32("b", &b));
    EXPECT_TRUE(r.U64("c", &c, Fmt::kHex));
    EXPECT_TRUE(r.StrRest("s", &s));
    EXPECT_EQ(a, 42u);
    EXPECT_EQ(b, -1);
    EXPECT_EQ(c, 16u);
    EXPECT_EQ(s, "hi");
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.fielding(), with_fields);
    if (!with_fields) {
      EXPECT_TRUE(fields.empty());
      continue;
    }
    ASSERT_EQ(fields.size(), 4u);
    EXPECT_EQ(fields[0].name, "a");
    EXPECT_EQ(fields[0].offset, 1000u);
    EXPECT_EQ(fields[0].size, 4u);
    EXPECT_EQ(fields[0].value, "42");
    EXPECT_EQ(fields[1].value, "-1");
    EXPECT_EQ(fields[2].offset, 1008u);
    EXPECT_EQ(fields[2].value, "0x10");
    EXPECT_EQ(fields[3].name, "s");
    EXPECT_EQ(fields[3].size, 4u);  // the whole string area
    EXPECT_EQ(fields[3].value, "\"hi\"");
  }
}

TEST(FieldReader, StopsAtTheFirstShortMemberAndTellsItsProblemsOnce) {
  for (bool stay : {false, true}) {
    Problems p;
    p.stay = stay;
    std::vector<Field> fields;
    FieldReader r(ByteReader(kData.data(), 6, 0, ByteOrder::kLittle), &fields, &p);
    uint32_t a = 0, b = 7;
    uint16_t c = 7;
    EXPECT_TRUE(r.U32("a", &a));
    EXPECT_FALSE(r.U32("b", &b));
    EXPECT_EQ(b, 0u);  // a read that does not fit gives 0
    EXPECT_FALSE(r.U16("c", &c));  // would fit, but the reader has stopped
    EXPECT_EQ(c, 0u);
    EXPECT_TRUE(r.failed());
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(p.shorts.size(), 1u);
    EXPECT_EQ(p.shorts[0], "b needs 4 at 4, 2 left");
    EXPECT_EQ(fields.size(), 1u);
    EXPECT_EQ(r.reader().pos(), stay ? 4u : 6u);
  }
}

TEST(FieldReader, BigEndianValues) {
  const std::vector<uint8_t> be = {0x00, 0x00, 0x01, 0x00, 0xff, 0xfe};
  std::vector<Field> fields;
  FieldReader r(ByteReader(be.data(), be.size(), 0, ByteOrder::kBig), &fields);
  uint32_t a = 0;
  uint16_t b = 0;
  r.U32("a", &a);
  r.U16("b", &b, Fmt::kHex);
  EXPECT_EQ(a, 256u);
  EXPECT_EQ(fields[1].value, "0xfffe");
}

TEST(FieldReader, GroupsNestFieldsAndCoverWhatWasRead) {
  std::vector<Field> fields;
  FieldReader r(ByteReader(kData.data(), kData.size(), 0, ByteOrder::kLittle), &fields);
  {
    FieldReader::Group g(r, "pair", "two numbers");
    r.U32("first", nullptr);
    r.U32("second", nullptr);
    ASSERT_NE(g.parent(), nullptr);
  }
  r.U64("after", nullptr);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0].name, "pair");
  EXPECT_EQ(fields[0].size, 8u);
  ASSERT_EQ(fields[0].children.size(), 2u);
  EXPECT_EQ(fields[0].children[1].offset, 4u);
  EXPECT_EQ(fields[1].name, "after");
  // Without fields a group is nothing.
  FieldReader q(ByteReader(kData.data(), kData.size(), 0, ByteOrder::kLittle));
  FieldReader::Group g(q, "x", "");
  EXPECT_EQ(g.parent(), nullptr);
}

TEST(FieldReader, ExplicitParentOverloads) {
  std::vector<uint8_t> d = {1, 2, 0, 0, 0};
  Field parent{"p", 0, 0, "", {}};
  FieldReader r(ByteReader(d.data(), d.size(), 0, ByteOrder::kLittle));  // no target of its own
  uint8_t a = 0;
  uint32_t b = 0;
  EXPECT_TRUE(r.U8(parent, "a", &a));
  EXPECT_TRUE(r.U32(parent, "b", &b));
  EXPECT_EQ(b, 2u);
  ASSERT_EQ(parent.children.size(), 2u);
  EXPECT_EQ(parent.children[1].offset, 1u);
  EXPECT_FALSE(r.fielding());
}

TEST(FieldReader, StringsBlobsAndTheRest) {
  const std::string text("abcd\0\0\0\0", 8);
  Problems p;
  std::vector<Field> fields;
  FieldReader r(ByteReader(reinterpret_cast<const uint8_t*>(text.data()), 2, 0, ByteOrder::kLittle), &fields, &p);
  std::string s;
  EXPECT_TRUE(r.Str("name", 2, &s));  // no NUL in its area
  EXPECT_EQ(s, "ab");
  ASSERT_EQ(p.unterminated.size(), 1u);
  EXPECT_EQ(p.unterminated[0], "name@0/2");

  std::vector<Field> f2;
  FieldReader b(ByteReader(reinterpret_cast<const uint8_t*>(text.data()), 8, 0, ByteOrder::kLittle), &f2);
  const uint8_t* data = nullptr;
  EXPECT_TRUE(b.Blob("raw", 2, {}, &data));
  EXPECT_EQ(data[0], 'a');
  b.Rest();
  ASSERT_EQ(f2.size(), 2u);
  EXPECT_EQ(f2[0].value, "2 bytes");
  EXPECT_EQ(f2[1].name, "unparsed");  // "cd" is not all zero
  EXPECT_EQ(f2[1].size, 6u);

  std::vector<Field> f3;
  FieldReader z(ByteReader(reinterpret_cast<const uint8_t*>(text.data()) + 4, 4, 4, ByteOrder::kLittle), &f3);
  z.Rest(" (note)");
  ASSERT_EQ(f3.size(), 1u);
  EXPECT_EQ(f3[0].name, "padding");
  EXPECT_EQ(f3[0].value, "4 bytes (note)");
}

}  // namespace
}  // namespace profscope
