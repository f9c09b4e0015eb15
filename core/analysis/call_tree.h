// Aggregation of a profile's samples into a call-node tree, for the views:
// filters (event, threads, CPUs, time range), transforms (focus, merge, drop,
// collapse recursion / library), inversion, and the two halves of a sandwich.
// Runs in the core so that narrowing a selection re-aggregates millions of
// samples in native/WASM code, not in JavaScript.
//
// Functions are merged by name first ("canonical functions": the same name in
// two mappings or two processes is one function to a reader), as the Firefox
// Profiler's call tree does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/trie.h"
#include "core/model/profile.h"

namespace profscope {

struct AnalysisTransform {
  enum class Type : uint8_t { kFocusSubtree, kFocusFunction, kMergeFunction, kDropFunction, kCollapseRecursion, kCollapseLibrary };
  Type type = Type::kMergeFunction;
  int32_t func = kNone;             // canonical function (all but focus-subtree and collapse-library)
  std::vector<int32_t> path;        // focus-subtree: canonical funcs root -> node
  std::string lib;                  // collapse-library: the mapping path
};

struct AnalysisOptions {
  int32_t event = -1;               // -1 = every event
  std::vector<int32_t> threads;     // thread rows; empty = all
  std::vector<int32_t> cpus;        // empty = all
  bool has_t0 = false, has_t1 = false;
  uint64_t t0 = 0, t1 = 0;          // inclusive, in the samples' clock
  std::vector<AnalysisTransform> transforms;
  bool invert = false;
  // Each sample counts its weight (XRay: the call's duration in ticks; perf:
  // its period) instead of its count.
  bool weighted = false;
  // Sandwich halves: callees of `sandwich_func` (paths from its first
  // occurrence) or callers (paths up to its last occurrence, inverted).
  enum class Sandwich : uint8_t { kNone, kCallees, kCallers };
  Sandwich sandwich = Sandwich::kNone;
  int32_t sandwich_func = kNone;
};

// Call nodes in depth-first order (Firefox Profiler's CallNodeTable): node 0
// is the root (func kNone), a node's children follow it in the order samples
// first reached them, and the nodes [n, subtree_end[n]) are n's subtree, so
// "samples under a node" and per-function totals are range scans.
struct CallTree {
  std::vector<int32_t> parent, func, depth;
  std::vector<int32_t> subtree_end;  // one past the last node of the subtree
  std::vector<double> self, total;  // samples (a row counts SampleTable::Count), or weights (AnalysisOptions::weighted)
  std::vector<int32_t> sample_node; // sample -> node, -1 when filtered out or dropped
  uint64_t samples = 0;             // samples counted (rows times their counts)
  std::string error;                // the view could not be built (too large): the tree is its root only
  std::string notice;               // the view is shown in part (an inverted tree too large: its heaviest nodes)
  size_t size() const { return parent.size(); }
};

class CallTreeBuilder {
 public:
  explicit CallTreeBuilder(const Profile& p);

  // Canonical function names (merged by name), then one "[lib] PATH" pseudo
  // function per library a collapse-library transform has used.
  const std::vector<std::string>& names() const { return names_; }
  // The string id of each canonical name; kNone for names made here ("[unknown]" when the
  // file has none, "[lib] PATH").
  const std::vector<int32_t>& name_ids() const { return name_ids_; }
  // Canonical function of a func row.
  int32_t Canon(int32_t func) const { return func >= 0 && static_cast<size_t>(func) < canon_.size() ? canon_[static_cast<size_t>(func)] : unknown_; }
  int32_t Unknown() const { return unknown_; }
  // The library (mapping path) collapse-library puts a canonical function in
  // (its func's mapping, else a frame's); "" when none.
  const std::string& Library(int32_t canon) const;

  // Linear in the stacks and samples, whatever the depth: a stack's node follows from its prefix's
  // through each transform and sandwich half. An inverted tree, whose size is not linear in the
  // stacks, is bounded: beyond the limits it holds its heaviest nodes (CallTree::notice says so).
  CallTree Build(const AnalysisOptions& opts);
  static constexpr size_t kMaxInvertedNodes = size_t{1} << 22;   // 4.2 M: ~130 MB a page copy of the tree
  static constexpr uint64_t kMaxInvertSteps = uint64_t{1} << 24;  // 16.8 M hash probes: ~1.5 s native, 2-3 s WASM
  void set_invert_limits(size_t nodes, uint64_t steps, InvertHow how = InvertHow::kCheaper) {
    max_inverted_nodes_ = nodes;
    max_invert_steps_ = steps;
    invert_how_ = how;
  }

