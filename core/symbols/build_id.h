// Comparing build-ids (lower-case hex). perf pads the BUILD_ID feature's ids
// to 20 bytes with zeros, so two ids are the same when they are equal after
// dropping the longer one's zero padding; an empty id matches nothing.
#pragma once

#include <string>

namespace profscope::symbols {

inline bool SameBuildId(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  const std::string& s = a.size() <= b.size() ? a : b;
  const std::string& l = a.size() <= b.size() ? b : a;
  if (l.compare(0, s.size(), s) != 0) return false;
  return l.find_first_not_of('0', s.size()) == std::string::npos;
}

}  // namespace profscope::symbols
