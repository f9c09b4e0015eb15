#include "core/format/elf/dwarf_info.h"

#include <algorithm>
#include <cstring>

namespace profscope::elf {

using dwarf::Value;
using dwarf::ValueKind;

bool DwarfLanguageIsUnmangled(uint32_t language) {
  // bfd/dwarf2.c mangle_style() == 0.
  switch (language) {
    case 0x01: case 0x02: case 0x05: case 0x06: case 0x07: case 0x09: case 0x0c: case 0x0f:
    case 0x12: case 0x1d: case 0x8001: case 0x8765: case 0x8006:
      return true;
    default:
      return false;
  }
}

struct AbbrevAttr {
  uint32_t name = 0, form = 0;
  int64_t implicit = 0;
};

struct DwarfInfo::Abbrev {
  uint64_t code = 0;
  uint32_t tag = 0;
  bool children = false;
  uint32_t first = 0, count = 0;
};

struct DwarfInfo::AbbrevTable {
  std::vector<Abbrev> list;
  std::vector<AbbrevAttr> attrs;
  bool dense = true;  // list[i].code == i + 1
  const Abbrev* Find(uint64_t code) const {
    if (dense) return code >= 1 && code <= list.size() ? &list[code - 1] : nullptr;
    auto it = std::lower_bound(list.begin(), list.end(), code, [](const Abbrev& a, uint64_t c) { return a.code < c; });
    return it != list.end() && it->code == code ? &*it : nullptr;
  }
};

DwarfInfo::DwarfInfo(DwarfSections s, Limits limits) : s_(std::move(s)), limits_(limits) {}
DwarfInfo::~DwarfInfo() = default;

std::unique_ptr<DwarfInfo> DwarfInfo::FromElf(ByteSource& src, const ElfLayout& layout, uint64_t cap, Limits limits) {
  DwarfSections s;
  s.order = layout.order;
  std::vector<DwarfProblem> problems;
  bool have_info = false;
  auto read = [&](const char* name, std::vector<uint8_t>* out) {
    const SectionHeader* sh = layout.FindSection(std::string(".debug_") + name);
    if (!sh) sh = layout.FindSection(std::string(".zdebug_") + name);
    if (!sh) return;
    if (out == &s.info) have_info = true;
    std::string why;
    if (!ReadSection(src, layout, *sh, cap, out, &why)) problems.push_back({sh->offset, why});
  };
  read("info", &s.info);
  if (!have_info) return nullptr;
  read("abbrev", &s.abbrev);
  read("str", &s.str);
  read("line_str", &s.line_str);
  read("str_offsets", &s.str_offsets);
  read("addr", &s.addr);
  read("ranges", &s.ranges);
  read("rnglists", &s.rnglists);
  auto d = std::make_unique<DwarfInfo>(std::move(s), limits);
  d->problems_ = std::move(problems);
  return d;
}

void DwarfInfo::Problem(uint64_t offset, std::string msg) {
  if (problems_.size() < 64) problems_.push_back({offset, std::move(msg)});
}

bool DwarfInfo::Charge(uint64_t bytes, uint64_t offset) {
  held_ += bytes;
  if (held_ <= limits_.max_bytes) return true;
  if (!full_) Problem(offset, "the debug information needs more than " + std::to_string(limits_.max_bytes >> 20) +
                                  " MiB; units after this one are not read");
  full_ = true;
  return false;
}

const DwarfInfo::AbbrevTable* DwarfInfo::Abbrevs(uint64_t offset) {
  auto it = abbrevs_.find(offset);
  if (it != abbrevs_.end()) return it->second.get();
  auto t = std::make_unique<AbbrevTable>();
  if (offset >= s_.abbrev.size()) {
    Problem(offset, "abbreviation table offset " + std::to_string(offset) + " is past the end of .debug_abbrev (" +
                        std::to_string(s_.abbrev.size()) + " bytes)");
    return abbrevs_.emplace(offset, nullptr).first->second.get();
  }
  ByteReader r(s_.abbrev.data(), s_.abbrev.size(), 0, s_.order);
  r.Seek(static_cast<size_t>(offset));
  bool ok = true;
  while (true) {
    const uint64_t at = r.pos();
    const uint64_t code = ReadUleb128(r);
    if (!r.ok()) { ok = false; Problem(at, ".debug_abbrev ends inside an abbreviation table"); break; }
    if (code == 0) break;
    Abbrev a;
    a.code = code;
    a.tag = static_cast<uint32_t>(ReadUleb128(r));
    a.children = r.U8() != 0;
    a.first = static_cast<uint32_t>(t->attrs.size());
    while (r.ok()) {
      AbbrevAttr at2;
      at2.name = static_cast<uint32_t>(ReadUleb128(r));
      at2.form = static_cast<uint32_t>(ReadUleb128(r));
      if (at2.name == 0 && at2.form == 0) break;
      if (at2.form == 0x21) at2.implicit = ReadSleb128(r);
      t->attrs.push_back(at2);
    }
    if (!r.ok()) { ok = false; Problem(at, ".debug_abbrev ends inside abbreviation " + std::to_string(code)); break; }
    a.count = static_cast<uint32_t>(t->attrs.size() - a.first);
    if (!t->list.empty() && code <= t->list.back().code) t->dense = false;
    t->list.push_back(a);
  }
  (void)ok;
  for (size_t i = 0; i < t->list.size() && t->dense; ++i)
    if (t->list[i].code != i + 1) t->dense = false;
  if (!t->dense)
    std::stable_sort(t->list.begin(), t->list.end(), [](const Abbrev& a, const Abbrev& b) { return a.code < b.code; });
  Charge(t->list.size() * sizeof(Abbrev) + t->attrs.size() * sizeof(AbbrevAttr), offset);
  return abbrevs_.emplace(offset, std::move(t)).first->second.get();
}

bool DwarfInfo::Address(const dwarf::Unit& u, const Value& v, uint64_t* out) {
  if (v.kind == ValueKind::kUnsigned) { *out = v.u; return true; }
  if (v.kind != ValueKind::kAddrx) return false;
  const uint64_t at = u.addr_base + v.u * u.address_size;
  if (v.u > s_.addr.size() || at < u.addr_base || at > s_.addr.size() || s_.addr.size() - at < u.address_size) return false;
  ByteReader r(s_.addr.data() + at, u.address_size, at, s_.order);
  *out = u.address_size == 8 ? r.U64() : u.address_size == 4 ? r.U32() : r.U16();
  return r.ok();
}

bool DwarfInfo::String(const dwarf::Unit& u, const Value& v, const char** s, size_t* n) {
  const std::vector<uint8_t>* sec = nullptr;
  uint64_t off = 0;
  switch (v.kind) {
    case ValueKind::kString: *s = v.str; *n = v.len; return true;
    case ValueKind::kStrp: sec = &s_.str; off = v.u; break;
    case ValueKind::kLineStrp: sec = &s_.line_str; off = v.u; break;
    case ValueKind::kStrx: {
      const uint64_t base = u.has_str_offsets_base ? u.str_offsets_base : (u.dwarf64 ? 16 : 8);
      const unsigned w = u.offset_size();
      if (v.u > s_.str_offsets.size()) return false;
      const uint64_t at = base + v.u * w;
      if (at < base || at > s_.str_offsets.size() || s_.str_offsets.size() - at < w) return false;
      ByteReader r(s_.str_offsets.data() + at, w, at, s_.order);
      off = w == 8 ? r.U64() : r.U32();
      sec = &s_.str;
      break;
    }
    default: return false;
  }
  if (off >= sec->size()) return false;
  const char* p = reinterpret_cast<const char*>(sec->data() + off);
  const size_t left = sec->size() - static_cast<size_t>(off);
  const size_t len = strnlen(p, left);
  if (len == left) return false;
  *s = p;
  *n = len;
  return true;
}

uint64_t DwarfInfo::PcRange(const dwarf::Unit& u, const Value* low, const Value* high,
                            std::vector<std::pair<uint64_t, uint64_t>>* out) {
  uint64_t lo = 0;
  if (low && Address(u, *low, &lo) && high) {
    uint64_t hi = 0;
    if (high->form == 0x01 || high->kind == ValueKind::kAddrx) Address(u, *high, &hi);  // DW_FORM_addr / addrx
    else hi = lo + high->u;                                                               // an offset from low_pc
    out->push_back({lo, hi});
  }
  return lo;
}

bool DwarfInfo::ReadRanges(const dwarf::Unit& u, const Value& v, uint64_t base,
                           std::vector<std::pair<uint64_t, uint64_t>>* out) {
  const unsigned as = u.address_size;
  const uint64_t amax = as == 8 ? ~uint64_t{0} : as == 4 ? 0xffffffffu : 0xffffu;
  auto word = [&](ByteReader& r) -> uint64_t { return as == 8 ? r.U64() : as == 4 ? r.U32() : r.U16(); };
  if (u.version < 5) {
    if (v.kind != ValueKind::kUnsigned) return false;
    const uint64_t off = v.u + u.ranges_base;
    if (off >= s_.ranges.size()) return false;
    ByteReader r(s_.ranges.data(), s_.ranges.size(), 0, s_.order);
    r.Seek(static_cast<size_t>(off));
    for (uint32_t n = 0; n < limits_.max_ranges; ++n) {
      const uint64_t a = word(r), b = word(r);
      if (!r.ok()) return false;
      if (a == 0 && b == 0) return true;
      if (a == amax) { base = b; continue; }
      out->push_back({base + a, base + b});
    }
    return false;
  }
  uint64_t off;
  if (v.kind == ValueKind::kRngListx) {
    const unsigned w = u.offset_size();
    if (v.u > s_.rnglists.size()) return false;
    const uint64_t at = u.rnglists_base + v.u * w;
    if (at < u.rnglists_base || at > s_.rnglists.size() || s_.rnglists.size() - at < w) return false;
    ByteReader r(s_.rnglists.data() + at, w, at, s_.order);
    off = u.rnglists_base + (w == 8 ? r.U64() : r.U32());
  } else if (v.kind == ValueKind::kUnsigned) {
    off = v.u;
  } else {
    return false;
  }
  if (off >= s_.rnglists.size()) return false;
  ByteReader r(s_.rnglists.data(), s_.rnglists.size(), 0, s_.order);
  r.Seek(static_cast<size_t>(off));
  auto addrx = [&](uint64_t idx, uint64_t* a) {
    Value x;
    x.kind = ValueKind::kAddrx;
    x.u = idx;
    return Address(u, x, a);
  };
  for (uint32_t n = 0; n < limits_.max_ranges; ++n) {
    const uint8_t kind = r.U8();
    if (!r.ok()) return false;
    uint64_t a = 0, b = 0;
    switch (kind) {
      case 0: return true;  // DW_RLE_end_of_list
      case 1:               // base_addressx
        if (!addrx(ReadUleb128(r), &base)) return false;
        break;
      case 2:  // startx_endx
        if (!addrx(ReadUleb128(r), &a) || !addrx(ReadUleb128(r), &b)) return false;
        out->push_back({a, b});
        break;
      case 3:  // startx_length
        if (!addrx(ReadUleb128(r), &a)) return false;
        b = ReadUleb128(r);
        out->push_back({a, a + b});
        break;
      case 4:  // offset_pair
        a = ReadUleb128(r);
        b = ReadUleb128(r);
        out->push_back({base + a, base + b});
        break;
      case 5: base = word(r); break;  // base_address
      case 6:                         // start_end
        a = word(r);
        b = word(r);
        out->push_back({a, b});
        break;
      case 7:  // start_length
        a = word(r);
        b = ReadUleb128(r);
        out->push_back({a, a + b});
        break;
      default: return false;
    }
    if (!r.ok()) return false;
  }
  return false;
}

void DwarfInfo::Index() {
  indexed_ = true;
  ByteReader r(s_.info.data(), s_.info.size(), 0, s_.order);
  while (r.remaining() > 0) {
    const uint64_t at = r.pos();
    dwarf::Unit u;
    const char* why = "";
    if (!dwarf::ReadUnitHeader(r, &u, &why)) {
      Problem(at, std::string(".debug_info unit at offset ") + std::to_string(at) + ": " + why);
      if (u.end > at && u.end <= s_.info.size()) { r.Seek(static_cast<size_t>(u.end)); continue; }
      break;
    }
    r.Seek(static_cast<size_t>(u.end));
    if (u.unit_type != dwarf::kUtCompile && u.unit_type != dwarf::kUtPartial && u.unit_type != dwarf::kUtSkeleton)
      continue;
    const AbbrevTable* t = Abbrevs(u.abbrev_offset);
    if (!t || full_) continue;
    if (!Charge(sizeof(UnitInfo), at)) break;
    // The CU DIE: its bases, language and address ranges.
    ByteReader d(s_.info.data(), static_cast<size_t>(u.end), 0, s_.order);
    d.Seek(static_cast<size_t>(u.die_offset));
    const Abbrev* a = t->Find(ReadUleb128(d));
    if (!d.ok() || !a) {
      Problem(u.die_offset, "the unit's first DIE has no abbreviation");
      continue;
    }
    Value low, high, ranges, v;
    bool have_low = false, have_high = false, have_ranges = false, ok = true;
    for (uint32_t k = 0; k < a->count && ok; ++k) {
      const AbbrevAttr& at2 = t->attrs[a->first + k];
      if (!dwarf::ReadValue(d, at2.form, at2.implicit, u, &v)) { ok = false; break; }
      switch (at2.name) {
        case dwarf::kAtLowPc: low = v; have_low = true; break;
        case dwarf::kAtHighPc: high = v; have_high = true; break;
        case dwarf::kAtRanges: ranges = v; have_ranges = true; break;
        case dwarf::kAtLanguage: u.language = static_cast<uint32_t>(v.u); break;
        case dwarf::kAtStrOffsetsBase: u.str_offsets_base = v.u; u.has_str_offsets_base = true; break;
        case dwarf::kAtAddrBase: case dwarf::kAtGnuAddrBase: u.addr_base = v.u; break;
        case dwarf::kAtRnglistsBase: u.rnglists_base = v.u; break;
        case dwarf::kAtGnuRangesBase: u.ranges_base = v.u; break;
        default: break;
      }
    }
    if (!ok) Problem(u.die_offset, "the unit's first DIE is truncated or has an unknown attribute form");
    const int32_t ui = static_cast<int32_t>(units_.size());
    UnitInfo info;
    info.u = u;
    units_.push_back(std::move(info));
    std::vector<std::pair<uint64_t, uint64_t>> rs;
    const uint64_t base = PcRange(u, have_low ? &low : nullptr, have_high ? &high : nullptr, &rs);
    if (have_ranges && !ReadRanges(u, ranges, base, &rs))
      Problem(u.die_offset, "the unit's address ranges could not be read");
    bool any = false;
    for (const auto& [lo, hi] : rs)
      if (hi > lo) {
        cu_ranges_.push_back({lo, hi, ui});
        any = true;
      }
    if (!any) unranged_.push_back(ui);
  }
  std::stable_sort(cu_ranges_.begin(), cu_ranges_.end(), [](const CuRange& a, const CuRange& b) { return a.low < b.low; });
  Charge(cu_ranges_.size() * sizeof(CuRange), 0);
}

bool DwarfInfo::ParseUnit(size_t ui) {
  if (units_[ui].parsed) return !units_[ui].broken;
  units_[ui].parsed = true;
  const dwarf::Unit u = units_[ui].u;
  if (full_) { units_[ui].broken = true; return false; }
  const AbbrevTable* t = Abbrevs(u.abbrev_offset);
  if (!t) { units_[ui].broken = true; return false; }
  // The unit's base address (CU low_pc) for DWARF 2-4 range lists.
  uint64_t unit_base = 0;
  ByteReader r(s_.info.data(), static_cast<size_t>(u.end), 0, s_.order);
  r.Seek(static_cast<size_t>(u.die_offset));
  std::vector<int32_t> nest;  // per open DIE with children: its function (or -1)
  std::vector<std::pair<uint64_t, uint64_t>> rs;
  std::vector<Range>& out = units_[ui].ranges;
  bool first = true;
  while (r.pos() < u.end) {
    const uint64_t die = r.pos();
    const uint64_t code = ReadUleb128(r);
    if (!r.ok()) { Problem(die, "a DIE code runs past the end of its unit"); units_[ui].broken = true; break; }
    if (code == 0) {
      if (nest.empty()) continue;  // padding
      nest.pop_back();
      if (nest.empty()) break;
      continue;
    }
    const Abbrev* a = t->Find(code);
    if (!a) {
      Problem(die, "DIE at offset " + std::to_string(die) + " uses abbreviation " + std::to_string(code) +
                       ", which its table does not define");
      units_[ui].broken = true;
      break;
    }
    const bool is_func = a->tag == dwarf::kTagSubprogram || a->tag == dwarf::kTagInlinedSubroutine ||
                         a->tag == dwarf::kTagEntryPoint;
    Value low, high, ranges, v;
    bool have_low = false, have_high = false, have_ranges = false, ok = true;
    for (uint32_t k = 0; k < a->count; ++k) {
      const AbbrevAttr& at = t->attrs[a->first + k];
      if (!dwarf::ReadValue(r, at.form, at.implicit, u, &v)) { ok = false; break; }
      if (!is_func && !first) continue;
      if (at.name == dwarf::kAtLowPc) { low = v; have_low = true; }
      else if (at.name == dwarf::kAtHighPc) { high = v; have_high = true; }
      else if (at.name == dwarf::kAtRanges) { ranges = v; have_ranges = true; }
    }
    if (!ok || r.pos() > u.end) {
      Problem(die, "DIE at offset " + std::to_string(die) + " is truncated or has an unknown attribute form");
      units_[ui].broken = true;
      break;
    }
    if (first) {
      first = false;
      if (have_low) Address(u, low, &unit_base);
    } else if (is_func) {
      rs.clear();
      PcRange(u, have_low ? &low : nullptr, have_high ? &high : nullptr, &rs);
      if (have_ranges && !ReadRanges(u, ranges, unit_base, &rs))
        Problem(die, "the address ranges of the function at offset " + std::to_string(die) + " could not be read");
      Func f;
      f.die = die;
      f.unit = static_cast<int32_t>(ui);
      f.low = rs.empty() ? 0 : rs.front().first;
      if (a->tag == dwarf::kTagInlinedSubroutine)
        for (size_t i = nest.size(); i-- > 0;)
          if (nest[i] >= 0) { f.caller = nest[i]; break; }
      if (!Charge(sizeof(Func) + rs.size() * sizeof(Range), die)) { units_[ui].broken = true; break; }
      const int32_t fi = static_cast<int32_t>(funcs_.size());
      funcs_.push_back(f);
      for (const auto& [lo2, hi2] : rs)
        if (hi2 > lo2) out.push_back({lo2, hi2, fi});
      if (a->children) {
        if (nest.size() >= limits_.max_depth) {
          Problem(die, "DIEs nest deeper than " + std::to_string(limits_.max_depth) + " levels");
          units_[ui].broken = true;
          break;
        }
        nest.push_back(fi);
      }
      continue;
    }
    if (a->children) {
      if (nest.size() >= limits_.max_depth) {
        Problem(die, "DIEs nest deeper than " + std::to_string(limits_.max_depth) + " levels");
        units_[ui].broken = true;
        break;
      }
      nest.push_back(-1);
    }
  }
  return !units_[ui].broken;
}

int32_t DwarfInfo::UnitAt(uint64_t off) {
  auto it = std::upper_bound(units_.begin(), units_.end(), off,
                             [](uint64_t o, const UnitInfo& x) { return o < x.u.offset; });
  if (it == units_.begin()) return -1;
  --it;
  if (off < it->u.die_offset || off >= it->u.end) return -1;
  return static_cast<int32_t>(it - units_.begin());
}

void DwarfInfo::NameFrom(uint64_t die, uint32_t hops, bool top, const char** name, size_t* len, bool* linkage) {
  const int32_t ui = UnitAt(die);
  if (ui < 0) {
    Problem(die, "a DIE reference points to offset " + std::to_string(die) + ", outside every unit");
    return;
  }
  const dwarf::Unit& u = units_[static_cast<size_t>(ui)].u;
  const AbbrevTable* t = Abbrevs(u.abbrev_offset);
  if (!t) return;
  ByteReader r(s_.info.data(), static_cast<size_t>(u.end), 0, s_.order);
  r.Seek(static_cast<size_t>(die));
  const Abbrev* a = t->Find(ReadUleb128(r));
  if (!r.ok() || !a) return;
  (void)top;
  Value v;
  for (uint32_t k = 0; k < a->count; ++k) {
    const AbbrevAttr& at = t->attrs[a->first + k];
    if (!dwarf::ReadValue(r, at.form, at.implicit, u, &v)) return;
    const char* s;
    size_t n;
    switch (at.name) {
      case dwarf::kAtAbstractOrigin:
      case dwarf::kAtSpecification: {
        uint64_t target;
        if (v.kind == ValueKind::kRefUnit) target = u.offset + v.u;
        else if (v.kind == ValueKind::kRefInfo) target = v.u;
        else break;
        if (hops + 1 >= limits_.max_refs) {
          Problem(die, "abstract_origin/specification references chain more than " + std::to_string(limits_.max_refs) +
                           " times");
          break;
        }
        NameFrom(target, hops + 1, false, name, len, linkage);
        break;
      }
      case dwarf::kAtName:
        if (!*name && String(u, v, &s, &n)) {
          *name = s;
          *len = n;
          if (DwarfLanguageIsUnmangled(u.language)) *linkage = true;
        }
        break;
      case dwarf::kAtLinkageName:
      case dwarf::kAtMipsLinkageName:
        if (String(u, v, &s, &n)) {
          *name = s;
          *len = n;
          *linkage = true;
        }
        break;
      default: break;
    }
  }
}

void DwarfInfo::Name(Func& f) {
  if (f.name != -1) return;
  const char* name = nullptr;
  size_t len = 0;
  bool linkage = false;
  NameFrom(f.die, 0, true, &name, &len, &linkage);
  f.linkage = linkage;
  if (!name) { f.name = -2; return; }
  f.name = static_cast<int32_t>(names_.size());
  names_.emplace_back(name, len);
  Charge(len + sizeof(std::string), f.die);
}

void DwarfInfo::MarkLinkage(int32_t func, const std::string* rename) {
  if (func < 0 || static_cast<size_t>(func) >= funcs_.size()) return;
  Func& f = funcs_[static_cast<size_t>(func)];
  f.linkage = true;
  if (!rename) return;
  f.name = static_cast<int32_t>(names_.size());
  names_.push_back(*rename);
  Charge(rename->size() + sizeof(std::string), f.die);
}

bool DwarfInfo::Best(size_t ui, uint64_t addr, int32_t* func) {
  ParseUnit(ui);  // a broken unit still answers with what was read before the damage
  uint64_t best_len = 0;
  int32_t best = -1;
  for (const Range& r : units_[ui].ranges) {
    if (addr < r.low || addr >= r.high) continue;
    const uint64_t len = r.high - r.low;
    if (best < 0 || len < best_len || (len == best_len && r.func > best)) {
      best = r.func;
      best_len = len;
    }
  }
  *func = best;
  return best >= 0;
}

bool DwarfInfo::Lookup(uint64_t addr, std::vector<InlineFrame>* out) {
  out->clear();
  if (!indexed_) Index();
  std::vector<int32_t> cand;
  auto it = std::upper_bound(cu_ranges_.begin(), cu_ranges_.end(), addr,
                             [](uint64_t a, const CuRange& c) { return a < c.low; });
  for (int k = 0; it != cu_ranges_.begin() && k < 64; ++k) {
    --it;
    if (addr < it->high) cand.push_back(it->unit);
  }
  std::sort(cand.begin(), cand.end());
  cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
  int32_t f = -1;
  for (int32_t ui : cand)
    if (Best(static_cast<size_t>(ui), addr, &f)) break;
  if (f < 0)
    for (int32_t ui : unranged_)
      if (Best(static_cast<size_t>(ui), addr, &f)) break;
  if (f < 0) return false;
  for (uint32_t n = 0; f >= 0 && n < limits_.max_frames; ++n) {
    Func& fn = funcs_[static_cast<size_t>(f)];
    Name(fn);
    InlineFrame fr;
    fr.name = fn.name >= 0 ? names_[static_cast<size_t>(fn.name)] : std::string("??");
    fr.linkage = fn.linkage;
    fr.low = fn.low;
    fr.func = f;
    out->push_back(std::move(fr));
    f = fn.caller;
  }
  return true;
}

}  // namespace profscope::elf
