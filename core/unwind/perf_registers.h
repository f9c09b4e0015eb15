// The user registers of a sample (PERF_SAMPLE_REGS_USER: abi, then one u64 per
// bit of attr.sample_regs_user, in bit order) mapped to DWARF register numbers,
// for perf's register numbering of each architecture and simpleperf's.
// Source of truth: the kernel's arch/{x86,arm64,arm}/include/uapi/asm/perf_regs.h
// and arch/arm64/kernel/perf_regs.c (compat tasks), perf's
// arch/*/util/unwind-libunwind.c (LIBUNWIND__ARCH_REG_ID), simpleperf's
// perf_regs.cpp (CreateRegSet: arm64 kernels dumping a 32-bit task).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/unwind/arch.h"

namespace profscope::unwind {

inline constexpr uint64_t kRegsAbiNone = 0, kRegsAbi32 = 1, kRegsAbi64 = 2;

// A frame's registers by DWARF number; bit i of `present` says value[i] is known.
struct RegisterFile {
  uint64_t value[kMaxTrackedRegs] = {};
  uint64_t present = 0;
  bool Has(unsigned r) const { return r < kMaxTrackedRegs && ((present >> r) & 1); }
  void Set(unsigned r, uint64_t v) {
    if (r >= kMaxTrackedRegs) return;
    value[r] = v;
    present |= uint64_t{1} << r;
  }
};

// Whose register numbering the sample uses.
enum class RegisterAbi : uint8_t { kPerf, kSimpleperf };

// The architecture of the sampled task: the recording machine's, or its
// 32-bit sibling when abi is PERF_SAMPLE_REGS_ABI_32 (x86_64 -> i386,
// aarch64 -> arm). False when abi is NONE (no user registers: a kernel thread).
bool TaskArch(Arch machine, uint64_t abi, Arch* out);

// Maps `count` recorded values (mask bit order) to DWARF registers of the task's
// arch. Registers the mask leaves out stay absent. False when abi is NONE or
// `count` does not match the mask.
bool MapUserRegisters(RegisterAbi who, Arch machine, uint64_t abi, uint64_t mask, const uint64_t* values,
                      size_t count, Arch* task_arch, RegisterFile* out);

// The perf register index holding the stack pointer / instruction pointer of
// `task` as recorded on `machine` (where the stack copy starts, the first frame).
int PerfSpIndex(Arch machine, Arch task);
int PerfIpIndex(Arch machine, Arch task);

}  // namespace profscope::unwind
