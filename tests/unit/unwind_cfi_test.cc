// core/unwind's CFI layers, on sections written here: LEB128 and every
// DW_EH_PE pointer encoding, CIE/FDE parsing (.eh_frame and .debug_frame,
// both byte orders, 32- and 64-bit DWARF, CIE versions 1/3/4, every
// augmentation), every DW_CFA_* instruction, the DWARF expression evaluator,
// the .eh_frame_hdr binary search and the sorted FDE index, and every
// truncation of an entry (an error, never a crash).
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "core/unwind/cfa_program.h"
#include "core/unwind/cfi_entries.h"
#include "core/unwind/dwarf_expression.h"
#include "core/unwind/dwarf_read.h"
#include "core/unwind/eh_frame_hdr.h"
#include "core/unwind/fde_index.h"
#include "tests/unit/cfi_test_builder.h"

using namespace profscope;
using namespace profscope::unwind;
using namespace profscope::unwind::test;

namespace {

constexpr uint8_t kOpBreg7 = kOpBreg0 + 7, kOpBreg16 = kOpBreg0 + 16;

ByteReader R(const Bytes& b, ByteOrder o = ByteOrder::kLittle) { return ByteReader(b.data(), b.size(), 0, o); }

CfiSection Section(const Bytes& b, bool eh, uint64_t address, ByteOrder o = ByteOrder::kLittle, uint8_t asize = 8) {
  CfiSection s;
  s.data = b.data();
  s.size = b.size();
  s.address = address;
  s.eh_frame = eh;
  s.order = o;
  s.address_size = asize;
  return s;
}

// --- LEB128 and pointer encodings -------------------------------------------

TEST(DwarfRead, Leb128) {
  Bytes b = {0xe5, 0x8e, 0x26, 0x7f, 0x80, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  ByteReader r = R(b);
  EXPECT_EQ(ReadUleb128(r), 624485u);
  EXPECT_EQ(ReadSleb128(r), -1);
  EXPECT_EQ(ReadSleb128(r), -128);
  EXPECT_EQ(ReadUleb128(r), ~uint64_t{0});  // 10 bytes
  EXPECT_TRUE(r.ok());
  // 11 continuation bytes: too long.
  Bytes longer(11, 0x80);
  longer.push_back(0);
  ByteReader l = R(longer);
  ReadUleb128(l);
  EXPECT_FALSE(l.ok());
  // Truncated.
  Bytes cut = {0x80, 0x80};
  ByteReader c = R(cut);
  EXPECT_EQ(ReadSleb128(c), 0);
  EXPECT_FALSE(c.ok());
}

TEST(DwarfRead, EveryPointerFormatInBothByteOrders) {
  for (ByteOrder o : {ByteOrder::kLittle, ByteOrder::kBig}) {
    CfiBuilder w(o, true, 0);
    struct Case { uint8_t enc; uint64_t value; uint64_t want; uint8_t asize; };
    const Case cases[] = {
        {kPeAbsptr, 0x1122334455667788ULL, 0x1122334455667788ULL, 8},
        {kPeAbsptr, 0x11223344, 0x11223344, 4},
        {kPeUleb128, 300, 300, 8},
        {kPeUdata2, 0xfffe, 0xfffe, 8},
        {kPeUdata4, 0xfffffffe, 0xfffffffe, 8},
        {kPeUdata8, 0xfffffffffffffffeULL, 0xfffffffffffffffeULL, 8},
        {kPeSleb128, static_cast<uint64_t>(-300), static_cast<uint64_t>(-300), 8},
        {kPeSdata2, 0xfffe, static_cast<uint64_t>(-2), 8},
        {kPeSdata4, 0xfffffffe, static_cast<uint64_t>(-2), 8},
        {kPeSdata8, static_cast<uint64_t>(-2), static_cast<uint64_t>(-2), 8},
        {kPeSigned, 0xfffffffe, 0xfffffffe, 4},  // truncated to the 4-byte address size
    };
    for (const auto& c : cases) {
      CfiBuilder wb(o, true, 0, false, c.asize);
      Bytes b = wb.Value(c.enc, c.value);
      ByteReader r = R(b, o);
      PointerBases bases;
      bases.address_size = c.asize;
      uint64_t v = 0;
      ASSERT_EQ(ReadEncodedPointer(r, c.enc, bases, &v), PointerStatus::kOk) << int(c.enc);
      EXPECT_EQ(v, c.want) << "enc " << int(c.enc);
      EXPECT_TRUE(r.at_end()) << "enc " << int(c.enc);
      // Every truncation of the value fails.
      for (size_t n = 0; n < b.size(); ++n) {
        ByteReader t(b.data(), n, 0, o);
        EXPECT_EQ(ReadEncodedPointer(t, c.enc, bases, &v), PointerStatus::kTruncated) << int(c.enc) << " cut " << n;
      }
    }
    (void)w;
  }
}

TEST(DwarfRead, PointerApplicationsAndIndirect) {
  PointerBases b;
  b.section_address = 0x1000;
  b.text = 0x4000;
  b.has_text = true;
  b.data = 0x8000;
  b.has_data = true;
  b.func = 0x9000;
  b.has_func = true;
  Bytes v = {0, 0, 0x10, 0, 0, 0};  // two bytes of padding, then sdata4 0x10 at offset 2
  uint64_t out;
  auto at2 = [&](uint8_t enc) {
    ByteReader r = R(v);
    r.Skip(2);
    EXPECT_EQ(ReadEncodedPointer(r, enc, b, &out), PointerStatus::kOk) << int(enc);
    return out;
  };
  EXPECT_EQ(at2(kPeSdata4 | kPePcrel), 0x1000u + 2 + 0x10);
  EXPECT_EQ(at2(kPeSdata4 | kPeTextrel), 0x4010u);
  EXPECT_EQ(at2(kPeSdata4 | kPeDatarel), 0x8010u);
  EXPECT_EQ(at2(kPeSdata4 | kPeFuncrel), 0x9010u);
  // Aligned: the value sits at the next 8-byte boundary and is absolute.
  Bytes al(16, 0);
  al[8] = 0x42;
  ByteReader ra = R(al);
  ra.Skip(3);
  ASSERT_EQ(ReadEncodedPointer(ra, kPeAligned, b, &out), PointerStatus::kOk);
  EXPECT_EQ(out, 0x42u);
  EXPECT_EQ(ra.pos(), 16u);
  // Indirect: the value is the address of the pointer.
  b.read_word = [](uint64_t a, uint64_t* w) { if (a != 0x8010) return false; *w = 0xdead; return true; };
  EXPECT_EQ(at2(kPeSdata4 | kPeDatarel | kPeIndirect), 0xdeadu);
  b.read_word = nullptr;
  ByteReader ri = R(v);
  ri.Skip(2);
  EXPECT_EQ(ReadEncodedPointer(ri, kPeSdata4 | kPeDatarel | kPeIndirect, b, &out), PointerStatus::kIndirectUnreadable);
  // Omitted, unknown format, unknown application, a base that is not there.
  ByteReader r0 = R(v);
  EXPECT_EQ(ReadEncodedPointer(r0, kPeOmit, b, &out), PointerStatus::kOmitted);
  EXPECT_EQ(ReadEncodedPointer(r0, 0x05, b, &out), PointerStatus::kBadEncoding);
  EXPECT_EQ(ReadEncodedPointer(r0, 0x60 | kPeUdata4, b, &out), PointerStatus::kBadEncoding);
  PointerBases none;
  EXPECT_EQ(ReadEncodedPointer(r0, kPeTextrel | kPeUdata4, none, &out), PointerStatus::kBadEncoding);
}

// --- CIEs and FDEs ----------------------------------------------------------

struct Layout {
  bool eh;
  ByteOrder order;
  bool dwarf64;
  uint8_t version;
};

class CfiEntries : public ::testing::TestWithParam<Layout> {};

TEST_P(CfiEntries, CieAndFdeRoundTrip) {
  const Layout l = GetParam();
  const uint64_t addr = 0x10000;
  CfiBuilder b(l.order, l.eh, addr, l.dwarf64);
  CieSpec spec;
  spec.version = l.version;
  spec.aug = l.eh ? "zPLRS" : "";
  spec.personality = true;
  spec.ra = 16;
  spec.data_align = -8;
  spec.code_align = 4;
  size_t cie = b.Cie(spec, {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1});
  size_t f1 = b.Fde(cie, 0x401000, 0x80, {kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 16});
  size_t f2 = b.Fde(cie, 0x401080, 0x20, {});
  Bytes bytes = b.Finish();
  CfiSection s = Section(bytes, l.eh, addr, l.order);
  Cie c;
  ASSERT_EQ(ParseCie(s, cie, &c), CfiError::kNone);
  EXPECT_EQ(c.version, l.version);
  EXPECT_EQ(c.code_align, 4u);
  EXPECT_EQ(c.data_align, -8);
  EXPECT_EQ(c.ra_register, 16u);
  EXPECT_EQ(c.signal_frame, l.eh);
  EXPECT_EQ(c.has_z, l.eh);
  ASSERT_EQ(c.instructions_size >= 5, true);
  EXPECT_EQ(c.instructions[0], kCfaDefCfa);
  for (size_t f : {f1, f2}) {
    EntryHeader h;
    ASSERT_EQ(ReadEntryHeader(s, f, &h), CfiError::kNone);
    EXPECT_FALSE(h.is_cie);
    EXPECT_EQ(h.cie_offset, cie);
    EXPECT_EQ(h.dwarf64, l.dwarf64);
    Fde fde;
    ASSERT_EQ(ParseFde(s, h, c, &fde), CfiError::kNone);
    EXPECT_EQ(fde.pc_begin, f == f1 ? 0x401000u : 0x401080u);
    EXPECT_EQ(fde.pc_end, f == f1 ? 0x401080u : 0x4010a0u);
  }
  // An FDE's CIE pointer at an FDE is refused; a CIE is not an FDE.
  Cie bad;
  EXPECT_EQ(ParseCie(s, f1, &bad), CfiError::kNotACie);
  EntryHeader hc;
  ASSERT_EQ(ReadEntryHeader(s, cie, &hc), CfiError::kNone);
  Fde nf;
  EXPECT_EQ(ParseFde(s, hc, c, &nf), CfiError::kNotACie);
  // The index finds both.
  FdeIndex idx;
  idx.Build(s, 100);
  EXPECT_EQ(idx.size(), 2u);
  uint64_t off;
  ASSERT_TRUE(idx.Lookup(0x401010, &off));
  EXPECT_EQ(off, f1);
  ASSERT_TRUE(idx.Lookup(0x40109f, &off));
  EXPECT_EQ(off, f2);
  EXPECT_FALSE(idx.Lookup(0x4010a0, &off));
  EXPECT_FALSE(idx.Lookup(0x400fff, &off));
  // Every truncation of the section: errors, never a crash, never a wrong FDE.
  for (size_t n = 0; n < bytes.size(); ++n) {
    CfiSection t = Section(bytes, l.eh, addr, l.order);
    t.size = n;
    Cie tc;
    CfiError e = ParseCie(t, cie, &tc);
    if (e == CfiError::kNone) {
      EXPECT_GE(n, f1) << "a CIE parsed though cut inside it at " << n;
    }
    EntryHeader th;
    if (ReadEntryHeader(t, f1, &th) == CfiError::kNone) {
      Fde tf;
      if (ParseFde(t, th, c, &tf) == CfiError::kNone) EXPECT_EQ(tf.pc_begin, 0x401000u);
      EXPECT_LE(th.end, n);
    }
    FdeIndex ti;
    ti.Build(t, 100);
    EXPECT_LE(ti.size(), 2u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllLayouts, CfiEntries,
    ::testing::Values(Layout{true, ByteOrder::kLittle, false, 1}, Layout{true, ByteOrder::kBig, false, 1},
                      Layout{true, ByteOrder::kLittle, true, 3}, Layout{true, ByteOrder::kBig, false, 3},
                      Layout{false, ByteOrder::kLittle, false, 1}, Layout{false, ByteOrder::kBig, false, 3},
                      Layout{false, ByteOrder::kLittle, true, 4}, Layout{false, ByteOrder::kBig, true, 4}),
    [](const auto& info) {
      const Layout& l = info.param;
      return std::string(l.eh ? "EhFrame" : "DebugFrame") + (l.order == ByteOrder::kBig ? "Big" : "Little") +
             (l.dwarf64 ? "Dwarf64" : "Dwarf32") + "V" + std::to_string(l.version);
    });

TEST(CfiEntries, Augmentations) {
  auto parse = [](const std::string& aug, Cie* c) {
    CfiBuilder b(ByteOrder::kLittle, true, 0);
    CieSpec s;
    s.aug = aug;
    size_t at = b.Cie(s, {kCfaNop});
    Bytes bytes = b.Finish();
    CfiSection sec = Section(bytes, true, 0);
    return ParseCie(sec, at, c);
  };
  Cie c;
  ASSERT_EQ(parse("zRB", &c), CfiError::kNone);
  EXPECT_TRUE(c.b_key);
  ASSERT_EQ(parse("zRG", &c), CfiError::kNone);
  EXPECT_TRUE(c.mte_tagged);
  ASSERT_EQ(parse("zLR", &c), CfiError::kNone);
  EXPECT_EQ(c.lsda_encoding, kPeSdata4 | kPePcrel);
  ASSERT_EQ(parse("", &c), CfiError::kNone);
  EXPECT_FALSE(c.has_z);
  // Unknown letters after 'z' are skipped (the length says where the data ends).
  ASSERT_EQ(parse("zRX", &c), CfiError::kNone);
  // Without 'z' an unknown augmentation cannot be skipped.
  EXPECT_EQ(parse("X", &c), CfiError::kBadAugmentation);
  // "eh": an address-sized pointer follows the augmentation (old GCC).
  Bytes eh = {0, 0, 0, 0, 0, 0, 0, 0, 1, 'e', 'h', 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0x78, 16, kCfaNop};
  eh[0] = static_cast<uint8_t>(eh.size() - 4);
  eh.resize(eh.size() + 4, 0);  // the terminator
  CfiSection s = Section(eh, true, 0);
  ASSERT_EQ(ParseCie(s, 0, &c), CfiError::kNone);
  EXPECT_EQ(c.data_align, -8);
  EXPECT_EQ(c.ra_register, 16u);
  EXPECT_EQ(c.instructions_size, 1u);
  // A version this reader does not know; a bad v4 address size.
  CfiBuilder b2(ByteOrder::kLittle, false, 0);
  CieSpec v2;
  v2.version = 2;
  v2.aug = "";
  size_t at2 = b2.Cie(v2, {});
  CieSpec v4;
  v4.version = 4;
  v4.aug = "";
  v4.address_size = 3;
  size_t at4 = b2.Cie(v4, {});
  Bytes bytes2 = b2.Finish();
  CfiSection s2 = Section(bytes2, false, 0);
  EXPECT_EQ(ParseCie(s2, at2, &c), CfiError::kBadVersion);
  EXPECT_EQ(ParseCie(s2, at4, &c), CfiError::kBadAddressSize);
}

TEST(CfiEntries, HostileLengthsAndPointers) {
  // A length beyond the section, a reserved length, a CIE pointer before the section.
  Bytes big = {0xf0, 0xff, 0xff, 0x0f, 0, 0, 0, 0};
  EntryHeader h;
  EXPECT_EQ(ReadEntryHeader(Section(big, true, 0), 0, &h), CfiError::kBadLength);
  Bytes reserved = {0xf0, 0xff, 0xff, 0xff, 0, 0, 0, 0};
  EXPECT_EQ(ReadEntryHeader(Section(reserved, true, 0), 0, &h), CfiError::kBadLength);
  Bytes before = {8, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0};  // pointer 16 back from offset 4
  EXPECT_EQ(ReadEntryHeader(Section(before, true, 0), 0, &h), CfiError::kBadCiePointer);
  Bytes dbg = {8, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0};  // .debug_frame CIE offset 64 > size
  EXPECT_EQ(ReadEntryHeader(Section(dbg, false, 0), 0, &h), CfiError::kBadCiePointer);
  // An FDE pointing at itself (a "cycle"): the target is not a CIE.
  Bytes self = {8, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0};  // id 4: back to offset 0, itself
  CfiSection s = Section(self, true, 0);
  ASSERT_EQ(ReadEntryHeader(s, 0, &h), CfiError::kNone);
  Cie c;
  EXPECT_EQ(ParseCie(s, h.cie_offset, &c), CfiError::kNotACie);
  FdeIndex idx;
  idx.Build(s, 10);
  EXPECT_EQ(idx.size(), 0u);
  EXPECT_EQ(idx.skipped(), 1u);
  // 64-bit length that does not fit.
  Bytes l64 = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  EXPECT_EQ(ReadEntryHeader(Section(l64, true, 0), 0, &h), CfiError::kBadLength);
  // Terminator.
  Bytes zero = {0, 0, 0, 0};
  EXPECT_EQ(ReadEntryHeader(Section(zero, true, 0), 0, &h), CfiError::kTerminator);
}

// --- CFA programs -----------------------------------------------------------

struct Prog {
  Bytes bytes;
  CfiSection s;
  Cie cie;
  Fde fde;
};

// One CIE (x86_64 style: CFA = rsp+8, RA at CFA-8) and one FDE at [0x1000, 0x1100).
Prog Make(const Bytes& fde_ins, const Bytes& cie_ins = {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1},
          uint64_t code_align = 1, int64_t data_align = -8, ByteOrder o = ByteOrder::kLittle, bool eh = true) {
  Prog p;
  CfiBuilder b(o, eh, 0x5000);
  CieSpec spec;
  spec.aug = eh ? "zR" : "";
  spec.code_align = code_align;
  spec.data_align = data_align;
  size_t cie = b.Cie(spec, cie_ins);
  size_t f = b.Fde(cie, 0x1000, 0x100, fde_ins);
  p.bytes = b.Finish();
  p.s = Section(p.bytes, eh, 0x5000, o);
  EXPECT_EQ(ParseCie(p.s, cie, &p.cie), CfiError::kNone);
  EntryHeader h;
  EXPECT_EQ(ReadEntryHeader(p.s, f, &h), CfiError::kNone);
  EXPECT_EQ(ParseFde(p.s, h, p.cie, &p.fde), CfiError::kNone);
  return p;
}

CfiError Row(const Prog& p, uint64_t pc, UnwindRow* row, Arch arch = Arch::kX86_64) {
  CfaScratch scratch;
  return ComputeRow(p.s, p.cie, p.fde, pc, arch, &scratch, row);
}

TEST(CfaProgram, AdvanceAndDefCfaFamily) {
  for (ByteOrder o : {ByteOrder::kLittle, ByteOrder::kBig}) {
    for (bool eh : {true, false}) {
      Bytes ins = Cat({{kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 16},             // 0x1001: rsp+16
                       {kCfaAdvanceLoc1, 3, kCfaDefCfaRegister, 6},            // 0x1004: rbp+16
                       {kCfaAdvanceLoc2}, o == ByteOrder::kBig ? Bytes{0, 4} : Bytes{4, 0},  // 0x1008
                       {kCfaDefCfaSf, 7}, S(-3),                               // rsp + (-3 * -8) = rsp+24
                       {kCfaAdvanceLoc4}, o == ByteOrder::kBig ? Bytes{0, 0, 0, 8} : Bytes{8, 0, 0, 0},  // 0x1010
                       {kCfaDefCfaOffsetSf}, S(-4),                            // rsp+32
                       {kCfaAdvanceLoc | 16, kCfaDefCfa, 6}, U(48)});         // 0x1020: rbp+48
      Prog p = Make(ins, {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1}, 1, -8, o, eh);
      UnwindRow r;
      struct Want { uint64_t pc; uint16_t reg; int64_t off; uint64_t start, end; };
      for (const Want& w : {Want{0x1000, 7, 8, 0x1000, 0x1001}, Want{0x1001, 7, 16, 0x1001, 0x1004},
                            Want{0x1003, 7, 16, 0x1001, 0x1004}, Want{0x1004, 6, 16, 0x1004, 0x1008},
                            Want{0x1008, 7, 24, 0x1008, 0x1010}, Want{0x100f, 7, 24, 0x1008, 0x1010},
                            Want{0x1010, 7, 32, 0x1010, 0x1020}, Want{0x10ff, 6, 48, 0x1020, 0x1100}}) {
        ASSERT_EQ(Row(p, w.pc, &r), CfiError::kNone) << std::hex << w.pc;
        EXPECT_EQ(r.cfa.reg, w.reg) << std::hex << w.pc;
        EXPECT_EQ(r.cfa.offset, w.off) << std::hex << w.pc;
        EXPECT_EQ(r.start, w.start) << std::hex << w.pc;
        EXPECT_EQ(r.end, w.end) << std::hex << w.pc;
        EXPECT_EQ(r.regs[16].kind, RuleKind::kOffset);
        EXPECT_EQ(r.regs[16].offset, -8);
      }
    }
  }
}

TEST(CfaProgram, CodeAlignmentScalesAdvances) {
  Prog p = Make({kCfaAdvanceLoc | 2, kCfaDefCfaOffset, 32}, {kCfaDefCfa, 7, 8}, 4);
  UnwindRow r;
  ASSERT_EQ(Row(p, 0x1007, &r), CfiError::kNone);
  EXPECT_EQ(r.cfa.offset, 8);
  ASSERT_EQ(Row(p, 0x1008, &r), CfiError::kNone);
  EXPECT_EQ(r.cfa.offset, 32);
}

TEST(CfaProgram, RegisterRules) {
  Bytes ins = Cat({{kCfaOffset | 6, 2},                          // rbp at CFA-16
                   {kCfaOffsetExtended, 3}, U(3),                // rbx at CFA-24
                   {kCfaOffsetExtendedSf, 12}, S(-4),            // r12 at CFA+32
                   {kCfaValOffset, 13}, U(1),                    // r13 = CFA-8
                   {kCfaValOffsetSf, 14}, S(2),                  // r14 = CFA-16
                   {kCfaGnuNegativeOffsetExtended, 15}, U(1),    // r15 at CFA+8
                   {kCfaUndefined, 8},                           // r8 undefined
                   {kCfaSameValue, 9},                           // r9 same
                   {kCfaRegister, 10, 11},                       // r10 in r11
                   {kCfaExpression, 1, 2, kOpBreg7, 0},          // rdx at [rsp]
                   {kCfaValExpression, 2, 1, uint8_t(kOpLit0 + 5)},           // rcx = 5
                   {kCfaGnuArgsSize, 24}});
  Prog p = Make(ins);
  UnwindRow r;
  ASSERT_EQ(Row(p, 0x1050, &r), CfiError::kNone);
  EXPECT_EQ(r.regs[6].kind, RuleKind::kOffset);
  EXPECT_EQ(r.regs[6].offset, -16);
  EXPECT_EQ(r.regs[3].offset, -24);
  EXPECT_EQ(r.regs[12].offset, 32);
  EXPECT_EQ(r.regs[13].kind, RuleKind::kValOffset);
  EXPECT_EQ(r.regs[13].offset, -8);
  EXPECT_EQ(r.regs[14].kind, RuleKind::kValOffset);
  EXPECT_EQ(r.regs[14].offset, -16);
  EXPECT_EQ(r.regs[15].kind, RuleKind::kOffset);
  EXPECT_EQ(r.regs[15].offset, 8);
  EXPECT_EQ(r.regs[8].kind, RuleKind::kUndefined);
  EXPECT_EQ(r.regs[9].kind, RuleKind::kSameValue);
  EXPECT_EQ(r.regs[10].kind, RuleKind::kRegister);
  EXPECT_EQ(r.regs[10].reg, 11);
  EXPECT_EQ(r.regs[1].kind, RuleKind::kExpression);
  EXPECT_EQ(r.regs[1].expr_size, 2u);
  EXPECT_EQ(r.regs[1].expr[0], kOpBreg7);
  EXPECT_EQ(r.regs[2].kind, RuleKind::kValExpression);
  EXPECT_EQ(r.args_size, 24u);
}

TEST(CfaProgram, RestoreAndRememberState) {
  Bytes ins = Cat({{kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 16, kCfaOffset | 6, 2},  // 0x1001
                   {kCfaRememberState},
                   {kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 8, kCfaRestore | 6},     // 0x1002: epilogue
                   {kCfaAdvanceLoc | 1, kCfaRestoreState},                        // 0x1003: back
                   {kCfaAdvanceLoc | 1, kCfaUndefined, 16},                       // 0x1004
                   {kCfaAdvanceLoc | 1, kCfaRestoreExtended, 16}});               // 0x1005: the CIE's RA rule
  for (bool eh : {true, false}) {
    Prog p = Make(ins, {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1}, 1, -8, ByteOrder::kLittle, eh);
    UnwindRow r;
    ASSERT_EQ(Row(p, 0x1001, &r), CfiError::kNone);
    EXPECT_EQ(r.cfa.offset, 16);
    EXPECT_EQ(r.regs[6].kind, RuleKind::kOffset);
    ASSERT_EQ(Row(p, 0x1002, &r), CfiError::kNone);
    EXPECT_EQ(r.cfa.offset, 8);
    EXPECT_EQ(r.regs[6].kind, RuleKind::kSameValue);  // restored to the CIE's (none)
    ASSERT_EQ(Row(p, 0x1003, &r), CfiError::kNone);
    EXPECT_EQ(r.cfa.offset, 16);
    EXPECT_EQ(r.regs[6].kind, RuleKind::kOffset);
    ASSERT_EQ(Row(p, 0x1004, &r), CfiError::kNone);
    EXPECT_EQ(r.regs[16].kind, RuleKind::kUndefined);
    ASSERT_EQ(Row(p, 0x1005, &r), CfiError::kNone);
    EXPECT_EQ(r.regs[16].kind, RuleKind::kOffset);
    EXPECT_EQ(r.regs[16].offset, -8);
  }
}

TEST(CfaProgram, SetLoc) {
  // .debug_frame: an absolute address-sized location; .eh_frame: the FDE's encoding (pcrel sdata4).
  Bytes fwd = {kCfaSetLoc, 0x80, 0x10, 0, 0, 0, 0, 0, 0, kCfaDefCfaOffset, 64};
  Prog d = Make(fwd, {kCfaDefCfa, 7, 8}, 1, -8, ByteOrder::kLittle, false);
  UnwindRow r;
  ASSERT_EQ(Row(d, 0x107f, &r), CfiError::kNone);
  EXPECT_EQ(r.cfa.offset, 8);
  EXPECT_EQ(r.end, 0x1080u);
  ASSERT_EQ(Row(d, 0x1080, &r), CfiError::kNone);
  EXPECT_EQ(r.cfa.offset, 64);
  // Backwards is refused.
  Prog back = Make({kCfaSetLoc, 0x40, 0, 0, 0, 0, 0, 0, 0}, {kCfaDefCfa, 7, 8}, 1, -8, ByteOrder::kLittle, false);
  EXPECT_EQ(Row(back, 0x1000, &r), CfiError::kBadOpcode);
}

TEST(CfaProgram, DefCfaExpressionAsInPltEntries) {
  // ld's .plt CFI: CFA = rsp + 8 + ((rip & 15) >= 11 ? 8 : 0)
  Bytes expr = {kOpBreg7, 8, kOpBreg16, 0, uint8_t(kOpLit0 + 15), kOpAnd, uint8_t(kOpLit0 + 11), kOpGe, uint8_t(kOpLit0 + 3), kOpShl, kOpPlus};
  Bytes ins = Cat({{kCfaDefCfaExpression}, U(expr.size()), expr});
  Prog p = Make(ins);
  UnwindRow r;
  ASSERT_EQ(Row(p, 0x1000, &r), CfiError::kNone);
  ASSERT_TRUE(r.cfa.is_expression);
  ASSERT_EQ(r.cfa.expr_size, expr.size());
  struct Env : ExprEnv {
    uint64_t rip;
    bool Register(unsigned reg, uint64_t* v) override {
      if (reg == 7) { *v = 0x7ff0; return true; }
      if (reg == 16) { *v = rip; return true; }
      return false;
    }
    bool Memory(uint64_t, unsigned, uint64_t*) override { return false; }
  } env;
  uint64_t cfa;
  env.rip = 0x1026;  // offset 6 in its 16-byte entry: before the push
  ASSERT_EQ(EvaluateExpression(r.cfa.expr, r.cfa.expr_size, ByteOrder::kLittle, 8, env, nullptr, &cfa), ExprError::kNone);
  EXPECT_EQ(cfa, 0x7ff8u);
  env.rip = 0x102b;  // offset 11: after the push
  ASSERT_EQ(EvaluateExpression(r.cfa.expr, r.cfa.expr_size, ByteOrder::kLittle, 8, env, nullptr, &cfa), ExprError::kNone);
  EXPECT_EQ(cfa, 0x8000u);
}

TEST(CfaProgram, NegateRaStateOnlyOnAarch64) {
  Prog p = Make({kCfaAdvanceLoc | 1, kCfaGnuWindowSave, kCfaAdvanceLoc | 1, kCfaGnuWindowSave},
                {kCfaDefCfa, 7, 8}, 1, -8);
  UnwindRow r;
  ASSERT_EQ(Row(p, 0x1001, &r, Arch::kAarch64), CfiError::kNone);
  EXPECT_TRUE(r.ra_signed);
  ASSERT_EQ(Row(p, 0x1002, &r, Arch::kAarch64), CfiError::kNone);
  EXPECT_FALSE(r.ra_signed);
  EXPECT_EQ(Row(p, 0x1001, &r, Arch::kX86_64), CfiError::kBadOpcode);
}

TEST(CfaProgram, HostilePrograms) {
  UnwindRow r;
  // Unknown opcode; register beyond x86_64's 17; restore_state without remember.
  EXPECT_EQ(Row(Make({0x1e}), 0x1000, &r), CfiError::kBadOpcode);
  EXPECT_EQ(Row(Make({kCfaOffset | 20, 1}), 0x1000, &r), CfiError::kBadRegister);
  EXPECT_EQ(Row(Make({kCfaDefCfa, 40, 8}), 0x1000, &r), CfiError::kBadRegister);
  EXPECT_EQ(Row(Make({kCfaRestoreState}), 0x1000, &r), CfiError::kStateStack);
  // Registers beyond the tracked ones but inside the architecture are accepted (aarch64 v8 = 72).
  EXPECT_EQ(Row(Make(Cat({{kCfaOffsetExtended}, U(72), U(2)}), {kCfaDefCfa, 31, 0}), 0x1000, &r, Arch::kAarch64),
            CfiError::kNone);
  // 65 remember_states: too deep.
  EXPECT_EQ(Row(Make(Bytes(65, kCfaRememberState)), 0x1000, &r), CfiError::kStateStack);
  // A program far longer than the cap of instructions stops with kTooLong.
  Bytes nops(kMaxCfaInstructions + 10, kCfaNop);
  EXPECT_EQ(Row(Make(nops), 0x1000, &r), CfiError::kTooLong);
  // An expression block longer than the program; a truncated operand.
  EXPECT_EQ(Row(Make({kCfaDefCfaExpression, 0x40, kOpLit0}), 0x1000, &r), CfiError::kTruncated);
  // Every truncation of a real-looking program: an error or a row, never a crash.
  Bytes ins = Cat({{kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 16, kCfaOffset | 6, 2, kCfaRememberState},
                   {kCfaAdvanceLoc2, 4, 0, kCfaDefCfaExpression, 2, kOpBreg7, 8},
                   {kCfaAdvanceLoc4, 4, 0, 0, 0, kCfaRestoreState, kCfaValExpression, 3, 1, uint8_t(kOpLit0 + 1)}});
  Prog full = Make(ins);
  for (size_t n = 0; n < ins.size(); ++n) {
    Prog cut = full;
    cut.fde.instructions_size = n;
    CfiError e = Row(cut, 0x10ff, &r);
    EXPECT_TRUE(e == CfiError::kNone || e == CfiError::kTruncated) << "cut at " << n << ": " << CfiErrorName(e);
  }
}

// --- expressions ------------------------------------------------------------

struct TestEnv : ExprEnv {
  std::map<unsigned, uint64_t> regs;
  std::map<uint64_t, uint64_t> mem;
  bool Register(unsigned reg, uint64_t* v) override {
    auto it = regs.find(reg);
    if (it == regs.end()) return false;
    *v = it->second;
    return true;
  }
  bool Memory(uint64_t a, unsigned size, uint64_t* v) override {
    auto it = mem.find(a);
    if (it == mem.end()) return false;
    *v = size == 8 ? it->second : it->second & ((uint64_t{1} << (8 * size)) - 1);
    return true;
  }
};

uint64_t Eval(const Bytes& e, ExprError* err = nullptr, const uint64_t* initial = nullptr, uint8_t asize = 8) {
  TestEnv env;
  env.regs[6] = 0x1000;
  env.regs[40] = 0x40;
  env.mem[0x1008] = 0x1122334455667788ULL;
  uint64_t v = 0;
  ExprError e2 = EvaluateExpression(e.data(), e.size(), ByteOrder::kLittle, asize, env, initial, &v);
  if (err) *err = e2;
  else EXPECT_EQ(e2, ExprError::kNone) << ExprErrorName(e2);
  return v;
}

TEST(DwarfExpression, Operations) {
  EXPECT_EQ(Eval({kOpLit0 + 7}), 7u);
  EXPECT_EQ(Eval({kOpConst1u, 0xff}), 0xffu);
  EXPECT_EQ(Eval({kOpConst1s, 0xff}), ~uint64_t{0});
  EXPECT_EQ(Eval({kOpConst2u, 0x34, 0x12}), 0x1234u);
  EXPECT_EQ(Eval({kOpConst2s, 0xfe, 0xff}), static_cast<uint64_t>(-2));
  EXPECT_EQ(Eval({kOpConst4u, 1, 0, 0, 0x80}), 0x80000001u);
  EXPECT_EQ(Eval({kOpConst4s, 0xfe, 0xff, 0xff, 0xff}), static_cast<uint64_t>(-2));
  EXPECT_EQ(Eval({kOpConst8u, 1, 2, 3, 4, 5, 6, 7, 8}), 0x0807060504030201ULL);
  EXPECT_EQ(Eval(Cat({{kOpConstu}, U(1000)})), 1000u);
  EXPECT_EQ(Eval(Cat({{kOpConsts}, S(-1000)})), static_cast<uint64_t>(-1000));
  EXPECT_EQ(Eval({kOpAddr, 8, 0, 0, 0, 0, 0, 0, 0}), 8u);
  EXPECT_EQ(Eval(Cat({{kOpBreg0 + 6}, S(8)})), 0x1008u);
  EXPECT_EQ(Eval(Cat({{kOpBregx}, U(40), S(-8)})), 0x38u);
  EXPECT_EQ(Eval(Cat({{kOpBreg0 + 6}, S(8), {kOpDeref}})), 0x1122334455667788ULL);
  EXPECT_EQ(Eval(Cat({{kOpBreg0 + 6}, S(8), {kOpDerefSize, 2}})), 0x7788u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), kOpDup, kOpPlus, kOpPlus}), 5u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), kOpDrop}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), kOpOver}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 3), kOpPick, 2}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), kOpSwap, kOpMinus}), 1u);
  // rot: [1 2 3] -> [3 1 2] (the top becomes the third entry)
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 3), kOpRot, kOpDrop, kOpDrop}), 3u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 3), kOpRot}), 2u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 5), kOpNeg, kOpAbs}), 5u);
  EXPECT_EQ(Eval({kOpLit0, kOpNot}), ~uint64_t{0});
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 12), uint8_t(kOpLit0 + 10), kOpAnd}), 8u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 12), uint8_t(kOpLit0 + 3), kOpOr}), 15u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 12), uint8_t(kOpLit0 + 10), kOpXor}), 6u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 7), uint8_t(kOpLit0 + 3), kOpMul}), 21u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 7), kOpNeg, uint8_t(kOpLit0 + 2), kOpDiv}), static_cast<uint64_t>(-3));  // signed
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 7), uint8_t(kOpLit0 + 3), kOpMod}), 1u);
  EXPECT_EQ(Eval(Cat({{uint8_t(kOpLit0 + 1), kOpPlusUconst}, U(41)})), 42u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), uint8_t(kOpLit0 + 4), kOpShl}), 16u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 16), uint8_t(kOpLit0 + 4), kOpShr}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 16), kOpNeg, uint8_t(kOpLit0 + 2), kOpShra}), static_cast<uint64_t>(-4));
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), kOpConst1u, 64, kOpShl}), 0u);  // shifting everything out
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), kOpNeg, uint8_t(kOpLit0 + 1), kOpLt}), 1u);  // -1 < 1: comparisons are signed
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 2), kOpEq}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 3), kOpNe}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 3), kOpGt}), 0u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 2), kOpLe}), 1u);
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 2), uint8_t(kOpLit0 + 2), kOpGe}), 1u);
  // skip / bra: 1 ? 10 : 20
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 1), kOpBra, 4, 0, uint8_t(kOpLit0 + 20), kOpSkip, 1, 0, uint8_t(kOpLit0 + 10)}), 10u);
  EXPECT_EQ(Eval({kOpLit0, kOpBra, 4, 0, uint8_t(kOpLit0 + 20), kOpSkip, 1, 0, uint8_t(kOpLit0 + 10)}), 20u);
  EXPECT_EQ(Eval({kOpNop, uint8_t(kOpLit0 + 3), kOpStackValue}), 3u);
  uint64_t cfa = 0x5000;
  EXPECT_EQ(Eval({uint8_t(kOpLit0 + 8), kOpMinus}, nullptr, &cfa), 0x4ff8u);  // the CFA pushed first
  // 32-bit targets wrap at 32 bits.
  EXPECT_EQ(Eval({kOpLit0, uint8_t(kOpLit0 + 1), kOpMinus}, nullptr, nullptr, 4), 0xffffffffu);
}

