#include "core/unwind/unwind_module.h"

#include <algorithm>

namespace profscope::unwind {

std::unique_ptr<UnwindModule> UnwindModule::FromElf(ByteSource& src, std::string name) {
  std::unique_ptr<UnwindModule> m(new UnwindModule());
  m->name_ = std::move(name);
  m->src_ = &src;
  m->elf_ = elf::ReadElfLayout(src);
  m->order_ = m->elf_.order;
  m->address_size_ = m->elf_.is64 ? 8 : 4;
  return m;
}

std::unique_ptr<UnwindModule> UnwindModule::FromEhFrame(std::string name, ByteOrder order, uint8_t address_size,
                                                        std::vector<uint8_t> eh_frame, uint64_t eh_frame_address,
                                                        std::vector<uint8_t> eh_frame_hdr, uint64_t hdr_address) {
  std::unique_ptr<UnwindModule> m(new UnwindModule());
  m->name_ = std::move(name);
  m->synthetic_ = true;
  m->order_ = order;
  m->address_size_ = address_size == 4 ? 4 : 8;
  m->loaded_ = true;
  m->eh_bytes_ = std::move(eh_frame);
  m->hdr_bytes_ = std::move(eh_frame_hdr);
  m->hdr_address_ = hdr_address;
  m->SetupSection(&m->eh_, m->eh_bytes_, eh_frame_address, true);
  if (!m->hdr_bytes_.empty()) {
    std::string why;
    m->hdr_ok_ = ParseEhFrameHdr(m->hdr_bytes_.data(), m->hdr_bytes_.size(), hdr_address, order, m->address_size_,
                                 &m->hdr_, &why);
    if (!m->hdr_ok_) m->problem_ = why;
  }
  return m;
}

bool UnwindModule::Bias(uint64_t map_start, uint64_t pgoff, uint64_t* bias) const {
  if (synthetic_) { *bias = map_start - pgoff; return true; }  // its file offsets are its link-time addresses
  const elf::ProgramHeader* s = elf_.LoadAtOffset(pgoff);
  if (!s) return false;
  *bias = map_start - (s->vaddr + (pgoff - s->offset));
  return true;
}

uint64_t UnwindModule::ElfBase() const {
  if (synthetic_) return 0;
  for (const auto& ph : elf_.segments)
    if (ph.type == 1) return ph.vaddr - ph.offset;  // PT_LOAD
  return 0;
}

void UnwindModule::SetupSection(CfiSection* s, const std::vector<uint8_t>& bytes, uint64_t address, bool eh_frame) {
  s->data = bytes.empty() ? nullptr : bytes.data();
  s->size = bytes.size();
  s->address = address;
  s->eh_frame = eh_frame;
  s->order = order_;
  s->address_size = address_size_;
  if (const elf::SectionHeader* t = elf_.FindSection(".text")) { s->text_base = t->addr; s->has_text_base = true; }
  if (const elf::SectionHeader* g = elf_.FindSection(".got")) { s->data_base = g->addr; s->has_data_base = true; }
  if (!synthetic_) {
    s->read_word = [this](uint64_t a, uint64_t* v) { return ReadAddress(a, address_size_, v); };
  }
}

void UnwindModule::Load() {
  if (loaded_) return;
  loaded_ = true;
  if (!elf_.ok) {
    problem_ = elf_.problems.empty() ? "not a readable ELF file" : elf_.problems.front();
    return;
  }
  LoadElfSections();
}

void UnwindModule::LoadElfSections() {
  std::vector<std::string> issues;
  std::string why;
  // .eh_frame_hdr: the section, else the PT_GNU_EH_FRAME segment.
  const elf::SectionHeader* hdr = elf_.FindSection(".eh_frame_hdr");
  elf::SectionHeader seg_hdr;
  if (!hdr) {
    if (const elf::ProgramHeader* g = elf_.FindSegment(elf::kPtGnuEhFrame)) {
      seg_hdr.name = "PT_GNU_EH_FRAME";
      seg_hdr.addr = g->vaddr;
      seg_hdr.offset = g->offset;
      seg_hdr.size = g->filesz;
      hdr = &seg_hdr;
    }
  }
  if (hdr) {
    if (!elf::ReadSection(*src_, elf_, *hdr, kMaxCfiSectionBytes, &hdr_bytes_, &why)) {
      issues.push_back(why);
    } else {
      hdr_address_ = hdr->addr;
      hdr_ok_ = ParseEhFrameHdr(hdr_bytes_.data(), hdr_bytes_.size(), hdr->addr, order_, address_size_, &hdr_, &why);
      if (!hdr_ok_) issues.push_back(why);
    }
  }
  // .eh_frame: the section, else from the header's pointer to the end of its PT_LOAD.
  const elf::SectionHeader* eh = elf_.FindSection(".eh_frame");
  elf::SectionHeader ptr_eh;
  if (!eh && hdr_ok_ && hdr_.has_eh_frame_ptr) {
    if (const elf::ProgramHeader* l = elf_.LoadAtAddress(hdr_.eh_frame_ptr)) {
      uint64_t into = hdr_.eh_frame_ptr - l->vaddr;
      if (into < l->filesz) {
        ptr_eh.name = ".eh_frame (from .eh_frame_hdr)";
        ptr_eh.addr = hdr_.eh_frame_ptr;
        ptr_eh.offset = l->offset + into;
        ptr_eh.size = l->filesz - into;
        eh = &ptr_eh;
      }
    }
  }
  if (eh) {
    if (!elf::ReadSection(*src_, elf_, *eh, kMaxCfiSectionBytes, &eh_bytes_, &why)) issues.push_back(why);
    else SetupSection(&eh_, eh_bytes_, eh->addr, true);
  }
  if (hdr_ok_ && !eh_.data) {
    hdr_ok_ = false;
    issues.push_back(".eh_frame_hdr without a readable .eh_frame");
  }
  const elf::SectionHeader* dbg = elf_.FindSection(".debug_frame");
  if (!dbg) dbg = elf_.FindSection(".zdebug_frame");
  if (dbg) {
    if (!elf::ReadSection(*src_, elf_, *dbg, kMaxCfiSectionBytes, &debug_bytes_, &why)) issues.push_back(why);
    else SetupSection(&debug_, debug_bytes_, 0, false);
  }
  for (const auto& i : issues) problem_ += (problem_.empty() ? "" : "; ") + i;
}

const Cie* UnwindModule::CieAt(const CfiSection& s, uint64_t offset, CfiError* e) {
  auto& cache = s.eh_frame ? eh_cies_ : debug_cies_;
  auto it = cache.find(offset);
  if (it != cache.end()) return it->second.get();
  const uint64_t key = offset | (s.eh_frame ? 0 : (uint64_t{1} << 63));
  auto bad = bad_cies_.find(key);
  if (bad != bad_cies_.end()) { *e = bad->second; return nullptr; }
  auto c = std::make_unique<Cie>();
  CfiError err = ParseCie(s, offset, c.get());
  if (err != CfiError::kNone) {
    bad_cies_[key] = err;
    *e = err;
    return nullptr;
  }
  return cache.emplace(offset, std::move(c)).first->second.get();
}

UnwindModule::FdeStatus UnwindModule::FdeAt(const CfiSection& s, uint64_t offset, uint64_t pc, FdeHit* out,
                                            CfiError* e) {
  EntryHeader h;
  CfiError err = ReadEntryHeader(s, offset, &h);
  if (err == CfiError::kNone && h.is_cie) err = CfiError::kNotACie;
  if (err != CfiError::kNone) { *e = err == CfiError::kTerminator ? CfiError::kNotACie : err; return FdeStatus::kBadCfi; }
  const Cie* cie = CieAt(s, h.cie_offset, e);
  if (!cie) return FdeStatus::kBadCfi;
  Fde f;
  err = ParseFde(s, h, *cie, &f);
  if (err != CfiError::kNone) { *e = err; return FdeStatus::kBadCfi; }
  if (pc < f.pc_begin || pc >= f.pc_end) return FdeStatus::kNotCovered;
  out->section = &s;
  out->cie = cie;
  out->fde = f;
  return FdeStatus::kFound;
}

UnwindModule::FdeStatus UnwindModule::FindFde(uint64_t pc, bool eh_frame_without_hdr, FdeHit* out, CfiError* error,
                                              uint64_t* error_offset) {
  Load();
  FdeStatus status = FdeStatus::kNoUnwindInfo;
  *error = CfiError::kNone;
  if (hdr_ok_ && hdr_.searchable) {
    uint64_t fde_address;
    status = FdeStatus::kNotCovered;
    if (LookupEhFrameHdr(hdr_, hdr_bytes_.data(), hdr_bytes_.size(), hdr_address_, order_, address_size_, pc,
                         &fde_address)) {
      const uint64_t off = fde_address - eh_.address;
      if (fde_address < eh_.address || off >= eh_.size) {
        *error = CfiError::kBadLength;
        *error_offset = off;
        status = FdeStatus::kBadCfi;
      } else {
        status = FdeAt(eh_, off, pc, out, error);
        if (status == FdeStatus::kFound) return status;
        if (status == FdeStatus::kBadCfi) *error_offset = off;
      }
    }
  } else if (eh_.data && (eh_frame_without_hdr || synthetic_)) {
    if (!eh_index_built_) {
      eh_index_.Build(eh_, kMaxIndexedFdes);
      eh_index_built_ = true;
    }
    uint64_t off;
    status = FdeStatus::kNotCovered;
    if (eh_index_.Lookup(pc, &off)) {
      status = FdeAt(eh_, off, pc, out, error);
      if (status == FdeStatus::kFound) return status;
      if (status == FdeStatus::kBadCfi) *error_offset = off;
    }
  }
  if (debug_.data) {
    if (!debug_index_built_) {
      debug_index_.Build(debug_, kMaxIndexedFdes);
      debug_index_built_ = true;
    }
    uint64_t off;
    FdeStatus d = FdeStatus::kNotCovered;
    CfiError derr = CfiError::kNone;
    if (debug_index_.Lookup(pc, &off)) {
      d = FdeAt(debug_, off, pc, out, &derr);
      if (d == FdeStatus::kFound) { *error = CfiError::kNone; return d; }
      if (d == FdeStatus::kBadCfi) { *error = derr; *error_offset = off; }
    }
    status = d;
  }
  return status;
}

bool UnwindModule::ReadAddress(uint64_t address, unsigned size, uint64_t* out) {
  if (synthetic_ || !src_ || size == 0 || size > 8) return false;
  for (const auto& s : elf_.segments) {
    if (s.type != elf::kPtLoad || address < s.vaddr) continue;
    const uint64_t into = address - s.vaddr;
    if (into >= s.filesz || size > s.filesz - into) continue;
    uint8_t b[8];
    if (src_->Read(s.offset + into, b, size) != size) return false;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) {
      const unsigned shift = order_ == ByteOrder::kLittle ? 8 * i : 8 * (size - 1 - i);
      v |= static_cast<uint64_t>(b[i]) << shift;
    }
    *out = v;
    return true;
  }
  return false;
}

}  // namespace profscope::unwind
