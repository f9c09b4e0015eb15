// The DWARF debug-info reader (core/format/elf/dwarf_info.h) on hand-built
// .debug_info/.debug_abbrev/.debug_ranges (DWARF 4) and .debug_rnglists/
// .debug_str_offsets/.debug_addr/.debug_line_str (DWARF 5), in both byte
// orders: which functions hold an address, innermost first, and their
// names by bfd's rules; every truncation is a problem, never a crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/format/elf/dwarf_forms.h"
#include "core/format/elf/dwarf_info.h"
#include "tests/unit/cfi_test_builder.h"

namespace {

using profscope::ByteOrder;
using profscope::elf::DwarfInfo;
using profscope::elf::DwarfSections;
using profscope::elf::InlineFrame;

struct W {
  ByteOrder o;
  std::vector<uint8_t> b;
  void u8(uint64_t v) { b.push_back(static_cast<uint8_t>(v)); }
  void n(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      const int sh = o == ByteOrder::kLittle ? 8 * i : 8 * (bytes - 1 - i);
      b.push_back(static_cast<uint8_t>(v >> sh));
    }
  }
  void u16(uint64_t v) { n(v, 2); }
  void u32(uint64_t v) { n(v, 4); }
  void u64(uint64_t v) { n(v, 8); }
  void uleb(uint64_t v) { profscope::unwind::test::Uleb(b, v); }
  void sleb(int64_t v) { profscope::unwind::test::Sleb(b, v); }
  void str(const std::string& s) {
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
  }
  size_t pos() const { return b.size(); }
  void patch32(size_t at, uint64_t v) {
    W t{o, {}};
    t.u32(v);
    for (int i = 0; i < 4; ++i) b[at + i] = t.b[i];
  }
};

// abbrev: code, tag, children, (attr, form[, implicit])...
void Abbrev(W& a, uint32_t code, uint32_t tag, bool children, std::vector<std::vector<int64_t>> attrs) {
  a.uleb(code);
  a.uleb(tag);
  a.u8(children ? 1 : 0);
  for (const auto& at : attrs) {
    a.uleb(static_cast<uint64_t>(at[0]));
    a.uleb(static_cast<uint64_t>(at[1]));
    if (at[1] == 0x21) a.sleb(at[2]);
  }
  a.u8(0);
  a.u8(0);
}

// list1's offset in the DWARF 5 .debug_rnglists built above: header 12,
// offset table 4, list 0 = 1+1+1 (startx_length) + 1+8 (base_address) +
// 1+1+1 (offset_pair) + 1 (end) = 16 -> 32.
constexpr uint32_t kV5List1 = 12 + 4 + 16;

