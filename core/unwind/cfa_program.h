// Runs a CIE's and an FDE's CFA instructions up to a pc and yields the row of
// the unwind table that holds there: how to compute the CFA and where each
// register of the caller is. Every DW_CFA_* instruction of DWARF 5 plus the
// GNU ones (args_size, negative_offset_extended) and
// DW_CFA_AARCH64_negate_ra_state. Bounded: a program runs at most
// kMaxCfaInstructions instructions and keeps at most kMaxRememberDepth states.
// Source of truth: DWARF 5 §6.4.2 (instructions) and §6.4.3 (the table).
#pragma once

#include <cstdint>
#include <vector>

#include "core/unwind/arch.h"
#include "core/unwind/cfi_entries.h"

namespace profscope::unwind {

inline constexpr size_t kMaxCfaInstructions = 100000;
inline constexpr size_t kMaxRememberDepth = 64;

enum class RuleKind : uint8_t {
  kSameValue,      // the caller's value is this frame's value (the default)
  kUndefined,      // not recoverable (a return address: the outermost frame)
  kOffset,         // saved at CFA + offset
  kValOffset,      // the value is CFA + offset
  kRegister,       // in register `reg` of this frame
  kExpression,     // saved at the address the expression computes (CFA pushed first)
  kValExpression,  // the value the expression computes (CFA pushed first)
};

struct RegisterRule {
  RuleKind kind = RuleKind::kSameValue;
  uint16_t reg = 0;
  int64_t offset = 0;
  const uint8_t* expr = nullptr;  // into the CFI section's bytes
  uint32_t expr_size = 0;
};

struct CfaRule {
  bool defined = false;
  bool is_expression = false;
  uint16_t reg = 0;
  int64_t offset = 0;
  const uint8_t* expr = nullptr;
  uint32_t expr_size = 0;
};

struct UnwindRow {
  CfaRule cfa;
  RegisterRule regs[kMaxTrackedRegs];
  uint16_t ra_register = 0;
  bool signal_frame = false;  // the CIE's 'S'
  bool ra_signed = false;     // aarch64: negate_ra_state toggled an odd number of times
  uint64_t args_size = 0;
  uint64_t start = 0, end = 0;  // link-time pcs [start, end) where this row holds
};

// Scratch a caller keeps between calls (the remember_state stack).
struct CfaScratch {
  std::vector<UnwindRow> stack;
};

// The row for link-time `pc` (pc_begin <= pc < pc_end of `fde`). On error the
// row is unspecified; `error_offset` (when not null) gets the section offset of
// the instruction at fault.
CfiError ComputeRow(const CfiSection& s, const Cie& cie, const Fde& fde, uint64_t pc, Arch arch, CfaScratch* scratch,
                    UnwindRow* out, uint64_t* error_offset = nullptr);

}  // namespace profscope::unwind
