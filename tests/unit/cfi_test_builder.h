// Test helpers that write DWARF call frame information: .eh_frame and
// .debug_frame sections (either byte order, 32- or 64-bit DWARF lengths,
// CIE versions 1/3/4, any augmentation and pointer encoding) and
// .eh_frame_hdr tables. Header-only, for the unit tests.
//
//   CfiBuilder b(ByteOrder::kLittle, /*eh_frame=*/true, /*address=*/0x2000);
//   size_t cie = b.Cie({.aug = "zR", .fde_enc = kPeSdata4 | kPePcrel, .ra = 16}, {0x0c, 7, 8, 0x90, 1});
//   b.Fde(cie, 0x1000, 0x40, {0x41, 0x0e, 16});   // advance 1, def_cfa_offset 16
//   std::vector<uint8_t> bytes = b.Finish();      // adds the zero terminator (.eh_frame)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/io/byte_reader.h"
#include "core/unwind/dwarf_constants.h"

namespace profscope::unwind::test {

using Bytes = std::vector<uint8_t>;

inline void Uleb(Bytes& b, uint64_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    if (v) c |= 0x80;
    b.push_back(c);
  } while (v);
}
inline void Sleb(Bytes& b, int64_t v) {
  bool more = true;
  while (more) {
    uint8_t c = v & 0x7f;
    v >>= 7;
    if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) more = false;
    else c |= 0x80;
    b.push_back(c);
  }
}
inline Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
inline Bytes U(uint64_t v) { Bytes b; Uleb(b, v); return b; }
inline Bytes S(int64_t v) { Bytes b; Sleb(b, v); return b; }

struct CieSpec {
  std::string aug = "zR";
  uint8_t version = 1;
  uint64_t code_align = 1;
  int64_t data_align = -8;
  uint64_t ra = 16;
  uint8_t fde_enc = kPeSdata4 | kPePcrel;
  bool personality = false;  // 'P' data (an absptr 0) when the augmentation has it
  uint8_t address_size = 8;  // v4: written into the CIE
};

class CfiBuilder {
 public:
  CfiBuilder(ByteOrder order, bool eh_frame, uint64_t address, bool dwarf64 = false, uint8_t address_size = 8)
      : order_(order), eh_(eh_frame), address_(address), dwarf64_(dwarf64), asize_(address_size) {}

  void N(Bytes& b, uint64_t v, int n) const {
    for (int i = 0; i < n; ++i)
      b.push_back(static_cast<uint8_t>(v >> (order_ == ByteOrder::kBig ? (n - 1 - i) * 8 : i * 8)));
  }
  void Put(size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      buf_[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (order_ == ByteOrder::kBig ? (n - 1 - i) * 8 : i * 8));
  }
  // A value of format `enc & 0x0f` (no application).
  Bytes Value(uint8_t enc, uint64_t v) const {
    Bytes b;
    switch (enc & 0x0f) {
      case kPeAbsptr: case kPeSigned: N(b, v, asize_); break;
      case kPeUleb128: Uleb(b, v); break;
      case kPeSleb128: Sleb(b, static_cast<int64_t>(v)); break;
      case kPeUdata2: case kPeSdata2: N(b, v, 2); break;
      case kPeUdata4: case kPeSdata4: N(b, v, 4); break;
      default: N(b, v, 8); break;
    }
    return b;
  }

  // Returns the CIE's offset.
  size_t Cie(const CieSpec& c, const Bytes& instructions) {
    cie_specs_.push_back({buf_.size(), c});
    size_t start = Begin();
    if (eh_) N(buf_, 0, dwarf64_ ? 8 : 4);
    else N(buf_, dwarf64_ ? ~uint64_t{0} : 0xffffffffu, dwarf64_ ? 8 : 4);
    buf_.push_back(c.version);
    buf_.insert(buf_.end(), c.aug.begin(), c.aug.end());
    buf_.push_back(0);
    if (c.version >= 4) { buf_.push_back(c.address_size); buf_.push_back(0); }
    Uleb(buf_, c.code_align);
    Sleb(buf_, c.data_align);
    if (c.version == 1) buf_.push_back(static_cast<uint8_t>(c.ra));
    else Uleb(buf_, c.ra);
    if (!c.aug.empty() && c.aug[0] == 'z') {
      Bytes data;
      for (char ch : c.aug.substr(1)) {
        if (ch == 'R') data.push_back(c.fde_enc);
        if (ch == 'L') data.push_back(kPeSdata4 | kPePcrel);
        if (ch == 'P') { data.push_back(kPeAbsptr); N(data, 0, asize_); }
      }
      Uleb(buf_, data.size());
      buf_.insert(buf_.end(), data.begin(), data.end());
    }
    buf_.insert(buf_.end(), instructions.begin(), instructions.end());
    End(start);
    return start;
  }