// The tree both versions encode:
//   CU [0x1000, 0x1100) C++
//     subprogram "outer" [0x1000, 0x1100)
//       inlined_subroutine -> "mid" (linkage name _Z3midv) [0x1010, 0x1050)
//         lexical_block ranges {[0x1020,0x1030), [0x1040,0x1048)}
//           inlined_subroutine -> Y -> (specification) "leaf"  ranges {[0x1022,0x1026)}
//     subprogram "mid" / "_Z3midv" (abstract)
//     subprogram Y: specification -> Z
//     subprogram Z "leaf" (declaration)
DwarfSections Build(int version, ByteOrder o) {
  DwarfSections s;
  s.order = o;
  W info{o, {}}, ab{o, {}}, str{o, {}}, rng{o, {}}, stro{o, {}}, addr{o, {}}, lstr{o, {}};
  const bool v5 = version == 5;
  // Abbreviations.
  if (v5) {
    Abbrev(ab, 1, 0x11, true, {{0x13, 0x21, 4}, {0x11, 0x1b}, {0x12, 0x06}, {0x72, 0x17}, {0x73, 0x17}, {0x74, 0x17}});
    Abbrev(ab, 2, 0x2e, true, {{0x03, 0x1f}, {0x11, 0x1b}, {0x12, 0x06}});
    Abbrev(ab, 3, 0x2e, false, {{0x03, 0x25}, {0x6e, 0x25}, {0x20, 0x0b}});
    Abbrev(ab, 4, 0x1d, true, {{0x31, 0x13}, {0x11, 0x1b}, {0x12, 0x06}});
    Abbrev(ab, 5, 0x0b, true, {{0x55, 0x23}});
    Abbrev(ab, 6, 0x1d, false, {{0x31, 0x13}, {0x55, 0x17}});
    Abbrev(ab, 8, 0x2e, false, {{0x47, 0x13}, {0x3f, 0x19}});  // codes need not be dense
    Abbrev(ab, 9, 0x2e, false, {{0x03, 0x08}, {0x3c, 0x19}});
  } else {
    Abbrev(ab, 1, 0x11, true, {{0x13, 0x0b}, {0x11, 0x01}, {0x12, 0x06}});
    Abbrev(ab, 2, 0x2e, true, {{0x03, 0x08}, {0x11, 0x01}, {0x12, 0x06}});
    Abbrev(ab, 3, 0x2e, false, {{0x03, 0x0e}, {0x6e, 0x0e}, {0x20, 0x0b}});
    Abbrev(ab, 4, 0x1d, true, {{0x31, 0x13}, {0x11, 0x01}, {0x12, 0x06}});
    Abbrev(ab, 5, 0x0b, true, {{0x55, 0x17}});
    Abbrev(ab, 6, 0x1d, false, {{0x31, 0x13}, {0x55, 0x17}});
    Abbrev(ab, 8, 0x2e, false, {{0x47, 0x13}, {0x3f, 0x19}});
    Abbrev(ab, 9, 0x2e, false, {{0x03, 0x08}, {0x3c, 0x19}});
  }
  ab.u8(0);
  // Strings.
  str.str("unused");
  const uint64_t s_mid = str.pos();
  str.str("mid");
  const uint64_t s_midl = str.pos();
  str.str("_Z3midv");
  lstr.str("outer");
  // DWARF 5 tables: str_offsets (header then 2 entries), addr (header then 3), rnglists.
  if (v5) {
    stro.u32(4 + 2 * 4);
    stro.u16(5);
    stro.u16(0);
    stro.u32(s_mid);
    stro.u32(s_midl);
    addr.u32(4 + 3 * 8);
    addr.u16(5);
    addr.u8(8);
    addr.u8(0);
    addr.u64(0x1000);
    addr.u64(0x1010);
    addr.u64(0x1020);
    // rnglists: header (12 bytes), offset table with 1 entry, list 0 (for the
    // lexical block, via rnglistx), list 1 (for the leaf, via sec_offset).
    const size_t hdr = rng.pos();
    rng.u32(0);  // patched
    rng.u16(5);
    rng.u8(8);
    rng.u8(0);
    rng.u32(1);
    const size_t table = rng.pos();
    rng.u32(0);  // patched: list 0 relative to the table
    const size_t list0 = rng.pos();
    rng.u8(3);   // startx_length
    rng.uleb(2); // 0x1020
    rng.uleb(0x10);
    rng.u8(5);   // base_address
    rng.u64(0x1000);
    rng.u8(4);   // offset_pair
    rng.uleb(0x40);
    rng.uleb(0x48);
    rng.u8(0);
    const size_t list1 = rng.pos();
    rng.u8(7);   // start_length
    rng.u64(0x1022);
    rng.uleb(4);
    rng.u8(0);
    rng.patch32(hdr, rng.pos() - 4);
    rng.patch32(table, list0 - table);
    s.rnglists = rng.b;
    // The leaf's DW_AT_ranges (sec_offset) is list1's offset.
    (void)list1;
  } else {
    // .debug_ranges: list at 0 relative to the CU base 0x1000; list at 48 with a base selection.
    rng.u64(0x20); rng.u64(0x30);
    rng.u64(0x40); rng.u64(0x48);
    rng.u64(0); rng.u64(0);
    rng.u64(~uint64_t{0}); rng.u64(0x1020);
    rng.u64(0x2); rng.u64(0x6);
    rng.u64(0); rng.u64(0);
    s.ranges = rng.b;
  }
  // .debug_info.
  const size_t len_at = info.pos();
  info.u32(0);  // patched
  info.u16(static_cast<uint64_t>(version));
  if (v5) {
    info.u8(1);  // DW_UT_compile
    info.u8(8);
    info.u32(0);
  } else {
    info.u32(0);
    info.u8(8);
  }
  std::vector<std::pair<size_t, int>> refs;  // (patch position, target id)
  std::vector<size_t> target(4, 0);
  // CU
  info.uleb(1);
  if (v5) {
    info.uleb(0);        // low_pc addrx 0 = 0x1000
    info.u32(0x100);
    info.u32(8);         // str_offsets_base
    info.u32(8);         // addr_base
    info.u32(12);        // rnglists_base
  } else {
    info.u8(4);          // DW_LANG_C_plus_plus
    info.u64(0x1000);
    info.u32(0x100);
  }
  // outer
  info.uleb(2);
  if (v5) { info.u32(0); info.uleb(0); info.u32(0x100); }
  else { info.str("outer"); info.u64(0x1000); info.u32(0x100); }
  //   inlined mid
  info.uleb(4);
  refs.push_back({info.pos(), 1});
  info.u32(0);
  if (v5) info.uleb(1); else info.u64(0x1010);
  info.u32(0x40);
  //     lexical block
  info.uleb(5);
  if (v5) info.uleb(0); else info.u32(0);
  //       inlined leaf
  info.uleb(6);
  refs.push_back({info.pos(), 2});
  info.u32(0);
  info.u32(v5 ? kV5List1 : 48);
  info.u8(0);  // end of lexical block's children
  info.u8(0);  // end of mid's children
  info.u8(0);  // end of outer's children
  // mid (abstract)
  target[1] = info.pos();
  info.uleb(3);
  if (v5) { info.u8(0); info.u8(1); } else { info.u32(s_mid); info.u32(s_midl); }
  info.u8(1);
  // Y: specification -> Z
  target[2] = info.pos();
  info.uleb(8);
  refs.push_back({info.pos(), 3});
  info.u32(0);
  // Z
  target[3] = info.pos();
  info.uleb(9);
  info.str("leaf");
  info.u8(0);  // end of CU children
  info.patch32(len_at, info.pos() - 4);
  for (const auto& [at, id] : refs) info.patch32(at, target[static_cast<size_t>(id)]);
  s.info = info.b;
  s.abbrev = ab.b;
  s.str = str.b;
  s.str_offsets = stro.b;
  s.addr = addr.b;
  s.line_str = lstr.b;
  return s;
}

