// The architectures the unwinder knows, in DWARF register numbers: which
// register is the stack pointer, the frame pointer, the default return
// address column, and how many registers a frame tracks.
// Source of truth: the psABIs' DWARF register number tables (x86-64 psABI
// §3.6.2, i386 psABI, AAPCS64 "DWARF for the Arm 64-bit Architecture",
// "DWARF for the Arm Architecture").
#pragma once

#include <cstdint>
#include <string_view>

namespace profscope::unwind {

enum class Arch : uint8_t { kX86_64, kI386, kAarch64, kArm };

// Registers a frame holds values for (DWARF numbers 0..kMaxTracked-1).
inline constexpr unsigned kMaxTrackedRegs = 33;

struct ArchInfo {
  const char* name;
  uint8_t address_size;   // bytes
  uint16_t sp, fp, ra;    // DWARF numbers
  uint16_t pc;            // where the unwinder keeps the pc (aarch64 has no DWARF pc: slot 32)
  uint16_t tracked;       // registers 0..tracked-1 are kept per frame
  uint16_t max_register;  // CFI naming a register >= this is an error (libunwind's DWARF_NUM_PRESERVED_REGS)
};

const ArchInfo& Info(Arch a);

// perf's HEADER_ARCH strings ("x86_64", "aarch64", "armv7l", "i686") and ELF e_machine values.
bool ArchFromName(std::string_view name, Arch* out);
bool ArchFromElfMachine(uint16_t machine, Arch* out);

}  // namespace profscope::unwind
