#include "core/io/running_vdso.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace profscope {

std::vector<uint8_t> RunningVdsoBytes() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return {};
  char line[512];
  unsigned long long start = 0, end = 0;
  bool found = false;
  while (!found && std::fgets(line, sizeof line, maps)) {
    if (std::strstr(line, "[vdso]") && std::sscanf(line, "%llx-%llx", &start, &end) == 2 && end > start &&
        end - start <= (1u << 20))
      found = true;
  }
  std::fclose(maps);
  if (!found) return {};
  const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(start));
  return std::vector<uint8_t>(p, p + (end - start));
#else
  return {};
#endif
}

}  // namespace profscope
