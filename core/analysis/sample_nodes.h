// A call tree's sample -> node, kept after the tree is made, compactly: every sample of a stack that passes
// the tree's filter reaches the same node (a node follows from the stack's path alone), so the node is kept
// once a stack, and whether each sample passed as one bit. 4 bytes a sample (CallTree::sample_node) become
// an eighth of a byte a sample and 4 bytes a stack: an XRay log's 13 M calls, 50 MB -> 2 MB.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/model/profile.h"

namespace profscope {

class SampleNodes {
 public:
  SampleNodes() = default;
  // `tree` made of `samples` (whose stacks are rows of a table of `n_stacks`). May throw std::bad_alloc.
  SampleNodes(const CallTree& tree, const SampleTable& samples, size_t n_stacks);

  size_t size() const { return n_samples_; }
  // Sample `sample`'s node: tree.sample_node[sample] (-1: filtered out or dropped, or no such sample).
  int32_t Of(const SampleTable& samples, int64_t sample) const;
  // f(sample) for each sample behind node `node` (those of its subtree), in sample order; none for a node
  // the tree does not have. Returns how many. (A caller that copies them elsewhere counts them first, and
  // needs no vector of them: the root of an XRay log holds every call.)
  template <typename F>
  size_t ForEachUnder(const SampleTable& samples, int32_t node, F f) const;
  std::vector<int32_t> Under(const SampleTable& samples, int32_t node) const;
  // f(node) for every sample in order: tree.sample_node again.
  template <typename F>
  void ForEach(const SampleTable& samples, F f) const;
  std::vector<int32_t> All(const SampleTable& samples) const;

 private:
  // kNone and stacks past the table share slot 0: they all reach the root's path (CallTreeBuilder::PlainNodeOf)
  size_t Slot(int32_t stack) const {
    return stack >= 0 && static_cast<size_t>(stack) + 1 < stack_node_.size() ? static_cast<size_t>(stack) + 1 : 0;
  }
  bool Passed(size_t sample) const { return (passed_[sample >> 6] >> (sample & 63)) & 1; }

  size_t n_samples_ = 0;
  std::vector<uint64_t> passed_;      // bit i: sample i reached a node
  std::vector<int32_t> stack_node_;   // slot -> node
  std::vector<int32_t> subtree_end_;  // the tree's
};

template <typename F>
void SampleNodes::ForEach(const SampleTable& samples, F f) const {
  size_t i = 0;
  samples.stack.ForEach([&](int32_t st) {
    const size_t k = i++;
    if (k < n_samples_) f(Passed(k) ? stack_node_[Slot(st)] : -1);
  });
}

template <typename F>
size_t SampleNodes::ForEachUnder(const SampleTable& samples, int32_t node, F f) const {
  if (node < 0 || static_cast<size_t>(node) >= subtree_end_.size()) return 0;
  const int32_t end = subtree_end_[static_cast<size_t>(node)];
  size_t i = 0, found = 0;
  ForEach(samples, [&](int32_t n) {
    const auto k = static_cast<int32_t>(i++);
    if (n >= node && n < end) {
      ++found;
      f(k);
    }
  });
  return found;
}

}  // namespace profscope
