// A bounded DWARF expression evaluator for call frame information
// (DW_CFA_def_cfa_expression, DW_CFA_expression, DW_CFA_val_expression):
// constants, literals, register-relative values (DW_OP_breg*, bregx), memory
// reads (deref, deref_size), stack manipulation, arithmetic, comparisons and
// branches. At most kMaxExprStack values and kMaxExprSteps operations, so a
// hostile expression (a DW_OP_skip loop, a huge one) ends with an error.
// Source of truth: DWARF 5 §2.5.1 (stack operations); libunwind's Gexpr.c
// for what CFI evaluators support (64-entry stack, signed comparisons).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/io/byte_reader.h"

namespace profscope::unwind {

inline constexpr size_t kMaxExprStack = 64;
inline constexpr size_t kMaxExprSteps = 10000;

// What an expression may look at: the frame's registers and memory.
class ExprEnv {
 public:
  virtual ~ExprEnv() = default;
  // The value of DWARF register `reg` in the frame; false when unknown.
  virtual bool Register(unsigned reg, uint64_t* value) = 0;
  // `size` bytes (1..8) at `address`, zero-extended; false when unreadable.
  virtual bool Memory(uint64_t address, unsigned size, uint64_t* value) = 0;
};

enum class ExprError : uint8_t {
  kNone = 0,
  kTruncated,       // an operand runs past the expression's end
  kStackOverflow,
  kStackUnderflow,
  kEmpty,           // the stack is empty at the end
  kTooManySteps,
  kBadOp,           // an operation CFI expressions cannot use (DW_OP_reg*, piece, call*, fbreg...)
  kBadBranch,       // skip/bra outside the expression
  kRegister,        // a register the frame does not know
  kMemory,          // a memory read outside what is readable
  kDivideByZero,
};
const char* ExprErrorName(ExprError e);

// Evaluates [expr, expr+size). `initial` (when not null) is pushed first (the
// CFA, for DW_CFA_expression and DW_CFA_val_expression). The result is the
// value on top of the stack, truncated to `address_size` bytes (4 or 8).
ExprError EvaluateExpression(const uint8_t* expr, size_t size, ByteOrder order, uint8_t address_size, ExprEnv& env,
                             const uint64_t* initial, uint64_t* out);

}  // namespace profscope::unwind