TEST(DwarfExpression, HostileExpressionsEndWithAnError) {
  ExprError e;
  Eval({kOpPlus}, &e);
  EXPECT_EQ(e, ExprError::kStackUnderflow);
  Eval({}, &e);
  EXPECT_EQ(e, ExprError::kEmpty);
  Eval(Bytes(kMaxExprStack + 1, uint8_t(kOpLit0 + 1)), &e);
  EXPECT_EQ(e, ExprError::kStackOverflow);
  Eval({kOpSkip, 0xfd, 0xff}, &e);  // jumps to itself forever
  EXPECT_EQ(e, ExprError::kTooManySteps);
  Eval({kOpSkip, 0x10, 0}, &e);
  EXPECT_EQ(e, ExprError::kBadBranch);
  Eval({uint8_t(kOpLit0 + 1), kOpLit0, kOpDiv}, &e);
  EXPECT_EQ(e, ExprError::kDivideByZero);
  Eval({uint8_t(kOpLit0 + 1), kOpLit0, kOpMod}, &e);
  EXPECT_EQ(e, ExprError::kDivideByZero);
  Eval({kOpBreg0 + 3, 0}, &e);
  EXPECT_EQ(e, ExprError::kRegister);
  Eval({uint8_t(kOpLit0 + 9), kOpDeref}, &e);
  EXPECT_EQ(e, ExprError::kMemory);
  Eval({kOpReg0 + 1}, &e);
  EXPECT_EQ(e, ExprError::kBadOp);
  Eval({kOpCallFrameCfa}, &e);
  EXPECT_EQ(e, ExprError::kBadOp);
  Eval({kOpConst8u, 1, 2}, &e);
  EXPECT_EQ(e, ExprError::kTruncated);
  Eval({uint8_t(kOpLit0 + 1), kOpDerefSize, 9}, &e);
  EXPECT_EQ(e, ExprError::kBadOp);
  // INT64_MIN / -1 does not trap.
  Eval({kOpConst8s, 0, 0, 0, 0, 0, 0, 0, 0x80, uint8_t(kOpLit0 + 1), kOpNeg, kOpDiv}, &e);
  EXPECT_EQ(e, ExprError::kNone);
}

