// Comparing two profiles (profscope diff, and the page's Compare tab): frames
// of A and B are matched by (module, function name), never by address (ASLR
// moves addresses between runs); a frame without a symbol (named
// `path+0xOFFSET` by the decoders) matches by (module, file offset). The module
// is the mapping's file name (no directory, no load address).
//
// From the pair it builds, over the samples' stacks:
//   - the folded lines "STACK COUNT_A COUNT_B" (FlameGraph's difffolded.pl
//     output, which flamegraph.pl reads), root first, sorted by STACK bytes;
//   - the merged call tree, each node with self/total of A and B;
//   - the top-functions table: self and total of A and B, delta (B - A) and
//     delta % (of A), sorted by |self delta|, then |total delta|, then name.
// Counts are samples (SampleTable::Count). With `normalize`, A is scaled to
// B's total (difffolded.pl -n, pprof -normalize) per folded line, rounded by
// largest remainder: each line gets floor(a * totalB / totalA) and the lines
// with the largest remainders (ties: the earlier line in STACK order) get one
// more, so the A column still sums to B's total exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/profile.h"

namespace profscope {

struct DiffOptions {
  int32_t event_a = kNone;  // keep one event row of A (kNone = every event)
  int32_t event_b = kNone;
  bool normalize = false;
  // Leave out each stack's root frame "thread_TID" (XRay's per-thread root, as `llvm-xray
  // stack` prints it): thread ids differ between runs, so those roots never match.
  bool drop_thread_root_a = false, drop_thread_root_b = false;
};

// The functions of the pair: one row per (module, name) key.
struct DiffFuncTable {
  std::vector<std::string> name;    // function name, or "module+0xOFFSET" without a symbol
  std::vector<std::string> module;  // mapping file name, "" when none
  std::vector<std::string> label;   // what the folded text shows: name, or "name [module]" when
                                    // the same name comes from two modules in the pair
  size_t size() const { return name.size(); }
};

// The merged call tree: node 0 is the root (func kNone); parents before children.
struct DiffTree {
  std::vector<int32_t> parent, func, depth;
  std::vector<uint64_t> self_a, total_a, self_b, total_b;
  size_t size() const { return parent.size(); }
};

struct DiffFunction {
  int32_t func = kNone;
  uint64_t self_a = 0, self_b = 0, total_a = 0, total_b = 0;  // total: samples with the function on the stack
  int64_t delta_self = 0, delta_total = 0;                    // B - A
  // 100 * delta / A; +infinity when A is 0 and B is not, 0 when both are 0.
  double delta_self_pct = 0, delta_total_pct = 0;
};

struct ProfileDiff {
  DiffFuncTable funcs;
  DiffTree tree;
  // The leaf nodes of the folded lines in STACK order, each with its counts.
  std::vector<int32_t> line_node;
  std::vector<uint64_t> line_a, line_b;
  uint64_t total_a = 0, total_b = 0;  // column sums (total_a is B's total after normalizing)
  uint64_t raw_total_a = 0;           // A's samples before normalizing
  std::vector<DiffFunction> functions;

  // "STACK COUNT_A COUNT_B\n" per line (frames joined by ';', root first).
  std::string FoldedText() const;
  std::string StackText(int32_t node) const;  // the labels root..node joined by ';'
};

ProfileDiff DiffProfiles(const Profile& a, const Profile& b, const DiffOptions& opts = {});

}  // namespace profscope
