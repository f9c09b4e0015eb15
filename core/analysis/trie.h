// Tries of call paths (parent, function, depth columns; node 0 is the empty path and parents
// come before their children), the building block of the call trees: a path's node is its
// parent path's node plus one function, found or added through a hash of (parent, function).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/model/profile.h"

namespace profscope {

struct Trie {
  std::vector<int32_t> parent{kNone}, func{kNone}, depth{0};  // the root: no function, depth 0
  size_t size() const { return parent.size(); }
};

// "16.8 M" (to the nearest tenth of a million), or the number below a million.
std::string CountText(uint64_t v);

// (parent node, func) -> child node, interned through the trie's own columns.
class ChildIndex {
 public:
  explicit ChildIndex(Trie& t) : t_(t) {}
  int32_t Child(int32_t parent, int32_t func) {
    const uint64_t h = FlatIndex::Mix(static_cast<uint32_t>(parent), static_cast<uint32_t>(func));
    const int32_t next = static_cast<int32_t>(t_.parent.size());
    bool inserted = false;
    const int32_t n = index_.FindOrInsert(
        h, [&](int32_t row) { return t_.parent[static_cast<size_t>(row)] == parent && t_.func[static_cast<size_t>(row)] == func; },
        next, &inserted);
    if (inserted) {
      t_.parent.push_back(parent);
      t_.func.push_back(func);
      t_.depth.push_back(t_.depth[static_cast<size_t>(parent)] + 1);
    }
    return n;
  }

 private:
  Trie& t_;
  FlatIndex index_;
};

// The nodes `need` marks and their ancestors.
std::vector<uint8_t> WithAncestors(const Trie& t, const std::vector<uint8_t>& need);

// The node of every reversed path (leaf first) of `in`, for the nodes `need` marks, in `out`
// (a trie of its own, holding only its root on entry): inv[n] for those, -1 for the others.
//
// Walking each path from its leaf costs its depth, the square of a recursion's depth over its
// every call (an XRay log, where each call is a sample). So when the walks would cost more than
// the trie's size, the reversed paths are built from the trie of every path with its first
// frames dropped instead: reverse(f + rest) = reverse(rest) + f, one step a node of that trie,
// whose size is that of the inverted tree itself (a recursion N deep: N, not N²/2).
//
// Some inverted trees are inherently large (a chain of N distinct functions, each call a sample:
// N²/2 nodes; a wide profile of a million distinct deep stacks: tens of millions). Such a tree
// is built best first instead: from the leaf functions, the heaviest node (by `weigh()`, each
// node's samples or weights, asked for only then) gets its callers next, until one more would
// pass a quarter of `max_nodes` nodes (kBestFirst: `max_nodes`) or `max_steps` frames walked;
// the needed nodes under a node that got no callers map to it, whose self then holds their
// weight (totals stay the sums of their subtrees). `cut` says how many nodes got none or only
// some (0: the whole tree) and the largest weight so hidden.
// (`how` picks one way, for the tests; kWalk and kSuffixes alone give up with `error` instead.)
enum class InvertHow : uint8_t { kCheaper, kWalk, kSuffixes, kBestFirst };
struct InvertCut {
  size_t nodes = 0;     // nodes left without (some of) their callers
  double heaviest = 0;  // the largest weight whose callers one of them does not show
};
bool InvertTrie(const Trie& in, const std::vector<uint8_t>& need, const std::function<std::vector<double>()>& weigh, Trie& out,
                std::vector<int32_t>& inv, size_t max_nodes, uint64_t max_steps, InvertCut* cut, std::string* error,
                InvertHow how = InvertHow::kCheaper);

}  // namespace profscope
