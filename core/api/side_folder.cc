#include "core/api/side_folder.h"

#include <cstring>

#include "core/archive/byte_stream.h"
#include "core/archive/tar_reader.h"
#include "core/symbols/kallsyms.h"
#include "core/symbols/perf_map.h"

namespace profscope {

bool WorthOfferingFromFolder(const uint8_t* head, size_t n) {
  if (n >= 4 && head[0] == 0x7f && std::memcmp(head + 1, "ELF", 3) == 0) return true;
  if (archive::DetectCompression(head, n) != archive::Compression::kNone) return true;
  if (n >= 512 && archive::IsTarHeader(head)) return true;
  return symbols::LooksLikeKallsyms(head, n) || symbols::LooksLikePerfMap(head, n);
}

std::string SideFolderLimitNote(const std::string& folder) {
  return "side folder " + folder + " is larger than profscope looks through (at most " +
         std::to_string(SideFolderLimits::kMaxEntries) + " entries, " + std::to_string(SideFolderLimits::kMaxDepth) +
         " folders deep, " + std::to_string(SideFolderLimits::kMaxFiles) +
         " ELF/kallsyms files, in name order): files after that were not looked at; give a smaller folder "
         "(e.g. the build-id cache's .build-id folder) or the files themselves";
}

}  // namespace profscope
