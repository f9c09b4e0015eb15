#include "core/unwind/cfa_program.h"

#include "core/unwind/dwarf_constants.h"
#include "core/unwind/dwarf_read.h"

namespace profscope::unwind {

namespace {

// A factored offset times the CIE's data alignment, wrapping as the hardware
// does (a hostile CIE/FDE may overflow; signed overflow would be undefined).
int64_t Scaled(uint64_t factored, int64_t data_align) {
  return static_cast<int64_t>(factored * static_cast<uint64_t>(data_align));
}


class Runner {
 public:
  Runner(const CfiSection& s, const Cie& cie, Arch arch, CfaScratch* scratch, UnwindRow* row)
      : s_(s), cie_(cie), info_(Info(arch)), arch_(arch), scratch_(scratch), row_(row) {}

  // Runs [p, p+n) while the location stays <= `pc` (CIE programs: pc = ~0).
  CfiError Run(const uint8_t* p, size_t n, uint64_t start_loc, uint64_t pc, bool is_cie, uint64_t* error_offset);
  uint64_t loc() const { return loc_; }
  uint64_t next_loc() const { return next_loc_; }
  bool stopped_early() const { return stopped_; }
  UnwindRow initial;  // the row after the CIE's program (DW_CFA_restore*)

 private:
  RegisterRule* Rule(uint64_t reg, CfiError* e) {
    if (reg >= info_.max_register) { *e = CfiError::kBadRegister; return nullptr; }
    if (reg >= info_.tracked) return &ignored_;
    return &row_->regs[reg];
  }
  bool Block(ByteReader& r, const uint8_t** p, uint32_t* n) {
    uint64_t len = ReadUleb128(r);
    if (!r.ok() || len > r.remaining()) return false;
    *p = r.cursor();
    *n = static_cast<uint32_t>(len);
    r.Skip(static_cast<size_t>(len));
    return true;
  }
  const CfiSection& s_;
  const Cie& cie_;
  const ArchInfo& info_;
  Arch arch_;
  CfaScratch* scratch_;
  UnwindRow* row_;
  RegisterRule ignored_;
  uint64_t loc_ = 0, next_loc_ = ~uint64_t{0};
  bool stopped_ = false;
  size_t executed_ = 0;
  size_t depth_ = 0;
};

CfiError Runner::Run(const uint8_t* p, size_t n, uint64_t start_loc, uint64_t pc, bool is_cie,
                     uint64_t* error_offset) {
  ByteReader r(p, n, static_cast<uint64_t>(p - s_.data), s_.order);
  loc_ = start_loc;
  const uint64_t caf = cie_.code_align;
  const int64_t daf = cie_.data_align;
  PointerBases bases;
  bases.section_address = s_.address + static_cast<uint64_t>(p - s_.data);
  bases.text = s_.text_base;
  bases.has_text = s_.has_text_base;
  bases.data = s_.data_base;
  bases.has_data = s_.has_data_base;
  bases.address_size = cie_.address_size;
  bases.read_word = s_.read_word;
  CfiError e = CfiError::kNone;
  auto fail = [&](CfiError err, size_t at) {
    if (error_offset) *error_offset = r.base() + at;
    return err;
  };
  while (!r.at_end()) {
    const size_t at = r.pos();
    if (++executed_ > kMaxCfaInstructions) return fail(CfiError::kTooLong, at);
    uint8_t op = r.U8();
    uint64_t advance = 0;
    bool moves = false;
    switch (op & 0xc0) {
      case kCfaAdvanceLoc: advance = (op & 0x3f) * caf; moves = true; break;
      case kCfaOffset: {
        RegisterRule* rr = Rule(op & 0x3f, &e);
        int64_t off = Scaled(ReadUleb128(r), daf);
        if (!rr) return fail(e, at);
        *rr = RegisterRule{RuleKind::kOffset, 0, off, nullptr, 0};
        break;
      }
      case kCfaRestore: {
        uint64_t reg = op & 0x3f;
        RegisterRule* rr = Rule(reg, &e);
        if (!rr) return fail(e, at);
        if (reg < info_.tracked) *rr = is_cie ? RegisterRule{} : initial.regs[reg];
        break;
      }
      default:
        switch (op) {
          case kCfaNop: break;
          case kCfaSetLoc: {
            uint64_t v;
            uint8_t enc = s_.eh_frame ? cie_.fde_encoding : kPeAbsptr;
            PointerStatus ps = ReadEncodedPointer(r, enc, bases, &v);
            if (ps != PointerStatus::kOk) return fail(ps == PointerStatus::kTruncated ? CfiError::kTruncated : CfiError::kBadEncoding, at);
            if (v < loc_) return fail(CfiError::kBadOpcode, at);  // set_loc may only move forward
            advance = v - loc_;
            moves = true;
            break;
          }
          case kCfaAdvanceLoc1: advance = r.U8() * caf; moves = true; break;
          case kCfaAdvanceLoc2: advance = r.U16() * caf; moves = true; break;
          case kCfaAdvanceLoc4: advance = r.U32() * caf; moves = true; break;
          case kCfaOffsetExtended: case kCfaOffsetExtendedSf: case kCfaValOffset: case kCfaValOffsetSf:
          case kCfaGnuNegativeOffsetExtended: {
            uint64_t reg = ReadUleb128(r);
            int64_t off;
            if (op == kCfaOffsetExtendedSf || op == kCfaValOffsetSf) off = Scaled(static_cast<uint64_t>(ReadSleb128(r)), daf);
            else off = Scaled(ReadUleb128(r), daf);
            if (op == kCfaGnuNegativeOffsetExtended) off = -off;
            if (!r.ok()) return fail(CfiError::kTruncated, at);
            RegisterRule* rr = Rule(reg, &e);
            if (!rr) return fail(e, at);
            const bool val = op == kCfaValOffset || op == kCfaValOffsetSf;
            *rr = RegisterRule{val ? RuleKind::kValOffset : RuleKind::kOffset, 0, off, nullptr, 0};
            break;
          }
          case kCfaRestoreExtended: {
            uint64_t reg = ReadUleb128(r);
            RegisterRule* rr = Rule(reg, &e);
            if (!rr) return fail(e, at);
            if (reg < info_.tracked) *rr = is_cie ? RegisterRule{} : initial.regs[reg];
            break;
          }
          case kCfaUndefined: case kCfaSameValue: {
            uint64_t reg = ReadUleb128(r);
            RegisterRule* rr = Rule(reg, &e);
            if (!rr) return fail(e, at);
            *rr = RegisterRule{op == kCfaUndefined ? RuleKind::kUndefined : RuleKind::kSameValue, 0, 0, nullptr, 0};
            break;
          }
          case kCfaRegister: {
            uint64_t reg = ReadUleb128(r), from = ReadUleb128(r);
            if (!r.ok()) return fail(CfiError::kTruncated, at);
            RegisterRule* rr = Rule(reg, &e);
            if (!rr) return fail(e, at);
            if (from >= info_.max_register) return fail(CfiError::kBadRegister, at);
            *rr = RegisterRule{RuleKind::kRegister, static_cast<uint16_t>(from), 0, nullptr, 0};
            break;
          }
          case kCfaRememberState:
            if (depth_ >= kMaxRememberDepth) return fail(CfiError::kStateStack, at);
            if (scratch_->stack.size() <= depth_) scratch_->stack.resize(depth_ + 1);
            scratch_->stack[depth_++] = *row_;
            break;
          case kCfaRestoreState: {
            if (depth_ == 0) return fail(CfiError::kStateStack, at);
            const UnwindRow& saved = scratch_->stack[--depth_];
            row_->cfa = saved.cfa;
            for (unsigned i = 0; i < info_.tracked; ++i) row_->regs[i] = saved.regs[i];
            row_->ra_signed = saved.ra_signed;
            break;
          }
          case kCfaDefCfa: case kCfaDefCfaSf: {
            uint64_t reg = ReadUleb128(r);
            int64_t off = op == kCfaDefCfa ? static_cast<int64_t>(ReadUleb128(r)) : Scaled(static_cast<uint64_t>(ReadSleb128(r)), daf);
            if (!r.ok()) return fail(CfiError::kTruncated, at);
            if (reg >= info_.max_register) return fail(CfiError::kBadRegister, at);
            row_->cfa = CfaRule{true, false, static_cast<uint16_t>(reg), off, nullptr, 0};
            break;
          }
          case kCfaDefCfaRegister: {
            uint64_t reg = ReadUleb128(r);
            if (!r.ok()) return fail(CfiError::kTruncated, at);
            if (reg >= info_.max_register) return fail(CfiError::kBadRegister, at);
            row_->cfa.defined = true;
            row_->cfa.is_expression = false;
            row_->cfa.reg = static_cast<uint16_t>(reg);
            break;
          }
          case kCfaDefCfaOffset: case kCfaDefCfaOffsetSf: {
            int64_t off = op == kCfaDefCfaOffset ? static_cast<int64_t>(ReadUleb128(r)) : Scaled(static_cast<uint64_t>(ReadSleb128(r)), daf);
            if (!r.ok()) return fail(CfiError::kTruncated, at);
            row_->cfa.defined = true;
            row_->cfa.is_expression = false;
            row_->cfa.offset = off;
            break;
          }
          case kCfaDefCfaExpression: {
            const uint8_t* bp;
            uint32_t bn;
            if (!Block(r, &bp, &bn)) return fail(CfiError::kTruncated, at);
            row_->cfa = CfaRule{true, true, 0, 0, bp, bn};
            break;
          }
          case kCfaExpression: case kCfaValExpression: {
            uint64_t reg = ReadUleb128(r);
            const uint8_t* bp;
            uint32_t bn;
            if (!r.ok() || !Block(r, &bp, &bn)) return fail(CfiError::kTruncated, at);
            RegisterRule* rr = Rule(reg, &e);
            if (!rr) return fail(e, at);
            *rr = RegisterRule{op == kCfaExpression ? RuleKind::kExpression : RuleKind::kValExpression, 0, 0, bp, bn};
            break;
          }
          case kCfaGnuArgsSize:
            row_->args_size = ReadUleb128(r);
            break;
          case kCfaGnuWindowSave:
            // On aarch64 this opcode is DW_CFA_AARCH64_negate_ra_state (pointer
            // authentication); SPARC's register windows are not supported.
            if (arch_ != Arch::kAarch64) return fail(CfiError::kBadOpcode, at);
            row_->ra_signed = !row_->ra_signed;
            break;
          default:
            return fail(CfiError::kBadOpcode, at);
        }
    }
    if (!r.ok()) return fail(CfiError::kTruncated, at);
    if (moves) {
      const uint64_t to = loc_ + advance;
      if (to < loc_) return fail(CfiError::kBadOpcode, at);  // wraps around
      if (to > pc) {
        // The row for pc is complete: the next one starts at `to`.
        next_loc_ = to;
        stopped_ = true;
        return CfiError::kNone;
      }
      loc_ = to;
    }
  }
  return CfiError::kNone;
}

}  // namespace

CfiError ComputeRow(const CfiSection& s, const Cie& cie, const Fde& fde, uint64_t pc, Arch arch, CfaScratch* scratch,
                    UnwindRow* out, uint64_t* error_offset) {
  *out = UnwindRow{};
  const ArchInfo& info = Info(arch);
  if (cie.ra_register >= info.max_register) {
    if (error_offset) *error_offset = cie.offset;
    return CfiError::kBadRegister;
  }
  out->ra_register = static_cast<uint16_t>(cie.ra_register);
  out->signal_frame = cie.signal_frame;
  Runner run(s, cie, arch, scratch, out);
  CfiError e = run.Run(cie.instructions, cie.instructions_size, 0, ~uint64_t{0}, true, error_offset);
  if (e != CfiError::kNone) return e;
  run.initial = *out;
  e = run.Run(fde.instructions, fde.instructions_size, fde.pc_begin, pc, false, error_offset);
  if (e != CfiError::kNone) return e;
  out->start = run.loc();
  out->end = run.stopped_early() ? run.next_loc() : fde.pc_end;
  if (out->end > fde.pc_end) out->end = fde.pc_end;
  return CfiError::kNone;
}

}  // namespace profscope::unwind