  // XRay: a sample is one call and its weight the call's whole duration, which includes the
  // calls made from it (the samples on its child stacks); weighted trees subtract those.
  void set_weights_inclusive(bool v) { weights_inclusive_ = v; }

 private:
  bool Passes(size_t i, const AnalysisOptions& o, const std::vector<uint8_t>& threads, const std::vector<uint8_t>& cpus) const;
  // One transform over a trie: each node's image in the trie returned, from its parent's image
  // and its own function (kPending: not yet in the output, kDropped: it and its subtree dropped).
  // Only the `live` nodes are mapped (empty: all).
  Trie TransformTrie(const Trie& in, const std::vector<uint8_t>& live, const AnalysisTransform& t, std::vector<int32_t>& img);
  int32_t LibFunc(int32_t lib);
  // Without transforms, inversion or sandwich a stack's call node depends on the stack only:
  // the full tree of every stack is built once, and each such Build counts samples into it
  // and keeps the nodes they reach (no hashing per Build).
  void EnsurePlain();
  // What each sample adds to its node: its count; (weighted) its weight; inclusive weights
  // (set_weights_inclusive) become self weights: per stack, the passing samples' weights minus those of
  // its child stacks, given to the stack's first passing sample. Read in sample order (At), from the
  // table's columns: a vector per stack at most, none per sample.
  class SampleValues {
   public:
    enum class Kind : uint8_t { kCounts, kWeights, kStackSelf };
    SampleValues(const SampleTable& s, Kind k) : s_(s), kind_(k) {}
    // Sample i's value (its stack st); i ascending from call to call is fastest.
    double At(size_t i, int32_t st) {
      switch (kind_) {
        case Kind::kCounts: return static_cast<double>(s_.Count(i));
        case Kind::kWeights: return static_cast<double>(s_.weight.At(i, &run_));
        default:  // (a sample without a stack keeps its weight)
          if (st < 0 || static_cast<size_t>(st) >= first_.size()) return static_cast<double>(s_.weight.At(i, &run_));
          return first_[static_cast<size_t>(st)] == static_cast<int64_t>(i) ? std::max(0.0, self_[static_cast<size_t>(st)]) : 0.0;
      }
    }

   private:
    friend class CallTreeBuilder;
    const SampleTable& s_;
    Kind kind_;
    size_t run_ = 0;                // kWeights: the weight column's run the last read found
    std::vector<double> self_;      // kStackSelf: per stack
    std::vector<int64_t> first_;    // kStackSelf: per stack, its first passing sample (-1: none)
  };
  CallTree BuildPlain(const AnalysisOptions& o, const std::vector<uint8_t>& threads, const std::vector<uint8_t>& cpus,
                      SampleValues& values);
  SampleValues ValuesOf(const AnalysisOptions& o, const std::vector<uint8_t>& threads, const std::vector<uint8_t>& cpus) const;
  bool plain_ready_ = false;
  bool weights_inclusive_ = false;
  std::vector<int32_t> plain_node_;        // stack -> node of plain_
  // A sample's node in plain_: its stack's, the root's for no stack or one past the table (SampleNodes
  // keeps a node a stack on this: those samples all share one slot).
  int32_t PlainNodeOf(int32_t stack) const {
    return stack >= 0 && static_cast<size_t>(stack) < plain_node_.size() ? plain_node_[static_cast<size_t>(stack)] : 0;
  }
  Trie plain_;                             // every stack's path, depth-first
  size_t max_inverted_nodes_ = kMaxInvertedNodes;
  uint64_t max_invert_steps_ = kMaxInvertSteps;
  InvertHow invert_how_ = InvertHow::kCheaper;

  const Profile& p_;
  std::vector<int32_t> canon_;       // func row -> canonical func
  std::vector<std::string> names_;
  std::vector<int32_t> name_ids_;
  std::vector<int32_t> canon_lib_;   // canonical func -> library id or -1
  std::vector<std::string> libs_;
  std::vector<int32_t> lib_func_;    // library id -> pseudo canonical func or -1
  int32_t unknown_ = kNone;          // canonical func "[unknown]" (frames without a func)
  mutable SampleCursor rows_{p_.samples};  // Passes: its reads go forward (safe: the core has no threads)
};

}  // namespace profscope
