#include "core/unwind/eh_frame_hdr.h"

#include "core/unwind/dwarf_constants.h"

namespace profscope::unwind {

namespace {

PointerBases HdrBases(uint64_t address, uint8_t address_size) {
  PointerBases b;
  b.section_address = address;
  b.data = address;  // DW_EH_PE_datarel is relative to the start of .eh_frame_hdr
  b.has_data = true;
  b.address_size = address_size;
  return b;
}

}  // namespace

bool ParseEhFrameHdr(const uint8_t* data, size_t size, uint64_t address, ByteOrder order, uint8_t address_size,
                     EhFrameHdr* out, std::string* why) {
  *out = EhFrameHdr{};
  ByteReader r(data, size, 0, order);
  out->version = r.U8();
  out->eh_frame_ptr_enc = r.U8();
  out->fde_count_enc = r.U8();
  out->table_enc = r.U8();
  if (!r.ok()) { *why = ".eh_frame_hdr is shorter than its 4-byte header"; return false; }
  if (out->version != 1) { *why = ".eh_frame_hdr has version " + std::to_string(out->version) + " (not 1)"; return false; }
  const PointerBases b = HdrBases(address, address_size);
  PointerStatus s = ReadEncodedPointer(r, out->eh_frame_ptr_enc, b, &out->eh_frame_ptr);
  if (s == PointerStatus::kOk) out->has_eh_frame_ptr = true;
  else if (s != PointerStatus::kOmitted) { *why = ".eh_frame_hdr's eh_frame_ptr is unreadable"; return false; }
  s = ReadEncodedPointer(r, out->fde_count_enc, b, &out->fde_count);
  if (s == PointerStatus::kOmitted) { out->fde_count = 0; return true; }
  if (s != PointerStatus::kOk) { *why = ".eh_frame_hdr's fde_count is unreadable"; return false; }
  out->table_offset = r.pos();
  if (out->table_enc == kPeOmit || (out->table_enc & kPeIndirect)) return true;
  const unsigned one = EncodedSize(out->table_enc, address_size);
  const unsigned app = out->table_enc & 0x70;
  if (one == 0 || (app != kPeAbsptr && app != kPeDatarel && app != kPePcrel)) return true;
  out->entry_size = 2 * one;
  if (out->fde_count > (size - out->table_offset) / out->entry_size) {
    *why = ".eh_frame_hdr says " + std::to_string(out->fde_count) + " table entries but holds room for " +
           std::to_string((size - out->table_offset) / out->entry_size);
    return false;
  }
  out->searchable = true;
  return true;
}

bool LookupEhFrameHdr(const EhFrameHdr& h, const uint8_t* data, size_t size, uint64_t address, ByteOrder order,
                      uint8_t address_size, uint64_t pc, uint64_t* fde_address) {
  if (!h.searchable || h.fde_count == 0) return false;
  const PointerBases b = HdrBases(address, address_size);
  ByteReader r(data, size, 0, order);
  auto field = [&](uint64_t i, unsigned which, uint64_t* v) {
    r.Seek(static_cast<size_t>(h.table_offset + i * h.entry_size + which * (h.entry_size / 2)));
    return ReadEncodedPointer(r, h.table_enc, b, v) == PointerStatus::kOk;
  };
  // The last entry with location <= pc.
  uint64_t lo = 0, hi = h.fde_count;  // answer in [lo - 1, hi)
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    uint64_t loc;
    if (!field(mid, 0, &loc)) return false;
    if (loc <= pc) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return false;
  return field(lo - 1, 1, fde_address);
}

}  // namespace profscope::unwind
