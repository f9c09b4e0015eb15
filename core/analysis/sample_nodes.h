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
  // The samples behind node `node` (those of its subtree), in sample order; none for a node the tree does
  // not have.
  std::vector<int32_t> Under(const SampleTable& samples, int32_t node) const;
  // Every sample's node: tree.sample_node again.
  std::vector<int32_t> All(const SampleTable& samples) const;

 private:
  size_t Slot(int32_t stack) const;  // kNone and stacks past the table share slot 0 (the tree's root path)
  bool Passed(size_t sample) const { return (passed_[sample >> 6] >> (sample & 63)) & 1; }

  size_t n_samples_ = 0;
  std::vector<uint64_t> passed_;      // bit i: sample i reached a node
  std::vector<int32_t> stack_node_;   // slot -> node
  std::vector<int32_t> subtree_end_;  // the tree's
};

}  // namespace profscope
