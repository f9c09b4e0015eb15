// Unwinds one sample's user stack from its registers and stack copy
// (perf record --call-graph dwarf: PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER)
// with the DWARF CFI of the binaries mapped into the process.
//
// Frames come out as perf (built with libunwind, as Debian's perf 6.1 is)
// makes them: the first frame is the sampled ip; every further frame is its
// return address minus 1, except after a signal frame (a CIE with 'S', the
// kernel's/libc's sigreturn trampoline) where the interrupted pc is exact
// (perf's get_entries in util/unwind-libunwind-local.c, libunwind's
// unw_is_signal_frame). Memory is the stack copy [sp, sp + dyn_size) -- as
// perf, whose access_mem tests `addr + 8 >= end`, never its last 8 bytes --
// and else the file bytes of the binary mapped at that address; nothing else.
// Unwinding stops (with a reason) when the return address is undefined (the
// outermost frame), a pc is in no mapping or in a mapping whose binary is
// missing, no CFI covers it, a read leaves the stack copy, the pc and CFA do
// not change, or at perf's depth cap (127 frames, PERF_MAX_STACK_DEPTH).
// Where perf+libunwind differ from the DWARF standard, perf is followed (see
// UnwindOptions::perf_compatible); the differences are listed in unwinder.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/unwind/arch.h"
#include "core/unwind/cfa_program.h"
#include "core/unwind/dwarf_expression.h"
#include "core/unwind/perf_registers.h"
#include "core/unwind/unwind_module.h"

namespace profscope::unwind {

// What the caller says about the address space of the sampled process.
struct ModuleHit {
  UnwindModule* module = nullptr;  // null: the mapping's binary was not given (or is anonymous memory)
  uint64_t bias = 0;               // process address - link-time address
  int32_t mapping = -1;            // the caller's id of the mapping (reported back)
  // The bias the unwind tables are searched with, where it is not `bias`
  // (perf 6.1 places a DSO's .eh_frame_hdr from the lowest mapping of that
  // DSO in the process, which is not its load base when a stale mapping sits
  // lower or only a later segment was mapped: its lookups then find no FDE).
  bool has_fde_bias = false;
  uint64_t fde_bias = 0;
};

class ModuleLookup {
 public:
  virtual ~ModuleLookup() = default;
  // The mapping that covers process address `address` at the sample's time;
  // false when none does.
  virtual bool Find(uint64_t address, ModuleHit* out) = 0;
};

// The sample's copy of its user stack (PERF_SAMPLE_STACK_USER).
struct StackCopy {
  const uint8_t* data = nullptr;  // `size` bytes as recorded
  uint64_t size = 0;
  uint64_t dyn_size = 0;          // how many of them the kernel filled (from sp up)
  uint64_t file_offset = 0;       // absolute file offset of data[0] (frame -> bytes links)
  ByteOrder order = ByteOrder::kLittle;
};

enum class StopReason : uint8_t {
  kOutermost = 0,    // the return address (x86_64: or %rbp) is undefined: the root frame
  kNoRegisters,      // no user registers (abi NONE, a kernel thread) or no ip/sp among them
  kEmptyStack,       // dyn_size 0: perf takes no user frames at all
  kNoMapping,        // no mapping covers the pc
  kMissingBinary,    // the mapping's binary was not given
  kNoUnwindInfo,     // the binary has no .eh_frame_hdr / .debug_frame perf would use
  kNoFde,            // no FDE covers the pc
  kBadCfi,           // the CIE/FDE or its CFA program is damaged
  kBadExpression,    // a DWARF expression failed
  kRegisterUnknown,  // a rule needs a register the sample lacks or that is undefined
  kStackCopyEnd,     // a read went past the end of the stack copy: the copy was too small
  kUnreadableMemory, // a read outside the stack copy that no binary's bytes hold
  kNoProgress,       // pc and CFA unchanged by a step
  kCfaNotIncreasing, // (require_cfa_increase) the CFA did not move up
  kDepthLimit,       // max_frames reached
};
const char* StopReasonName(StopReason r);

inline constexpr uint64_t kNoSlot = ~uint64_t{0};

struct UnwoundFrame {
  uint64_t address = 0;      // as perf reports it (ip; return address - 1; exact pc after a signal frame)
  uint64_t pc = 0;           // the frame's pc (the return address itself for callers)
  uint64_t ra_slot = kNoSlot;  // absolute file offset of the stack-copy slot that held this frame's return address
  int32_t mapping = -1;      // ModuleHit::mapping of `address`, -1 when none
};

struct UnwindResult {
  std::vector<UnwoundFrame> frames;  // the sampled frame first
  StopReason stop = StopReason::kOutermost;
  uint64_t stop_pc = 0;        // the (lookup) pc of the frame that could not be unwound
  int32_t stop_mapping = -1;   // its mapping (kMissingBinary: the binary to ask for)
  uint64_t stack_needed = 0;   // kStackCopyEnd: bytes from sp a copy would have needed for this read
  CfiError cfi_error = CfiError::kNone;
  ExprError expr_error = ExprError::kNone;
  uint64_t cfi_offset = 0;     // kBadCfi: offset of the bad entry/instruction in its section
  std::string detail;          // one line for a diagnostic
};

struct UnwindOptions {
  // Frames at most, the sampled one included (perf's PERF_MAX_STACK_DEPTH, perf script's --max-stack).
  size_t max_frames = 127;
  // Follow perf + libunwind where they differ from plain DWARF: the stack
  // copy's last 8 bytes are unreadable; .eh_frame is only found through
  // .eh_frame_hdr; x86_64's fallbacks when no FDE covers the pc (a PLT stub's
  // `ff 25 .. 68 .. e9` pattern, else the %rbp chain); a CFA rule on %rsp
  // reads the previous CFA. Off: plain DWARF with an own .eh_frame index.
  bool perf_compatible = true;
  // Also stop when the CFA does not increase (libunwind only stops when pc
  // and CFA are both unchanged).
  bool require_cfa_increase = false;
};

class Unwinder {
 public:
  explicit Unwinder(UnwindOptions options = {});
  ~Unwinder();

  // One sample recorded on `machine` (the perf.data's arch): its
  // PERF_SAMPLE_REGS_USER block (abi, mask = attr.sample_regs_user, `count`
  // values), its stack copy, and the process's mappings.
  void Unwind(Arch machine, RegisterAbi who, uint64_t abi, uint64_t mask, const uint64_t* values, size_t count,
              const StackCopy& stack, ModuleLookup& modules, UnwindResult* out);
  // The same with the registers already in DWARF numbering.
  void Unwind(Arch task, const RegisterFile& regs, const StackCopy& stack, ModuleLookup& modules,
              UnwindResult* out);

  struct Stats {
    uint64_t samples = 0, frames = 0, row_cache_hits = 0, row_cache_misses = 0;
  };
  const Stats& stats() const { return stats_; }
  const UnwindOptions& options() const { return options_; }
  // Forgets cached rows (call when modules are destroyed).
  void ClearCache();

 private:
  struct Impl;
  UnwindOptions options_;
  Stats stats_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace profscope::unwind
