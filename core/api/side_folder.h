// A side folder: `--symbols DIR` on the command line, a folder dropped on the
// page. Its files are offered for symbols keeping their paths inside it
// (perf's build-id cache `.build-id/xx/yyyy`, `<path>/<build-id>/elf|debug|
// kallsyms|vdso`, `/usr/lib/debug/.build-id/xx/yyyy.debug`, or any folder of
// binaries); the symbol store matches them (core/symbols/symbol_store.h).
// A shell walks the folder (a folder's files, then its sub-folders, each in
// name order), bounded by these limits, and keeps
// only the files worth offering (by their first bytes); when a limit stops the
// walk it says so (Session::NoteSideFolder).
// web/src/lib/multi-file.js walks dropped folders with the same limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace profscope {

struct SideFolderLimits {
  static constexpr int kMaxDepth = 16;              // folders below the given one
  static constexpr size_t kMaxEntries = 20000;      // files and folders looked at
  static constexpr size_t kMaxFiles = 512;          // files offered (each stays open)
};

// An ELF file, a kallsyms text or a (compressed) tarball, from its first
// bytes (up to 4096): the files of a side folder worth offering.
bool WorthOfferingFromFolder(const uint8_t* head, size_t n);

// The diagnostic text when the walk of `folder` stopped at a limit.
std::string SideFolderLimitNote(const std::string& folder);

}  // namespace profscope
