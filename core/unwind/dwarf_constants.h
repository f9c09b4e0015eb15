// DWARF call frame information constants: CFA instructions, pointer
// encodings of .eh_frame, and the expression operations CFI uses.
// Source of truth: DWARF 5 §6.4 (call frame information) and §2.5 (DWARF
// expressions), the LSB's .eh_frame/.eh_frame_hdr chapter, and GCC's
// dwarf2.def / unwind-pe.h for the GNU extensions.
#pragma once

#include <cstdint>

namespace profscope::unwind {

// DW_CFA_*: the high two bits carry the three "primary" opcodes.
inline constexpr uint8_t kCfaAdvanceLoc = 0x40, kCfaOffset = 0x80, kCfaRestore = 0xc0;
inline constexpr uint8_t kCfaNop = 0x00, kCfaSetLoc = 0x01, kCfaAdvanceLoc1 = 0x02, kCfaAdvanceLoc2 = 0x03,
                         kCfaAdvanceLoc4 = 0x04, kCfaOffsetExtended = 0x05, kCfaRestoreExtended = 0x06,
                         kCfaUndefined = 0x07, kCfaSameValue = 0x08, kCfaRegister = 0x09,
                         kCfaRememberState = 0x0a, kCfaRestoreState = 0x0b, kCfaDefCfa = 0x0c,
                         kCfaDefCfaRegister = 0x0d, kCfaDefCfaOffset = 0x0e, kCfaDefCfaExpression = 0x0f,
                         kCfaExpression = 0x10, kCfaOffsetExtendedSf = 0x11, kCfaDefCfaSf = 0x12,
                         kCfaDefCfaOffsetSf = 0x13, kCfaValOffset = 0x14, kCfaValOffsetSf = 0x15,
                         kCfaValExpression = 0x16, kCfaMipsAdvanceLoc8 = 0x1d,
                         kCfaGnuWindowSave = 0x2d,  // = DW_CFA_AARCH64_negate_ra_state on aarch64
                         kCfaGnuArgsSize = 0x2e, kCfaGnuNegativeOffsetExtended = 0x2f;

// DW_EH_PE_*: low nibble = value format, bits 4-6 = how it is applied, bit 7 = indirect.
inline constexpr uint8_t kPeAbsptr = 0x00, kPeUleb128 = 0x01, kPeUdata2 = 0x02, kPeUdata4 = 0x03,
                         kPeUdata8 = 0x04, kPeSigned = 0x08, kPeSleb128 = 0x09, kPeSdata2 = 0x0a,
                         kPeSdata4 = 0x0b, kPeSdata8 = 0x0c;
inline constexpr uint8_t kPePcrel = 0x10, kPeTextrel = 0x20, kPeDatarel = 0x30, kPeFuncrel = 0x40,
                         kPeAligned = 0x50, kPeIndirect = 0x80, kPeOmit = 0xff;

// DW_OP_* used by CFI expressions.
inline constexpr uint8_t kOpAddr = 0x03, kOpDeref = 0x06, kOpConst1u = 0x08, kOpConst1s = 0x09,
                         kOpConst2u = 0x0a, kOpConst2s = 0x0b, kOpConst4u = 0x0c, kOpConst4s = 0x0d,
                         kOpConst8u = 0x0e, kOpConst8s = 0x0f, kOpConstu = 0x10, kOpConsts = 0x11,
                         kOpDup = 0x12, kOpDrop = 0x13, kOpOver = 0x14, kOpPick = 0x15, kOpSwap = 0x16,
                         kOpRot = 0x17, kOpXderef = 0x18, kOpAbs = 0x19, kOpAnd = 0x1a, kOpDiv = 0x1b,
                         kOpMinus = 0x1c, kOpMod = 0x1d, kOpMul = 0x1e, kOpNeg = 0x1f, kOpNot = 0x20,
                         kOpOr = 0x21, kOpPlus = 0x22, kOpPlusUconst = 0x23, kOpShl = 0x24, kOpShr = 0x25,
                         kOpShra = 0x26, kOpXor = 0x27, kOpBra = 0x28, kOpEq = 0x29, kOpGe = 0x2a,
                         kOpGt = 0x2b, kOpLe = 0x2c, kOpLt = 0x2d, kOpNe = 0x2e, kOpSkip = 0x2f,
                         kOpLit0 = 0x30, kOpLit31 = 0x4f, kOpReg0 = 0x50, kOpReg31 = 0x6f,
                         kOpBreg0 = 0x70, kOpBreg31 = 0x8f, kOpRegx = 0x90, kOpFbreg = 0x91,
                         kOpBregx = 0x92, kOpPiece = 0x93, kOpDerefSize = 0x94, kOpXderefSize = 0x95,
                         kOpNop = 0x96, kOpCallFrameCfa = 0x9c, kOpStackValue = 0x9f;

}  // namespace profscope::unwind