  // An FDE for [begin, begin + size) of the CIE at `cie`. Returns its offset.
  size_t Fde(size_t cie, uint64_t begin, uint64_t size, const Bytes& instructions) {
    const CieSpec* spec = nullptr;
    for (const auto& [off, s] : cie_specs_)
      if (off == cie) spec = &s;
    size_t start = Begin();
    const size_t id_at = buf_.size();
    if (eh_) N(buf_, id_at - cie, dwarf64_ ? 8 : 4);
    else N(buf_, cie, dwarf64_ ? 8 : 4);
    uint8_t enc = eh_ && spec && spec->aug.find('R') != std::string::npos ? spec->fde_enc : kPeAbsptr;
    uint8_t vsize = spec && spec->version >= 4 ? spec->address_size : asize_;
    uint64_t v = begin;
    if ((enc & 0x70) == kPePcrel) v = begin - (address_ + buf_.size());
    Bytes b;
    uint8_t saved = asize_;
    asize_ = vsize;
    b = Value(enc, v);
    buf_.insert(buf_.end(), b.begin(), b.end());
    b = Value(enc, size);
    asize_ = saved;
    buf_.insert(buf_.end(), b.begin(), b.end());
    if (spec && !spec->aug.empty() && spec->aug[0] == 'z') {
      if (spec->aug.find('L') != std::string::npos) { Uleb(buf_, 4); N(buf_, 0, 4); }
      else Uleb(buf_, 0);
    }
    buf_.insert(buf_.end(), instructions.begin(), instructions.end());
    End(start);
    fdes_.push_back({begin, start});
    return start;
  }

  // The section bytes (.eh_frame gets its zero terminator).
  Bytes Finish() {
    Bytes out = buf_;
    if (eh_) N(out, 0, 4);
    return out;
  }
  // A .eh_frame_hdr for the FDEs written so far, at `hdr_address`, table
  // encoded with `table_enc` (datarel|sdata4 as linkers write it).
  Bytes Hdr(uint64_t hdr_address, uint8_t table_enc = kPeDatarel | kPeSdata4) const {
    Bytes h;
    h.push_back(1);
    h.push_back(kPePcrel | kPeSdata4);
    h.push_back(kPeUdata4);
    h.push_back(table_enc);
    N(h, address_ - (hdr_address + 4), 4);
    N(h, fdes_.size(), 4);
    auto sorted = fdes_;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& [begin, off] : sorted) {
      uint64_t loc = begin, fde = address_ + off;
      if ((table_enc & 0x70) == kPeDatarel) { loc -= hdr_address; fde -= hdr_address; }
      Bytes a = Value(table_enc, loc), b = Value(table_enc, fde);
      h.insert(h.end(), a.begin(), a.end());
      h.insert(h.end(), b.begin(), b.end());
    }
    return h;
  }
  size_t size() const { return buf_.size(); }

 private:
  size_t Begin() {
    size_t start = buf_.size();
    if (dwarf64_) { N(buf_, 0xffffffffu, 4); N(buf_, 0, 8); }
    else N(buf_, 0, 4);
    return start;
  }
  void End(size_t start) {
    // Pad to the address size (with DW_CFA_nop) and patch the length.
    const size_t content = start + (dwarf64_ ? 12 : 4);
    while ((buf_.size() - start) % asize_) buf_.push_back(kCfaNop);
    if (dwarf64_) Put(start + 4, buf_.size() - content, 8);
    else Put(start, buf_.size() - content, 4);
  }
  ByteOrder order_;
  bool eh_;
  uint64_t address_;
  bool dwarf64_;
  uint8_t asize_;
  Bytes buf_;
  std::vector<std::pair<size_t, CieSpec>> cie_specs_;
  std::vector<std::pair<uint64_t, size_t>> fdes_;
};

}  // namespace profscope::unwind::test
