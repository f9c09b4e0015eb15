#include "core/unwind/unwinder.h"

#include <cstring>

// Where perf (util/unwind-libunwind-local.c over libunwind 1.6, Debian's perf
// 6.1) departs from a plain reading of DWARF, and this file follows it when
// UnwindOptions::perf_compatible is set:
//  - access_mem reads the copy only when `addr + 8 < sp + dyn_size`;
//  - .eh_frame is searched only through .eh_frame_hdr, then .debug_frame;
//  - a step fails only when pc and CFA both stay the same;
//  - %rsp always reads as the previous frame's CFA (tdep_access_reg), so a CFA
//    rule on %rsp adds to the previous CFA;
//  - DW_CFA_register copies the *new* location of its source register
//    (apply_reg_state's new_loc[] is updated in register order);
//  - x86_64: after a step, an undefined %rbp ends the chain (Gstep.c); when no
//    FDE covers the pc, a PLT entry (ff 25 .. 68 .. e9) pops the return
//    address from the stack, else the %rbp chain is followed if %rbp points
//    above the CFA by at most 0x4000;
//  - a rule reading a register value is resolved when used (locations are
//    lazy), but every DW_CFA_expression / val_expression is evaluated at each step.

namespace profscope::unwind {

const char* StopReasonName(StopReason r) {
  switch (r) {
    case StopReason::kOutermost: return "outermost frame";
    case StopReason::kNoRegisters: return "no user registers";
    case StopReason::kEmptyStack: return "empty stack copy";
    case StopReason::kNoMapping: return "pc in no mapping";
    case StopReason::kMissingBinary: return "binary missing";
    case StopReason::kNoUnwindInfo: return "binary without unwind tables";
    case StopReason::kNoFde: return "no FDE for pc";
    case StopReason::kBadCfi: return "damaged CFI";
    case StopReason::kBadExpression: return "DWARF expression failed";
    case StopReason::kRegisterUnknown: return "register unknown";
    case StopReason::kStackCopyEnd: return "stack copy too small";
    case StopReason::kUnreadableMemory: return "memory unreadable";
    case StopReason::kNoProgress: return "no progress";
    case StopReason::kCfaNotIncreasing: return "CFA not increasing";
    case StopReason::kDepthLimit: return "depth limit";
  }
  return "?";
}

namespace {

constexpr size_t kCacheSlots = 2048;             // power of two
constexpr uint64_t kStackSpan = uint64_t{1} << 26;  // reads this far above sp are "the copy was too small"

// Where a register's value is (libunwind's dwarf_loc_t).
struct Loc {
  enum Kind : uint8_t { kUnavailable, kUndefined, kValue, kMemory };
  Kind kind = kUnavailable;
  uint64_t v = 0;
};

struct FrameState {
  Loc regs[kMaxTrackedRegs];
  uint64_t pc = 0;   // the frame's pc (libunwind's c->ip)
  uint64_t cfa = 0;  // the frame's stack pointer: the previous step's CFA (libunwind's c->cfa)
  bool use_prev = false;  // look up pc - 1 (a return address), not pc
};

enum class ReadFail : uint8_t { kNone, kRegister, kStackEnd, kUnreadable };

}  // namespace

struct Unwinder::Impl {
  struct Slot {
    const UnwindModule* module = nullptr;
    uint64_t pc = 0;
    Arch arch = Arch::kX86_64;
    UnwindRow row;
  };
  std::vector<Slot> cache;
  CfaScratch scratch;

  // The sample being unwound.
  const UnwindOptions* opt = nullptr;
  Stats* stats = nullptr;
  Arch arch = Arch::kX86_64;
  const ArchInfo* info = nullptr;
  uint64_t mask = ~uint64_t{0};
  const StackCopy* stack = nullptr;
  uint64_t sp0 = 0;
  ModuleLookup* modules = nullptr;
  UnwindResult* out = nullptr;
  ReadFail fail = ReadFail::kNone;
  uint64_t fail_address = 0;
  bool zero_read = false;          // a word past the stack copy read as 0 (perf_compatible)
  uint64_t zero_read_address = 0;

  Impl() : cache(kCacheSlots) {}

