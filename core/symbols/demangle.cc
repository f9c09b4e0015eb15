#include "core/symbols/demangle.h"

#include <cstdlib>

#if PROFSCOPE_HAVE_IBERTY
extern "C" {
#include <libiberty/demangle.h>
}
#endif

namespace profscope::symbols {

std::string PerfDemangle(const std::string& name) {
#if PROFSCOPE_HAVE_IBERTY
  // cplus_demangle in libiberty's auto style: Rust (legacy and v0), then the
  // Itanium C++ ABI, then D; DMGL_NO_OPTS as perf passes it without -v.
  if (name.empty()) return name;
  char* out = cplus_demangle(name.c_str(), DMGL_NO_OPTS);
  if (!out) return name;
  std::string s(out);
  std::free(out);
  return s;
#else
  return name;
#endif
}

}  // namespace profscope::symbols