std::vector<std::string> Names(DwarfInfo& d, uint64_t a, std::vector<bool>* linkage = nullptr) {
  std::vector<InlineFrame> out;
  std::vector<std::string> names;
  if (!d.Lookup(a, &out)) return names;
  for (const auto& f : out) {
    names.push_back(f.name);
    if (linkage) linkage->push_back(f.linkage);
  }
  return names;
}

class DwarfInfoTest : public ::testing::TestWithParam<std::tuple<int, ByteOrder>> {};

TEST_P(DwarfInfoTest, FindsInlinedFunctionsInnermostFirst) {
  auto [version, order] = GetParam();
  DwarfSections s = Build(version, order);
  if (version == 5) {
    // Point the leaf's sec_offset at list 1.
    ASSERT_EQ(s.rnglists.size(), kV5List1 + 1 + 8 + 1 + 1);
  }
  DwarfInfo d(s);
  std::vector<bool> linkage;
  EXPECT_EQ(Names(d, 0x1023, &linkage), (std::vector<std::string>{"leaf", "_Z3midv", "outer"}));
  // C++ unit: a plain DW_AT_name is not a linkage name; DW_AT_linkage_name is.
  EXPECT_EQ(linkage, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(Names(d, 0x1045), (std::vector<std::string>{"_Z3midv", "outer"}));  // the block's second range
  EXPECT_EQ(Names(d, 0x1026), (std::vector<std::string>{"_Z3midv", "outer"}));  // high is exclusive
  EXPECT_EQ(Names(d, 0x1060), (std::vector<std::string>{"outer"}));
  EXPECT_EQ(Names(d, 0x1000), (std::vector<std::string>{"outer"}));
  EXPECT_TRUE(Names(d, 0x1100).empty());
  EXPECT_TRUE(Names(d, 0x0fff).empty());
  std::vector<InlineFrame> out;
  ASSERT_TRUE(d.Lookup(0x1024, &out));
  EXPECT_EQ(out[0].low, 0x1022u);
  EXPECT_EQ(out[1].low, 0x1010u);
  EXPECT_TRUE(d.problems().empty()) << d.problems()[0].message;
  EXPECT_EQ(d.units(), 1u);
}

TEST_P(DwarfInfoTest, EveryTruncationIsAProblemNotACrash) {
  auto [version, order] = GetParam();
  const DwarfSections full = Build(version, order);
  for (size_t n = 0; n < full.info.size(); ++n) {
    DwarfSections s = full;
    s.info.resize(n);
    DwarfInfo d(s);
    std::vector<InlineFrame> out;
    d.Lookup(0x1023, &out);
    d.Lookup(0x1045, &out);
    if (n > 0) EXPECT_FALSE(d.problems().empty()) << "info cut at " << n;
  }
  for (size_t n = 0; n < full.abbrev.size(); ++n) {
    DwarfSections s = full;
    s.abbrev.resize(n);
    DwarfInfo d(s);
    std::vector<InlineFrame> out;
    d.Lookup(0x1023, &out);
    EXPECT_FALSE(d.problems().empty()) << "abbrev cut at " << n;
  }
  for (auto sec : {&DwarfSections::ranges, &DwarfSections::rnglists, &DwarfSections::str, &DwarfSections::str_offsets,
                   &DwarfSections::addr, &DwarfSections::line_str}) {
    for (size_t n = 0; n < (full.*sec).size(); ++n) {
      DwarfSections s = full;
      (s.*sec).resize(n);
      DwarfInfo d(s);
      std::vector<InlineFrame> out;
      d.Lookup(0x1023, &out);  // answers what it can
      for (const auto& f : out) EXPECT_FALSE(f.name.empty());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(VersionsAndOrders, DwarfInfoTest,
                         ::testing::Combine(::testing::Values(4, 5), ::testing::Values(ByteOrder::kLittle, ByteOrder::kBig)),
                         [](const auto& info) {
                           return "v" + std::to_string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) == ByteOrder::kLittle ? "_little" : "_big");
                         });

TEST(DwarfInfo, CUnitsNameFunctionsByTheirLinkageName) {
  DwarfSections s = Build(4, ByteOrder::kLittle);
  s.info[12] = 0x0c;  // DW_AT_language: DW_LANG_C99
  DwarfInfo d(s);
  std::vector<bool> linkage;
  EXPECT_EQ(Names(d, 0x1023, &linkage), (std::vector<std::string>{"leaf", "_Z3midv", "outer"}));
  EXPECT_EQ(linkage, (std::vector<bool>{true, true, true}));
}

TEST(DwarfInfo, MarkLinkageRenamesOnce) {
  DwarfInfo d(Build(4, ByteOrder::kLittle));
  std::vector<InlineFrame> out;
  ASSERT_TRUE(d.Lookup(0x1060, &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].linkage);
  const std::string sym = "outer_sym";
  d.MarkLinkage(out[0].func, &sym);
  ASSERT_TRUE(d.Lookup(0x1061, &out));
  EXPECT_EQ(out[0].name, "outer_sym");
  EXPECT_TRUE(out[0].linkage);
}

TEST(DwarfInfo, ReferenceCyclesAndDeepNestingAreCapped) {
  // A subprogram whose specification points at itself.
  W ab{ByteOrder::kLittle, {}}, info{ByteOrder::kLittle, {}};
  Abbrev(ab, 1, 0x11, true, {{0x11, 0x01}, {0x12, 0x06}});
  Abbrev(ab, 2, 0x2e, true, {{0x47, 0x13}, {0x11, 0x01}, {0x12, 0x06}});
  ab.u8(0);
  info.u32(0);
  info.u16(4);
  info.u32(0);
  info.u8(8);
  info.uleb(1);
  info.u64(0x1000);
  info.u32(0x100);
  // 600 nested subprograms, each its own specification.
  for (int i = 0; i < 600; ++i) {
    const size_t self = info.pos();
    info.uleb(2);
    info.u32(self);
    info.u64(0x1000);
    info.u32(0x100 - static_cast<uint32_t>(i) / 4);
  }
  info.patch32(0, info.pos() - 4);
  DwarfSections s;
  s.info = info.b;
  s.abbrev = ab.b;
  DwarfInfo d(s);
  std::vector<InlineFrame> out;
  d.Lookup(0x1001, &out);
  bool depth = false, refs = false;
  for (const auto& p : d.problems()) {
    depth = depth || p.message.find("nest deeper") != std::string::npos;
    refs = refs || p.message.find("chain more than") != std::string::npos;
  }
  EXPECT_TRUE(depth);
  EXPECT_TRUE(refs);
}

TEST(DwarfInfo, MemoryCapStopsReadingUnits) {
  profscope::elf::DwarfLimits lim;
  lim.max_bytes = 64;
  DwarfInfo d(Build(4, ByteOrder::kLittle), lim);
  std::vector<InlineFrame> out;
  d.Lookup(0x1023, &out);
  ASSERT_FALSE(d.problems().empty());
  EXPECT_NE(d.problems().back().message.find("MiB"), std::string::npos);
}

TEST(DwarfForms, EveryFormHasItsSize) {
  profscope::elf::dwarf::Unit u;
  u.version = 5;
  u.address_size = 8;
  struct Case { uint32_t form; std::vector<uint8_t> bytes; size_t used; };
  const std::vector<Case> cases = {
      {0x01, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 8}, {0x03, {2, 0, 9, 9, 9}, 4}, {0x04, {1, 0, 0, 0, 9, 9}, 5},
      {0x05, {1, 2, 3}, 2}, {0x06, {1, 2, 3, 4, 5}, 4}, {0x07, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 8},
      {0x08, {'a', 'b', 0, 9}, 3}, {0x09, {2, 9, 9, 9}, 3}, {0x0a, {1, 9, 9}, 2}, {0x0b, {1, 2}, 1},
      {0x0c, {1, 2}, 1}, {0x0d, {0x7f, 9}, 1}, {0x0e, {1, 2, 3, 4, 5}, 4}, {0x0f, {0x80, 0x01, 9}, 2},
      {0x10, {1, 2, 3, 4, 5}, 4}, {0x11, {1, 2}, 1}, {0x12, {1, 2, 3}, 2}, {0x13, {1, 2, 3, 4, 5}, 4},
      {0x14, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 8}, {0x15, {0x81, 0x01, 9}, 2}, {0x16, {0x0b, 7, 9}, 2},
      {0x17, {1, 2, 3, 4, 5}, 4}, {0x18, {1, 9, 9}, 2}, {0x19, {9}, 0}, {0x1a, {5, 9}, 1}, {0x1b, {5, 9}, 1},
      {0x1c, {1, 2, 3, 4, 5}, 4}, {0x1d, {1, 2, 3, 4, 5}, 4},
      {0x1e, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, 16}, {0x1f, {1, 2, 3, 4, 5}, 4},
      {0x20, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 8}, {0x21, {9}, 0}, {0x22, {5, 9}, 1}, {0x23, {5, 9}, 1},
      {0x24, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 8}, {0x25, {1, 2}, 1}, {0x26, {1, 2, 3}, 2}, {0x27, {1, 2, 3, 4}, 3},
      {0x28, {1, 2, 3, 4, 5}, 4}, {0x29, {1, 2}, 1}, {0x2a, {1, 2, 3}, 2}, {0x2b, {1, 2, 3, 4}, 3},
      {0x2c, {1, 2, 3, 4, 5}, 4}, {0x1f01, {5, 9}, 1}, {0x1f02, {5, 9}, 1}, {0x1f20, {1, 2, 3, 4, 5}, 4},
      {0x1f21, {1, 2, 3, 4, 5}, 4},
  };
  for (const auto& c : cases) {
    profscope::ByteReader r(c.bytes.data(), c.bytes.size(), 0, ByteOrder::kLittle);
    profscope::elf::dwarf::Value v;
    EXPECT_TRUE(profscope::elf::dwarf::ReadValue(r, c.form, 0, u, &v)) << std::hex << c.form;
    EXPECT_EQ(r.pos(), c.used) << std::hex << c.form;
    // Every shorter input fails cleanly.
    for (size_t n = 0; n < c.used; ++n) {
      profscope::ByteReader t(c.bytes.data(), n, 0, ByteOrder::kLittle);
      EXPECT_FALSE(profscope::elf::dwarf::ReadValue(t, c.form, 0, u, &v)) << std::hex << c.form << " cut at " << n;
    }
  }
  profscope::ByteReader r(nullptr, 0, 0, ByteOrder::kLittle);
  profscope::elf::dwarf::Value v;
  EXPECT_FALSE(profscope::elf::dwarf::ReadValue(r, 0x99, 0, u, &v));  // unknown form
}

}  // namespace