  bool Mem(uint64_t addr, unsigned size, uint64_t* v, uint64_t* slot) {
    const unsigned word = info->address_size;
    const uint64_t end = sp0 + stack->dyn_size;
    bool in;
    if (addr < sp0 || addr + word < addr) in = false;
    else if (opt->perf_compatible) in = addr + word < end;
    else in = addr + size <= end;
    if (in && addr - sp0 + size <= stack->size) {
      const uint8_t* p = stack->data + (addr - sp0);
      uint64_t x = 0;
      for (unsigned i = 0; i < size; ++i) {
        const unsigned shift = stack->order == ByteOrder::kLittle ? 8 * i : 8 * (size - 1 - i);
        x |= static_cast<uint64_t>(p[i]) << shift;
      }
      *v = x;
      if (slot) *slot = stack->file_offset + (addr - sp0);
      return true;
    }
    ModuleHit h;
    const bool mapped = modules->Find(addr, &h);
    if (mapped && h.module && h.module->ReadAddress(addr - h.bias, size, v)) {
      if (slot) *slot = kNoSlot;
      return true;
    }
    // Past the end of a full copy (the kernel copies up to the top of the
    // stack: a copy shorter than asked ended there): the copy was too small.
    const bool stack_end = addr >= sp0 && addr - sp0 < kStackSpan && stack->dyn_size >= stack->size;
    if (mapped && opt->perf_compatible) {
      // perf's access_dso_mem answers 1 (not an error) when the mapping's file
      // cannot be read ([stack], //anon): libunwind takes the word as 0.
      *v = 0;
      if (slot) *slot = kNoSlot;
      if (stack_end && !zero_read) { zero_read = true; zero_read_address = addr; }
      return true;
    }
    fail = stack_end ? ReadFail::kStackEnd : ReadFail::kUnreadable;
    fail_address = addr;
    return false;
  }

  bool Get(const Loc& l, uint64_t* v, uint64_t* slot) {
    if (slot) *slot = kNoSlot;
    switch (l.kind) {
      case Loc::kValue: *v = l.v; return true;
      case Loc::kMemory: return Mem(l.v, info->address_size, v, slot);
      default: fail = ReadFail::kRegister; return false;
    }
  }

  bool RegValue(const FrameState& f, unsigned reg, uint64_t* v) {
    if (reg == info->sp) { *v = f.cfa; return true; }  // libunwind: %rsp reads as the CFA
    if (reg >= info->tracked) { fail = ReadFail::kRegister; return false; }
    return Get(f.regs[reg], v, nullptr);
  }

  class Env : public ExprEnv {
   public:
    Env(Impl& impl, const FrameState& f) : impl_(impl), f_(f) {}
    bool Register(unsigned reg, uint64_t* value) override { return impl_.RegValue(f_, reg, value); }
    bool Memory(uint64_t address, unsigned size, uint64_t* value) override {
      return impl_.Mem(address, size, value, nullptr);
    }

   private:
    Impl& impl_;
    const FrameState& f_;
  };

  // Sets the stop reason from the last failed read.
  void StopOnRead(uint64_t pc, int32_t mapping, const char* what) {
    out->stop_pc = pc;
    out->stop_mapping = mapping;
    switch (fail) {
      case ReadFail::kRegister:
        out->stop = StopReason::kRegisterUnknown;
        out->detail = std::string(what) + " needs a register the sample does not have";
        break;
      case ReadFail::kStackEnd:
        out->stop = StopReason::kStackCopyEnd;
        out->stack_needed = fail_address + info->address_size - sp0 + (opt->perf_compatible ? 1 : 0);
        out->detail = std::string(what) + " reads " + std::to_string(fail_address - sp0) +
                      " bytes above sp, past the " + std::to_string(stack->dyn_size) + "-byte stack copy";
        break;
      default:
        out->stop = StopReason::kUnreadableMemory;
        out->detail = std::string(what) + " reads memory outside the stack copy and the binaries";
        break;
    }
  }

  void Stop(StopReason r, uint64_t pc, int32_t mapping, std::string detail) {
    out->stop = r;
    out->stop_pc = pc;
    out->stop_mapping = mapping;
    out->detail = std::move(detail);
  }

