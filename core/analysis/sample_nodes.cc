#include "core/analysis/sample_nodes.h"

#include <algorithm>

namespace profscope {

SampleNodes::SampleNodes(const CallTree& tree, const SampleTable& samples, size_t n_stacks)
    : n_samples_(std::min(tree.sample_node.size(), samples.size())),
      passed_((n_samples_ + 63) / 64, 0),
      stack_node_(n_stacks + 1, -1),
      subtree_end_(tree.subtree_end) {
  size_t i = 0;
  samples.stack.ForEach([&](int32_t st) {
    const size_t k = i++;
    if (k >= n_samples_) return;
    const int32_t n = tree.sample_node[k];
    if (n < 0) return;
    passed_[k >> 6] |= uint64_t{1} << (k & 63);
    stack_node_[Slot(st)] = n;
  });
}

int32_t SampleNodes::Of(const SampleTable& samples, int64_t sample) const {
  if (sample < 0 || static_cast<uint64_t>(sample) >= n_samples_ || !Passed(static_cast<size_t>(sample))) return -1;
  return stack_node_[Slot(samples.stack[static_cast<size_t>(sample)])];
}

std::vector<int32_t> SampleNodes::Under(const SampleTable& samples, int32_t node) const {
  std::vector<int32_t> out;
  out.reserve(ForEachUnder(samples, node, [](int32_t) {}));
  ForEachUnder(samples, node, [&](int32_t k) { out.push_back(k); });
  return out;
}

std::vector<int32_t> SampleNodes::All(const SampleTable& samples) const {
  std::vector<int32_t> out;
  out.reserve(n_samples_);
  ForEach(samples, [&](int32_t n) { out.push_back(n); });
  return out;
}

}  // namespace profscope
