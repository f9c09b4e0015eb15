#include "core/unwind/arch.h"

#include "core/format/elf/elf_layout.h"

namespace profscope::unwind {

const ArchInfo& Info(Arch a) {
  // name, address size, sp, fp, ra, pc slot, tracked, max register
  static const ArchInfo kX86_64{"x86_64", 8, 7, 6, 16, 16, 17, 17};
  static const ArchInfo kI386{"i386", 4, 4, 5, 8, 8, 9, 17};
  static const ArchInfo kAarch64{"aarch64", 8, 31, 29, 30, 32, 33, 97};
  static const ArchInfo kArm{"arm", 4, 13, 11, 14, 15, 16, 128};
  switch (a) {
    case Arch::kX86_64: return kX86_64;
    case Arch::kI386: return kI386;
    case Arch::kAarch64: return kAarch64;
    case Arch::kArm: return kArm;
  }
  return kX86_64;
}

bool ArchFromName(std::string_view n, Arch* out) {
  if (n == "x86_64" || n == "amd64") { *out = Arch::kX86_64; return true; }
  if (n == "aarch64" || n == "arm64") { *out = Arch::kAarch64; return true; }
  if (n == "x86" || n == "i386" || n == "i486" || n == "i586" || n == "i686") { *out = Arch::kI386; return true; }
  if (n.substr(0, 3) == "arm") { *out = Arch::kArm; return true; }
  return false;
}

bool ArchFromElfMachine(uint16_t m, Arch* out) {
  switch (m) {
    case elf::kEmX86_64: *out = Arch::kX86_64; return true;
    case elf::kEmI386: *out = Arch::kI386; return true;
    case elf::kEmAarch64: *out = Arch::kAarch64; return true;
    case elf::kEmArm: *out = Arch::kArm; return true;
    default: return false;
  }
}

}  // namespace profscope::unwind