// --- .eh_frame_hdr ----------------------------------------------------------

TEST(EhFrameHdr, BinarySearchInEveryTableEncoding) {
  for (ByteOrder o : {ByteOrder::kLittle, ByteOrder::kBig}) {
    for (uint8_t enc : {uint8_t(kPeDatarel | kPeSdata4), uint8_t(kPeAbsptr | kPeUdata8), uint8_t(kPeDatarel | kPeSdata8),
                        uint8_t(kPeAbsptr | kPeUdata4), uint8_t(kPeDatarel | kPeSdata2)}) {
      CfiBuilder b(o, true, 0x3000);
      size_t cie = b.Cie(CieSpec{}, {kCfaDefCfa, 7, 8});
      std::vector<size_t> fdes;
      // Written out of order: the header table is sorted.
      for (uint64_t begin : {0x3400u, 0x3100u, 0x3200u}) fdes.push_back(b.Fde(cie, begin, 0x80, {}));
      Bytes eh = b.Finish();
      const uint64_t hdr_addr = 0x2f00;
      Bytes hdr = b.Hdr(hdr_addr, enc);
      EhFrameHdr h;
      std::string why;
      ASSERT_TRUE(ParseEhFrameHdr(hdr.data(), hdr.size(), hdr_addr, o, 8, &h, &why)) << why;
      EXPECT_TRUE(h.searchable);
      EXPECT_EQ(h.fde_count, 3u);
      EXPECT_EQ(h.eh_frame_ptr, 0x3000u);
      uint64_t fde;
      EXPECT_FALSE(LookupEhFrameHdr(h, hdr.data(), hdr.size(), hdr_addr, o, 8, 0x30ff, &fde));
      ASSERT_TRUE(LookupEhFrameHdr(h, hdr.data(), hdr.size(), hdr_addr, o, 8, 0x3100, &fde));
      EXPECT_EQ(fde, 0x3000 + fdes[1]);
      ASSERT_TRUE(LookupEhFrameHdr(h, hdr.data(), hdr.size(), hdr_addr, o, 8, 0x33ff, &fde));
      EXPECT_EQ(fde, 0x3000 + fdes[2]);  // the caller checks the FDE's range
      ASSERT_TRUE(LookupEhFrameHdr(h, hdr.data(), hdr.size(), hdr_addr, o, 8, 0x9999, &fde));
      EXPECT_EQ(fde, 0x3000 + fdes[0]);
    }
  }
}

