// Rows grouped by a small integer key, in row order within a group (a counting sort).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace profscope {

// Rows 0 .. n-1 grouped by group(i) in [0, groups] (a counting sort: in row order within a group):
// group g is order[start[g], start[g + 1]); start has groups + 2 entries.
template <typename Group>
void GroupRows(size_t n, size_t groups, Group group, std::vector<int32_t>& order, std::vector<int32_t>& start) {
  start.assign(groups + 2, 0);
  for (size_t i = 0; i < n; ++i) ++start[group(i) + 1];
  for (size_t g = 0; g <= groups; ++g) start[g + 1] += start[g];
  order.resize(n);
  std::vector<int32_t> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < n; ++i) order[static_cast<size_t>(fill[group(i)]++)] = static_cast<int32_t>(i);
}

}  // namespace profscope
