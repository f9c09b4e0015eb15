// The last component of a '/'-separated path (the whole string without one).
// Paths here are the recording machine's (perf's MMAP filenames, side-file
// names), so only '/' separates.
#pragma once

#include <string>

namespace profscope {

inline std::string BaseName(const std::string& path) {
  const size_t s = path.find_last_of('/');
  return s == std::string::npos ? path : path.substr(s + 1);
}

}  // namespace profscope