TEST(EhFrameHdr, DamagedHeaders) {
  EhFrameHdr h;
  std::string why;
  Bytes v2 = {2, 0x1b, 0x03, 0x3b, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_FALSE(ParseEhFrameHdr(v2.data(), v2.size(), 0, ByteOrder::kLittle, 8, &h, &why));
  EXPECT_NE(why.find("version"), std::string::npos);
  Bytes many = {1, 0x1b, 0x03, 0x3b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f};  // 2^31 entries in 0 bytes
  EXPECT_FALSE(ParseEhFrameHdr(many.data(), many.size(), 0, ByteOrder::kLittle, 8, &h, &why));
  Bytes leb = {1, 0x1b, 0x03, 0x01, 0, 0, 0, 0, 1, 0, 0, 0, 5, 5};  // uleb table: not searchable
  ASSERT_TRUE(ParseEhFrameHdr(leb.data(), leb.size(), 0, ByteOrder::kLittle, 8, &h, &why));
  EXPECT_FALSE(h.searchable);
  for (size_t n = 0; n < 12; ++n) {
    Bytes ok = {1, 0x1b, 0x03, 0x3b, 0, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_FALSE(ParseEhFrameHdr(ok.data(), n, 0, ByteOrder::kLittle, 8, &h, &why) && h.fde_count > 0) << n;
  }
}

}  // namespace
