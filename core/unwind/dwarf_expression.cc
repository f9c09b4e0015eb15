#include "core/unwind/dwarf_expression.h"

#include "core/unwind/dwarf_constants.h"
#include "core/unwind/dwarf_read.h"

namespace profscope::unwind {

const char* ExprErrorName(ExprError e) {
  switch (e) {
    case ExprError::kNone: return "no error";
    case ExprError::kTruncated: return "expression truncated";
    case ExprError::kStackOverflow: return "expression stack overflow";
    case ExprError::kStackUnderflow: return "expression stack underflow";
    case ExprError::kEmpty: return "expression leaves no value";
    case ExprError::kTooManySteps: return "expression runs too many steps";
    case ExprError::kBadOp: return "operation not allowed in a CFI expression";
    case ExprError::kBadBranch: return "expression branches outside itself";
    case ExprError::kRegister: return "expression reads an unknown register";
    case ExprError::kMemory: return "expression reads unreadable memory";
    case ExprError::kDivideByZero: return "expression divides by zero";
  }
  return "?";
}

ExprError EvaluateExpression(const uint8_t* expr, size_t size, ByteOrder order, uint8_t address_size, ExprEnv& env,
                             const uint64_t* initial, uint64_t* out) {
  uint64_t stack[kMaxExprStack];
  size_t sp = 0;
  const uint64_t mask = address_size == 4 ? 0xffffffffu : ~uint64_t{0};
  const unsigned bits = address_size == 4 ? 32 : 64;
  // Signed view of a generic-type value.
  auto sgn = [&](uint64_t v) -> int64_t {
    if (bits == 32) return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v)));
    return static_cast<int64_t>(v);
  };
  auto push = [&](uint64_t v) {
    if (sp >= kMaxExprStack) return false;
    stack[sp++] = v & mask;
    return true;
  };
  if (initial && !push(*initial)) return ExprError::kStackOverflow;
  ByteReader r(expr, size, 0, order);
  size_t steps = 0;
  while (!r.at_end()) {
    if (++steps > kMaxExprSteps) return ExprError::kTooManySteps;
    const uint8_t op = r.U8();
    uint64_t v = 0;
    bool pushes = true;  // most operations push `v`
    if (op >= kOpLit0 && op <= kOpLit31) {
      v = op - kOpLit0;
    } else if (op >= kOpBreg0 && op <= kOpBreg31) {
      int64_t off = ReadSleb128(r);
      if (!r.ok()) return ExprError::kTruncated;
      if (!env.Register(op - kOpBreg0, &v)) return ExprError::kRegister;
      v += static_cast<uint64_t>(off);
    } else if (op >= kOpReg0 && op <= kOpReg31) {
      return ExprError::kBadOp;  // a register location, not a value or an address
    } else {
      switch (op) {
        case kOpAddr: v = address_size == 4 ? r.U32() : r.U64(); break;
        case kOpConst1u: v = r.U8(); break;
        case kOpConst1s: v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(r.U8()))); break;
        case kOpConst2u: v = r.U16(); break;
        case kOpConst2s: v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(r.U16()))); break;
        case kOpConst4u: v = r.U32(); break;
        case kOpConst4s: v = static_cast<uint64_t>(static_cast<int64_t>(r.I32())); break;
        case kOpConst8u: case kOpConst8s: v = r.U64(); break;
        case kOpConstu: v = ReadUleb128(r); break;
        case kOpConsts: v = static_cast<uint64_t>(ReadSleb128(r)); break;
        case kOpBregx: {
          uint64_t reg = ReadUleb128(r);
          int64_t off = ReadSleb128(r);
          if (!r.ok()) return ExprError::kTruncated;
          if (reg > 0xffff || !env.Register(static_cast<unsigned>(reg), &v)) return ExprError::kRegister;
          v += static_cast<uint64_t>(off);
          break;
        }
        case kOpDup: if (sp < 1) return ExprError::kStackUnderflow; v = stack[sp - 1]; break;
        case kOpDrop: if (sp < 1) return ExprError::kStackUnderflow; --sp; pushes = false; break;
        case kOpOver: if (sp < 2) return ExprError::kStackUnderflow; v = stack[sp - 2]; break;
        case kOpPick: {
          uint8_t i = r.U8();
          if (!r.ok()) return ExprError::kTruncated;
          if (i >= sp) return ExprError::kStackUnderflow;
          v = stack[sp - 1 - i];
          break;
        }
        case kOpSwap: {
          if (sp < 2) return ExprError::kStackUnderflow;
          uint64_t t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t;
          pushes = false;
          break;
        }
        case kOpRot: {
          // top -> third, second -> top, third -> second
          if (sp < 3) return ExprError::kStackUnderflow;
          uint64_t a = stack[sp - 1], b = stack[sp - 2], c = stack[sp - 3];
          stack[sp - 1] = b; stack[sp - 2] = c; stack[sp - 3] = a;
          pushes = false;
          break;
        }
        case kOpDeref: case kOpDerefSize: {
          unsigned n = address_size;
          if (op == kOpDerefSize) {
            n = r.U8();
            if (!r.ok()) return ExprError::kTruncated;
            if (n == 0 || n > address_size) return ExprError::kBadOp;
          }
          if (sp < 1) return ExprError::kStackUnderflow;
          uint64_t a = stack[--sp];
          if (!env.Memory(a, n, &v)) return ExprError::kMemory;
          break;
        }
        case kOpAbs: case kOpNeg: case kOpNot: {
          if (sp < 1) return ExprError::kStackUnderflow;
          uint64_t a = stack[--sp];
          if (op == kOpAbs) v = sgn(a) < 0 ? 0 - a : a;
          else if (op == kOpNeg) v = 0 - a;
          else v = ~a;
          break;
        }
        case kOpPlusUconst: {
          uint64_t c = ReadUleb128(r);
          if (!r.ok()) return ExprError::kTruncated;
          if (sp < 1) return ExprError::kStackUnderflow;
          v = stack[--sp] + c;
          break;
        }
        case kOpAnd: case kOpDiv: case kOpMinus: case kOpMod: case kOpMul: case kOpOr: case kOpPlus:
        case kOpShl: case kOpShr: case kOpShra: case kOpXor: case kOpEq: case kOpGe: case kOpGt:
        case kOpLe: case kOpLt: case kOpNe: {
          if (sp < 2) return ExprError::kStackUnderflow;
          uint64_t b = stack[--sp], a = stack[--sp];  // a = second, b = top
          switch (op) {
            case kOpAnd: v = a & b; break;
            case kOpOr: v = a | b; break;
            case kOpXor: v = a ^ b; break;
            case kOpPlus: v = a + b; break;
            case kOpMinus: v = a - b; break;
            case kOpMul: v = a * b; break;
            case kOpDiv: {
              int64_t x = sgn(a), y = sgn(b);
              if (y == 0) return ExprError::kDivideByZero;
              v = (y == -1) ? static_cast<uint64_t>(0) - static_cast<uint64_t>(x) : static_cast<uint64_t>(x / y);
              break;
            }
            case kOpMod: if (b == 0) return ExprError::kDivideByZero; v = a % b; break;
            case kOpShl: v = b >= bits ? 0 : a << b; break;
            case kOpShr: v = b >= bits ? 0 : a >> b; break;
            case kOpShra: {
              int64_t x = sgn(a);
              v = static_cast<uint64_t>(b >= bits ? (x < 0 ? -1 : 0) : (x >> b));
              break;
            }
            case kOpEq: v = sgn(a) == sgn(b); break;
            case kOpNe: v = sgn(a) != sgn(b); break;
            case kOpGe: v = sgn(a) >= sgn(b); break;
            case kOpGt: v = sgn(a) > sgn(b); break;
            case kOpLe: v = sgn(a) <= sgn(b); break;
            case kOpLt: v = sgn(a) < sgn(b); break;
          }
          break;
        }
        case kOpSkip: case kOpBra: {
          int16_t d = static_cast<int16_t>(r.U16());
          if (!r.ok()) return ExprError::kTruncated;
          pushes = false;
          bool take = true;
          if (op == kOpBra) {
            if (sp < 1) return ExprError::kStackUnderflow;
            take = stack[--sp] != 0;
          }
          if (take) {
            int64_t to = static_cast<int64_t>(r.pos()) + d;
            if (to < 0 || static_cast<uint64_t>(to) > size) return ExprError::kBadBranch;
            r.Seek(static_cast<size_t>(to));
          }
          break;
        }
        case kOpNop: case kOpStackValue: pushes = false; break;
        default:
          return ExprError::kBadOp;  // regx, fbreg, piece, xderef, call*, call_frame_cfa, ...
      }
    }
    if (!r.ok()) return ExprError::kTruncated;
    if (pushes && !push(v)) return ExprError::kStackOverflow;
  }
  if (sp == 0) return ExprError::kEmpty;
  *out = stack[sp - 1] & mask;
  return ExprError::kNone;
}

}  // namespace profscope::unwind
