// One binary's unwind information: an ELF file (read lazily through a
// ByteSource: headers when made, .eh_frame_hdr/.eh_frame/.debug_frame on the
// first lookup, a sorted FDE index only where no .eh_frame_hdr table serves),
// or a synthetic module made from in-memory .eh_frame (+ .eh_frame_hdr) bytes,
// the way a jit dump's JIT_CODE_UNWINDING_INFO records carry them.
// Addresses here are link-time addresses (ELF p_vaddr space); a mapping's
// load bias turns them into the process's addresses.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/format/elf/elf_layout.h"
#include "core/io/byte_source.h"
#include "core/io/keyed_hash.h"
#include "core/unwind/cfi_entries.h"
#include "core/unwind/eh_frame_hdr.h"
#include "core/unwind/fde_index.h"

namespace profscope::unwind {

// Caps on what one module may cost.
inline constexpr uint64_t kMaxCfiSectionBytes = 128u << 20;
inline constexpr size_t kMaxIndexedFdes = 4u << 20;

class UnwindModule {
 public:
  // An ELF file; `src` must outlive the module.
  static std::unique_ptr<UnwindModule> FromElf(ByteSource& src, std::string name);
  // Code without a file: `eh_frame` at link-time address `eh_frame_address`
  // and, when not empty, its `eh_frame_hdr` at `hdr_address`.
  static std::unique_ptr<UnwindModule> FromEhFrame(std::string name, ByteOrder order, uint8_t address_size,
                                                   std::vector<uint8_t> eh_frame, uint64_t eh_frame_address,
                                                   std::vector<uint8_t> eh_frame_hdr, uint64_t hdr_address);

  const std::string& name() const { return name_; }
  const std::string& build_id() const { return elf_.build_id; }
  const elf::ElfLayout& elf() const { return elf_; }
  bool synthetic() const { return synthetic_; }
  ByteOrder order() const { return order_; }
  uint8_t address_size() const { return address_size_; }

  // The load bias (process address - link-time address) of a mapping that
  // starts at `map_start` and maps file offset `pgoff`: from the PT_LOAD that
  // holds pgoff (a synthetic module's file offsets are its link-time
  // addresses). False when no PT_LOAD holds it.
  bool Bias(uint64_t map_start, uint64_t pgoff, uint64_t* bias) const;
  // perf's elf_base_address: the first PT_LOAD's vaddr - offset (0 for a synthetic module).
  uint64_t ElfBase() const;

  enum class FdeStatus : uint8_t {
    kFound,
    kNotCovered,     // the tables have no FDE for this pc (libunwind's UNW_ENOINFO)
    kNoUnwindInfo,   // no usable .eh_frame_hdr / .debug_frame (or .eh_frame when allowed)
    kBadCfi,         // the FDE or its CIE is damaged
  };
  struct FdeHit {
    const CfiSection* section = nullptr;
    const Cie* cie = nullptr;
    Fde fde;
  };
  // The FDE covering link-time `pc`. Like perf with libunwind, .eh_frame is
  // searched through .eh_frame_hdr, then .debug_frame; with
  // `eh_frame_without_hdr` a module whose .eh_frame has no usable header table
  // gets a sorted index of its own.
  FdeStatus FindFde(uint64_t pc, bool eh_frame_without_hdr, FdeHit* out, CfiError* error, uint64_t* error_offset);

  // `size` (1..8) bytes of the file at link-time address `address` (inside a
  // PT_LOAD's file bytes), in the module's byte order.
  bool ReadAddress(uint64_t address, unsigned size, uint64_t* out);

  // Why unwind info is missing or partly unusable ("" when all is well);
  // filled on the first FindFde.
  const std::string& cfi_problem() const { return problem_; }
  bool has_eh_frame_hdr() { Load(); return hdr_ok_; }
  bool has_debug_frame() { Load(); return debug_.data != nullptr; }

 private:
  UnwindModule() = default;
  void Load();
  void LoadElfSections();
  void SetupSection(CfiSection* s, const std::vector<uint8_t>& bytes, uint64_t address, bool eh_frame);
  const Cie* CieAt(const CfiSection& s, uint64_t offset, CfiError* e);
  FdeStatus FdeAt(const CfiSection& s, uint64_t offset, uint64_t pc, FdeHit* out, CfiError* e);

  std::string name_;
  ByteSource* src_ = nullptr;
  elf::ElfLayout elf_;
  bool synthetic_ = false;
  ByteOrder order_ = ByteOrder::kLittle;
  uint8_t address_size_ = 8;
  bool loaded_ = false;
  std::string problem_;

  std::vector<uint8_t> hdr_bytes_, eh_bytes_, debug_bytes_;
  uint64_t hdr_address_ = 0;
  EhFrameHdr hdr_;
  bool hdr_ok_ = false;
  CfiSection eh_, debug_;
  FdeIndex eh_index_, debug_index_;
  bool eh_index_built_ = false, debug_index_built_ = false;
  std::unordered_map<uint64_t, std::unique_ptr<Cie>, KeyedIntHash> eh_cies_, debug_cies_;
  std::unordered_map<uint64_t, CfiError, KeyedIntHash> bad_cies_;  // key: offset, high bit = .debug_frame
};

}  // namespace profscope::unwind
