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

size_t SampleNodes::Slot(int32_t stack) const {
  return stack >= 0 && static_cast<size_t>(stack) + 1 < stack_node_.size() ? static_cast<size_t>(stack) + 1 : 0;
}

int32_t SampleNodes::Of(const SampleTable& samples, int64_t sample) const {
  if (sample < 0 || static_cast<uint64_t>(sample) >= n_samples_ || !Passed(static_cast<size_t>(sample))) return -1;
  return stack_node_[Slot(samples.stack[static_cast<size_t>(sample)])];
}

std::vector<int32_t> SampleNodes::Under(const SampleTable& samples, int32_t node) const {
  if (node < 0 || static_cast<size_t>(node) >= subtree_end_.size()) return {};
  const int32_t end = subtree_end_[static_cast<size_t>(node)];
  std::vector<uint8_t> under(stack_node_.size());  // a slot's node is in the subtree
  for (size_t k = 0; k < under.size(); ++k) under[k] = stack_node_[k] >= node && stack_node_[k] < end;
  std::vector<int32_t> out;
  size_t i = 0;
  samples.stack.ForEach([&](int32_t st) {
    const size_t k = i++;
    if (k < n_samples_ && Passed(k) && under[Slot(st)]) out.push_back(static_cast<int32_t>(k));
  });
  return out;
}

std::vector<int32_t> SampleNodes::All(const SampleTable& samples) const {
  std::vector<int32_t> out(n_samples_, -1);
  size_t i = 0;
  samples.stack.ForEach([&](int32_t st) {
    const size_t k = i++;
    if (k < n_samples_ && Passed(k)) out[k] = stack_node_[Slot(st)];
  });
  return out;
}

}  // namespace profscope
