#include "core/unwind/perf_registers.h"

namespace profscope::unwind {

namespace {

// perf_event_x86_regs: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15 (0..23).
constexpr int kX86ToDwarf64[24] = {0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1, -1, -1, -1, -1,
                                   8, 9, 10, 11, 12, 13, 14, 15};
constexpr int kX86ToDwarf32[24] = {0, 3, 1, 2, 6, 7, 5, 4, 8, -1, -1, -1, -1, -1, -1, -1,
                                   -1, -1, -1, -1, -1, -1, -1, -1};
// perf_event_arm64_regs: X0..X30 (30 = LR), SP 31, PC 32: DWARF x0..x30, sp 31; the pc goes to slot 32.
// perf_event_arm_regs: R0..R10, FP 11, IP 12, SP 13, LR 14, PC 15: DWARF r0..r15.

int ToDwarf(RegisterAbi who, Arch machine, Arch task, unsigned idx) {
  switch (task) {
    case Arch::kX86_64: return idx < 24 ? kX86ToDwarf64[idx] : -1;
    case Arch::kI386: return idx < 24 ? kX86ToDwarf32[idx] : -1;
    case Arch::kAarch64: return idx <= 32 ? static_cast<int>(idx) : -1;
    case Arch::kArm:
      if (machine == Arch::kAarch64) {
        // A 32-bit task on an arm64 kernel: r0..r14 in x0..x14 (the kernel reports
        // compat sp/lr at indexes 13/14 and, since Linux 5.x, the pc at 15).
        // simpleperf copies the arm64 PC slot (32) into r15 instead.
        if (idx < 15) return static_cast<int>(idx);
        if (who == RegisterAbi::kSimpleperf) return idx == 32 ? 15 : -1;
        return idx == 15 ? 15 : -1;
      }
      return idx < 16 ? static_cast<int>(idx) : -1;
  }
  return -1;
}

unsigned Popcount(uint64_t v) {
  unsigned n = 0;
  for (; v; v &= v - 1) ++n;
  return n;
}

}  // namespace

bool TaskArch(Arch machine, uint64_t abi, Arch* out) {
  if (abi == kRegsAbiNone) return false;
  if (abi == kRegsAbi32 && machine == Arch::kX86_64) { *out = Arch::kI386; return true; }
  if (abi == kRegsAbi32 && machine == Arch::kAarch64) { *out = Arch::kArm; return true; }
  *out = machine;
  return true;
}

bool MapUserRegisters(RegisterAbi who, Arch machine, uint64_t abi, uint64_t mask, const uint64_t* values,
                      size_t count, Arch* task_arch, RegisterFile* out) {
  *out = RegisterFile{};
  Arch task;
  if (!TaskArch(machine, abi, &task)) return false;
  if (count != Popcount(mask)) return false;
  *task_arch = task;
  const uint64_t keep = Info(task).address_size == 4 ? 0xffffffffu : ~uint64_t{0};
  size_t k = 0;
  for (unsigned i = 0; i < 64; ++i) {
    if (!((mask >> i) & 1)) continue;
    const uint64_t v = values[k++];
    int d = ToDwarf(who, machine, task, i);
    if (d >= 0) out->Set(static_cast<unsigned>(d), v & keep);
  }
  return true;
}

int PerfSpIndex(Arch machine, Arch task) {
  switch (task) {
    case Arch::kX86_64: case Arch::kI386: return 7;
    case Arch::kAarch64: return 31;
    case Arch::kArm: return 13;
  }
  (void)machine;
  return -1;
}

int PerfIpIndex(Arch machine, Arch task) {
  switch (task) {
    case Arch::kX86_64: case Arch::kI386: return 8;
    case Arch::kAarch64: return 32;
    case Arch::kArm: return 15;
  }
  (void)machine;
  return -1;
}

}  // namespace profscope::unwind