  // One step from `cur` to its caller; false when unwinding stops (out->stop set).
  bool Step(const FrameState& cur, const ModuleHit& hit, bool have_hit, uint64_t lookup, FrameState* next,
            uint64_t* ra_slot, bool* signal);
  bool ApplyRow(const UnwindRow& row, const FrameState& cur, int32_t mapping, uint64_t lookup, FrameState* next,
                uint64_t* ra_slot);
  bool X86Fallback(const FrameState& cur, int32_t mapping, uint64_t lookup, FrameState* next, uint64_t* ra_slot);
};

Unwinder::Unwinder(UnwindOptions options) : options_(options), impl_(std::make_unique<Impl>()) {}
Unwinder::~Unwinder() = default;

void Unwinder::ClearCache() {
  for (auto& s : impl_->cache) s.module = nullptr;
}

bool Unwinder::Impl::ApplyRow(const UnwindRow& row, const FrameState& cur, int32_t mapping, uint64_t lookup,
                              FrameState* next, uint64_t* ra_slot) {
  const unsigned n = info->tracked;
  // The CFA first: expressions of the registers push it.
  uint64_t cfa;
  if (!row.cfa.defined) {
    Stop(StopReason::kBadCfi, lookup, mapping, "the FDE defines no CFA rule");
    out->cfi_error = CfiError::kBadOpcode;
    return false;
  }
  if (!row.cfa.is_expression) {
    uint64_t base;
    if (row.cfa.reg == info->sp) {
      base = cur.cfa;
    } else if (!RegValue(cur, row.cfa.reg, &base)) {
      StopOnRead(lookup, mapping, "the CFA rule");
      return false;
    }
    cfa = (base + static_cast<uint64_t>(row.cfa.offset)) & mask;
  } else {
    Env env(*this, cur);
    fail = ReadFail::kNone;
    ExprError e = EvaluateExpression(row.cfa.expr, row.cfa.expr_size, stack->order, info->address_size, env, nullptr, &cfa);
    if (e != ExprError::kNone) {
      if (fail != ReadFail::kNone && (e == ExprError::kMemory || e == ExprError::kRegister)) {
        StopOnRead(lookup, mapping, "the CFA expression");
      } else {
        Stop(StopReason::kBadExpression, lookup, mapping, std::string("CFA expression: ") + ExprErrorName(e));
      }
      out->expr_error = e;
      return false;
    }
  }
  Loc nl[kMaxTrackedRegs];
  for (unsigned i = 0; i < n; ++i) nl[i] = cur.regs[i];
  for (unsigned i = 0; i < n; ++i) {
    const RegisterRule& r = row.regs[i];
    switch (r.kind) {
      case RuleKind::kSameValue: break;
      case RuleKind::kUndefined: nl[i] = Loc{Loc::kUndefined, 0}; break;
      case RuleKind::kOffset: nl[i] = Loc{Loc::kMemory, (cfa + static_cast<uint64_t>(r.offset)) & mask}; break;
      case RuleKind::kValOffset: nl[i] = Loc{Loc::kValue, (cfa + static_cast<uint64_t>(r.offset)) & mask}; break;
      case RuleKind::kRegister:
        if (r.reg == info->sp) nl[i] = Loc{Loc::kValue, cur.cfa};
        else if (r.reg >= n) nl[i] = Loc{Loc::kUnavailable, 0};
        else nl[i] = opt->perf_compatible ? nl[r.reg] : cur.regs[r.reg];
        break;
      case RuleKind::kExpression:
      case RuleKind::kValExpression: {
        Env env(*this, cur);
        fail = ReadFail::kNone;
        uint64_t v;
        ExprError e = EvaluateExpression(r.expr, r.expr_size, stack->order, info->address_size, env, &cfa, &v);
        if (e != ExprError::kNone) {
          if (fail != ReadFail::kNone && (e == ExprError::kMemory || e == ExprError::kRegister)) {
            StopOnRead(lookup, mapping, "a register's expression");
          } else {
            Stop(StopReason::kBadExpression, lookup, mapping,
                 "expression of register " + std::to_string(i) + ": " + ExprErrorName(e));
          }
          out->expr_error = e;
          return false;
        }
        nl[i] = Loc{r.kind == RuleKind::kExpression ? Loc::kMemory : Loc::kValue, v};
        break;
      }
    }
  }
  const Loc ra_loc = row.ra_register < n ? nl[row.ra_register] : Loc{};
  if (ra_loc.kind == Loc::kUndefined) {
    Stop(StopReason::kOutermost, lookup, mapping, "");
    return false;
  }
  uint64_t ra;
  if (!Get(ra_loc, &ra, ra_slot)) {
    StopOnRead(lookup, mapping, "the return address");
    return false;
  }
  if (arch == Arch::kAarch64 && row.ra_signed) ra &= 0x0000ffffffffffffULL;  // strip the pointer authentication code
  if (arch == Arch::kArm) ra &= ~uint64_t{1};  // the Thumb bit
  if (ra == cur.pc && cfa == cur.cfa) {
    Stop(StopReason::kNoProgress, lookup, mapping, "the step changes neither pc nor CFA");
    return false;
  }
  if (opt->require_cfa_increase && cfa <= cur.cfa) {
    Stop(StopReason::kCfaNotIncreasing, lookup, mapping, "the CFA does not move up the stack");
    return false;
  }
  if (opt->perf_compatible && arch == Arch::kX86_64 && nl[6].kind == Loc::kUndefined) {
    Stop(StopReason::kOutermost, lookup, mapping, "%rbp undefined");  // libunwind's x86_64 end of chain
    return false;
  }
  for (unsigned i = 0; i < n; ++i) next->regs[i] = nl[i];
  if (info->pc != row.ra_register && info->pc < kMaxTrackedRegs) next->regs[info->pc] = Loc{Loc::kValue, ra};
  next->pc = ra;
  next->cfa = cfa;
  next->use_prev = !row.signal_frame;
  return true;
}

bool Unwinder::Impl::X86Fallback(const FrameState& cur, int32_t mapping, uint64_t lookup, FrameState* next,
                                 uint64_t* ra_slot) {
  // libunwind's x86_64 unw_step when dwarf_step finds no FDE (UNW_ENOINFO).
  uint64_t w0 = 0, w1 = 0;
  const bool plt = Mem(cur.pc, 8, &w0, nullptr) && Mem(cur.pc + 8, 8, &w1, nullptr) && (w0 & 0xffff) == 0x25ff &&
                   ((w0 >> 48) & 0xff) == 0x68 && ((w1 >> 24) & 0xff) == 0xe9;
  FrameState n;
  for (unsigned i = 0; i < info->tracked; ++i) n.regs[i] = cur.regs[i];
  uint64_t cfa = cur.cfa;
  Loc rip;
  n.use_prev = cur.use_prev;
  if (plt) {
    // Like a frame that saved nothing: the return address at the CFA.
    rip = Loc{Loc::kMemory, cur.cfa};
    cfa = cur.cfa + 8;
  } else {
    if (cur.regs[6].kind == Loc::kUndefined) {
      Stop(StopReason::kNoFde, lookup, mapping, "no FDE covers the pc and %rbp is undefined");
      return false;
    }
    uint64_t rbp, ignored;
    if (!Get(cur.regs[6], &rbp, nullptr)) {
      StopOnRead(lookup, mapping, "the %rbp chain (no FDE covers the pc)");
      return false;
    }
    if (!Mem(cur.pc, 8, &ignored, nullptr)) {
      // libunwind then tries [%rsp] as the return address; the pc is in a
      // module we hold, so this only happens for a file too short.
      Stop(StopReason::kNoFde, lookup, mapping, "no FDE covers the pc and its code is unreadable");
      return false;
    }
    if (rbp == 0) {
      Stop(StopReason::kNoFde, lookup, mapping, "no FDE covers the pc and %rbp is 0 (end of the chain)");
      return false;
    }
    uint64_t rbp1;
    Loc rbp_loc{Loc::kMemory, rbp};
    rip = Loc{Loc::kMemory, rbp + 8};
    if (!Mem(rbp, 8, &rbp1, nullptr) || rbp < cur.cfa || rbp - cur.cfa > 0x4000) {
      rbp_loc = Loc{Loc::kUndefined, 0};
      rip = Loc{Loc::kUndefined, 0};
    }
    cfa = cur.cfa + 16;
    for (unsigned i = 0; i < info->tracked; ++i) n.regs[i] = Loc{Loc::kUndefined, 0};
    n.regs[6] = rbp_loc;
    n.use_prev = true;
    if (rbp_loc.kind == Loc::kUndefined) {
      Stop(StopReason::kNoFde, lookup, mapping, "no FDE covers the pc and %rbp does not point to a frame");
      return false;
    }
  }
  if (n.regs[6].kind == Loc::kUndefined) {
    Stop(StopReason::kOutermost, lookup, mapping, "%rbp undefined");
    return false;
  }
  uint64_t ra;
  if (!Get(rip, &ra, ra_slot)) {
    StopOnRead(lookup, mapping, plt ? "the PLT entry's return address" : "the %rbp chain's return address");
    return false;
  }
  if (ra == cur.pc && cfa == cur.cfa) {
    Stop(StopReason::kNoProgress, lookup, mapping, "the step changes neither pc nor CFA");
    return false;
  }
  n.regs[16] = rip;
  n.pc = ra;
  n.cfa = cfa;
  *next = n;
  return true;
}

bool Unwinder::Impl::Step(const FrameState& cur, const ModuleHit& hit, bool have_hit, uint64_t lookup,
                          FrameState* next, uint64_t* ra_slot, bool* signal) {
  *signal = false;
  *ra_slot = kNoSlot;
  if (!have_hit) {
    Stop(StopReason::kNoMapping, lookup, -1, "");
    return false;
  }
  if (!hit.module) {
    Stop(StopReason::kMissingBinary, lookup, hit.mapping, "");
    return false;
  }
  const uint64_t svma = lookup - (hit.has_fde_bias ? hit.fde_bias : hit.bias);
  Slot& slot = cache[((svma * 0x9E3779B97F4A7C15ULL) ^ reinterpret_cast<uintptr_t>(hit.module)) >> 11 & (kCacheSlots - 1)];
  if (slot.module == hit.module && slot.pc == svma && slot.arch == arch) {
    ++stats->row_cache_hits;
  } else {
    ++stats->row_cache_misses;
    UnwindModule::FdeHit fh;
    CfiError err = CfiError::kNone;
    uint64_t err_off = 0;
    UnwindModule::FdeStatus st = hit.module->FindFde(svma, !opt->perf_compatible, &fh, &err, &err_off);
    switch (st) {
      case UnwindModule::FdeStatus::kFound: break;
      case UnwindModule::FdeStatus::kNoUnwindInfo:
        Stop(StopReason::kNoUnwindInfo, lookup, hit.mapping,
             hit.module->cfi_problem().empty() ? "no .eh_frame_hdr or .debug_frame" : hit.module->cfi_problem());
        return false;
      case UnwindModule::FdeStatus::kBadCfi:
        Stop(StopReason::kBadCfi, lookup, hit.mapping, CfiErrorName(err));
        out->cfi_error = err;
        out->cfi_offset = err_off;
        return false;
      case UnwindModule::FdeStatus::kNotCovered:
        if (opt->perf_compatible && arch == Arch::kX86_64) return X86Fallback(cur, hit.mapping, lookup, next, ra_slot);
        Stop(StopReason::kNoFde, lookup, hit.mapping, "");
        return false;
    }
    uint64_t at = 0;
    err = ComputeRow(*fh.section, *fh.cie, fh.fde, svma, arch, &scratch, &slot.row, &at);
    if (err != CfiError::kNone) {
      slot.module = nullptr;
      Stop(StopReason::kBadCfi, lookup, hit.mapping, CfiErrorName(err));
      out->cfi_error = err;
      out->cfi_offset = at;
      return false;
    }
    slot.module = hit.module;
    slot.pc = svma;
    slot.arch = arch;
  }
  *signal = slot.row.signal_frame;
  return ApplyRow(slot.row, cur, hit.mapping, lookup, next, ra_slot);
}

void Unwinder::Unwind(Arch machine, RegisterAbi who, uint64_t abi, uint64_t mask, const uint64_t* values,
                      size_t count, const StackCopy& stack, ModuleLookup& modules, UnwindResult* out) {
  RegisterFile regs;
  Arch task;
  if (!MapUserRegisters(who, machine, abi, mask, values, count, &task, &regs)) {
    ++stats_.samples;
    out->frames.clear();
    out->stop = StopReason::kNoRegisters;
    out->stop_pc = 0;
    out->stop_mapping = -1;
    out->detail = abi == kRegsAbiNone ? "no user registers (abi NONE)" : "register count does not match the mask";
    return;
  }
  Unwind(task, regs, stack, modules, out);
}

void Unwinder::Unwind(Arch task, const RegisterFile& regs, const StackCopy& stack, ModuleLookup& modules,
                      UnwindResult* out) {
  Impl& m = *impl_;
  *out = UnwindResult{};
  ++stats_.samples;
  m.opt = &options_;
  m.stats = &stats_;
  m.arch = task;
  m.info = &Info(task);
  m.mask = m.info->address_size == 4 ? 0xffffffffu : ~uint64_t{0};
  m.stack = &stack;
  m.modules = &modules;
  m.out = out;
  m.zero_read = false;
  const ArchInfo& info = *m.info;
  if (!regs.Has(info.pc) || !regs.Has(info.sp)) {
    out->stop = StopReason::kNoRegisters;
    out->detail = "the sample lacks the ip or sp register";
    return;
  }
  if (stack.dyn_size == 0 || !stack.data) {
    // perf's thread__resolve_callchain_unwind: nothing captured, no user frames at all.
    out->stop = StopReason::kEmptyStack;
    return;
  }
  m.sp0 = regs.value[info.sp];
  FrameState cur;
  for (unsigned i = 0; i < info.tracked; ++i)
    if (regs.Has(i)) cur.regs[i] = Loc{Loc::kValue, regs.value[i]};
  cur.pc = regs.value[info.pc];
  cur.cfa = m.sp0;
  cur.use_prev = false;
  // `address` is what perf reports for the frame; `lookup` the pc whose CFI
  // unwinds it (they differ only after a PLT stub met without CFI as the
  // first frame, and by ARM's Thumb bit).
  uint64_t address = cur.pc;
  uint64_t slot = kNoSlot;
  // Steps that report no frame (a pc of 0) still count toward the depth cap:
  // hostile CFI can step forever without ever reporting one.
  size_t steps = 0;
  while (true) {
    uint64_t lookup = cur.pc - (cur.use_prev ? 1 : 0);
    if (task == Arch::kArm) lookup = (cur.pc & ~uint64_t{1}) - (cur.use_prev ? 1 : 0);
    lookup &= m.mask;
    ModuleHit hit;
    const bool have = modules.Find(lookup, &hit);
    if (address != 0) {
      int32_t mapping = have ? hit.mapping : -1;
      if (address != lookup) {
        ModuleHit at;
        mapping = modules.Find(address, &at) ? at.mapping : -1;
      }
      out->frames.push_back(UnwoundFrame{address, cur.pc, slot, mapping});
      ++stats_.frames;
    }
    if (out->frames.size() >= options_.max_frames || ++steps > options_.max_frames) {
      out->stop = StopReason::kDepthLimit;
      out->stop_pc = lookup;
      out->stop_mapping = have ? hit.mapping : -1;
      break;
    }
    FrameState next;
    bool signal = false;
    if (!m.Step(cur, hit, have, lookup, &next, &slot, &signal)) break;
    address = (signal ? next.pc : next.pc - 1) & m.mask;
    cur = next;
  }
  if (m.zero_read && out->stop != StopReason::kOutermost) {
    // The stack copy ended before the unwinding did: the frames after that
    // point (perf shows them, ending in 0xffffffffffffffff for a return
    // address read as 0) came from zeros.
    out->stop = StopReason::kStackCopyEnd;
    out->stack_needed = m.zero_read_address + info.address_size - m.sp0 + 1;
    out->detail = "a read " + std::to_string(m.zero_read_address - m.sp0) + " bytes above sp went past the " +
                  std::to_string(stack.dyn_size) + "-byte stack copy (perf reads it as 0)";
  }
}

}  // namespace profscope::unwind
