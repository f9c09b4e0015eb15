#include "core/analysis/trie.h"

#include <algorithm>

namespace profscope {

namespace {

// "16.8 M" (to the nearest tenth of a million), or the number below a million.
std::string Count(uint64_t v) {
  if (v < 1000000) return std::to_string(v);
  const uint64_t tenths = (v + 50000) / 100000;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " M";
}

// Through the trie of the kept paths and every path they give with first frames dropped: false
// when that trie passes `budget` nodes (the caller walks the paths instead).
bool InvertBySuffixes(const Trie& in, const std::vector<uint8_t>& need, Trie& out, std::vector<int32_t>& inv, size_t budget) {
  const std::vector<uint8_t> keep = WithAncestors(in, need);
  Trie w;
  ChildIndex wi(w);
  std::vector<int32_t> at(in.size(), -1);  // in's node -> w's
  at[0] = 0;
  for (size_t n = 1; n < in.size(); ++n)
    if (keep[n]) at[n] = wi.Child(at[static_cast<size_t>(in.parent[n])], in.func[n]);
  // drop[x]: x's path without its first frame. Nodes made here are dropped in turn when the
  // loop reaches them (their parents, made earlier, were dropped before).
  std::vector<int32_t> drop{0};
  for (size_t x = 1; x < w.size(); ++x) {
    if (w.size() > budget) return false;
    const int32_t par = w.parent[x], f = w.func[x];
    drop.push_back(par == 0 ? 0 : wi.Child(drop[static_cast<size_t>(par)], f));
  }
  // by depth, so that a node's dropped path (one shorter) and its parent come first
  int32_t max_depth = 0;
  for (int32_t d : w.depth) max_depth = std::max(max_depth, d);
  std::vector<int32_t> start(static_cast<size_t>(max_depth) + 2, 0);
  for (int32_t d : w.depth) ++start[static_cast<size_t>(d) + 1];
  for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  std::vector<int32_t> order(w.size());
  for (size_t x = 0; x < w.size(); ++x) order[static_cast<size_t>(start[static_cast<size_t>(w.depth[x])]++)] = static_cast<int32_t>(x);
  std::vector<int32_t> first(w.size(), kNone), winv(w.size(), 0);
  ChildIndex oi(out);
  for (int32_t xi : order) {
    const size_t x = static_cast<size_t>(xi);
    if (x == 0) continue;
    const size_t par = static_cast<size_t>(w.parent[x]);
    first[x] = par == 0 ? w.func[x] : first[par];
    winv[x] = oi.Child(winv[static_cast<size_t>(drop[x])], first[x]);  // reverse(f + rest) = reverse(rest) + f
  }
  for (size_t n = 0; n < in.size(); ++n) inv[n] = n < need.size() && need[n] ? winv[static_cast<size_t>(at[n])] : -1;
  return true;
}

}  // namespace

std::vector<uint8_t> WithAncestors(const Trie& t, const std::vector<uint8_t>& need) {
  std::vector<uint8_t> keep(t.size(), 0);
  for (size_t n = t.size(); n-- > 1;) {
    if (n < need.size() && need[n]) keep[n] = 1;
    if (keep[n]) keep[static_cast<size_t>(t.parent[n])] = 1;
  }
  keep[0] = 1;
  return keep;
}

bool InvertTrie(const Trie& in, const std::vector<uint8_t>& need, Trie& out, std::vector<int32_t>& inv, size_t max_nodes,
                uint64_t max_steps, std::string* error, InvertHow how) {
  inv.assign(in.size(), -1);
  uint64_t steps = 0;
  int32_t deepest = 0;
  for (size_t n = 0; n < in.size() && n < need.size(); ++n)
    if (need[n]) {
      steps += static_cast<uint64_t>(in.depth[n]);
      deepest = std::max(deepest, in.depth[n]);
    }
  // The suffix trie costs about three hash lookups a node, a walk one a frame.
  if (how == InvertHow::kSuffixes || (how == InvertHow::kCheaper && steps > 2 * static_cast<uint64_t>(in.size()))) {
    const size_t budget = how == InvertHow::kSuffixes ? max_nodes : static_cast<size_t>(std::min<uint64_t>(max_nodes, steps / 3));
    if (InvertBySuffixes(in, need, out, inv, budget)) return true;
    out = Trie();
    inv.assign(in.size(), -1);
  }
  auto too_large = [&](const std::string& what) {
    if (error)
      *error = "the inverted tree of these stacks is too large to build: " + what + " (stacks up to " + Count(static_cast<uint64_t>(deepest)) +
               " deep); collapse recursion, focus on a function or narrow the selection first";
    out = Trie();
    inv.assign(in.size(), -1);
    return false;
  };
  if (steps > max_steps) return too_large("its paths hold " + Count(steps) + " frames, more than the " + Count(max_steps) + " this view walks");
  ChildIndex oi(out);
  for (size_t n = 0; n < in.size() && n < need.size(); ++n) {
    if (!need[n]) continue;
    int32_t o = 0;
    for (int32_t v = static_cast<int32_t>(n); v > 0; v = in.parent[static_cast<size_t>(v)]) o = oi.Child(o, in.func[static_cast<size_t>(v)]);
    inv[n] = o;
    if (out.size() > max_nodes) return too_large("it passes " + Count(max_nodes) + " nodes");
  }
  return true;
}

}  // namespace profscope
