#include "core/analysis/trie.h"

#include <algorithm>

namespace profscope {

std::string CountText(uint64_t v) {
  if (v < 1000000) return std::to_string(v);
  const uint64_t tenths = (v + 50000) / 100000;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " M";
}

namespace {

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

// Best first: each out node owns a range of the needed nodes whose reversed paths pass through it,
// with each one's next frame outward (`next`, 0 once its path is whole); a node's callers are made by
// grouping its range by that frame's function, in place.
void InvertBestFirst(const Trie& in, const std::vector<uint8_t>& need, const std::vector<double>& weight, Trie& out,
                     std::vector<int32_t>& inv, size_t max_nodes, uint64_t max_steps, InvertCut* cut) {
  std::vector<int32_t> node, next;  // the entries: a needed node, its next frame
  for (size_t n = 0; n < in.size() && n < need.size(); ++n)
    if (need[n]) {
      node.push_back(static_cast<int32_t>(n));
      next.push_back(static_cast<int32_t>(n));
    }
  std::vector<uint32_t> begin{0}, end{static_cast<uint32_t>(node.size())};  // per out node, its entries
  std::vector<double> w{0.0};
  for (int32_t n : node) w[0] += n < static_cast<int32_t>(weight.size()) ? weight[static_cast<size_t>(n)] : 0.0;
  // the heaviest first; among equals the first made (native and WASM make the same tree)
  auto lighter = [&](int32_t a, int32_t b) {
    const double wa = w[static_cast<size_t>(a)], wb = w[static_cast<size_t>(b)];
    return wa != wb ? wa < wb : a > b;
  };
  std::vector<int32_t> heap{0};
  uint64_t steps = 0;
  // an expansion's children: its entries' next functions, each numbered when first seen (no hashing)
  int32_t max_func = 0;
  for (size_t n = 1; n < in.size(); ++n) max_func = std::max(max_func, in.func[n]);
  std::vector<uint32_t> seen(static_cast<size_t>(max_func) + 2, 0), local(static_cast<size_t>(max_func) + 2, 0);
  uint32_t epoch = 0;
  std::vector<int32_t> child, kid_func, rank, remap, tmp_node, tmp_next;
  std::vector<double> kid_w;
  std::vector<uint32_t> fill;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), lighter);
    const int32_t o = heap.back();
    heap.pop_back();
    const size_t b = begin[static_cast<size_t>(o)], e = end[static_cast<size_t>(o)];
    // the entries whose paths end here first
    size_t k = b;
    for (size_t i = b; i < e; ++i)
      if (next[i] == 0) {
        std::swap(node[i], node[k]);
        std::swap(next[i], next[k]);
        inv[static_cast<size_t>(node[k])] = o;
        ++k;
      }
    if (k == e) continue;
    const size_t m = e - k;
    if (steps + m > max_steps || out.size() >= max_nodes) {  // no callers for this one
      double hidden = 0;  // (the weight of the paths that go on: those that end here show whole)
      for (size_t i = k; i < e; ++i) {
        inv[static_cast<size_t>(node[i])] = o;
        const size_t n = static_cast<size_t>(node[i]);
        hidden += n < weight.size() ? weight[n] : 0.0;
      }
      cut->nodes++;
      cut->heaviest = std::max(cut->heaviest, hidden);
      continue;
    }
    steps += m;
    // its callers: the entries' next functions, each numbered when first seen (no hashing), and weighed
    ++epoch;
    kid_func.clear();
    kid_w.clear();
    child.resize(m);
    for (size_t i = k; i < e; ++i) {
      const int32_t fn = in.func[static_cast<size_t>(next[i])];
      const size_t f = static_cast<size_t>(fn + 1);
      if (seen[f] != epoch) {
        seen[f] = epoch;
        local[f] = static_cast<uint32_t>(kid_func.size());
        kid_func.push_back(fn);
        kid_w.push_back(0.0);
      }
      child[i - k] = static_cast<int32_t>(local[f]);
      const size_t n = static_cast<size_t>(node[i]);
      kid_w[local[f]] += n < weight.size() ? weight[n] : 0.0;
    }
    // more callers than half the nodes left (a profile of a million distinct leaf functions): the
    // heaviest of them, the others' weight stays in this node's self
    const size_t room = (max_nodes - out.size()) / 2, kids_all = kid_func.size();
    rank.resize(kids_all);
    for (size_t c = 0; c < kids_all; ++c) rank[c] = static_cast<int32_t>(c);
    if (kids_all > room) {
      auto heavier = [&](int32_t a, int32_t b2) {
        const double wa = kid_w[static_cast<size_t>(a)], wb = kid_w[static_cast<size_t>(b2)];
        return wa != wb ? wa > wb : a < b2;
      };
      std::nth_element(rank.begin(), rank.begin() + static_cast<std::ptrdiff_t>(room), rank.end(), heavier);
      double dropped = 0;
      for (size_t c = room; c < kids_all; ++c) dropped = std::max(dropped, kid_w[static_cast<size_t>(rank[c])]);
      rank.resize(room);
      std::sort(rank.begin(), rank.end());  // the kept ones in the order first seen
      cut->nodes++;
      cut->heaviest = std::max(cut->heaviest, dropped);
    }
    remap.assign(kids_all, -1);
    const int32_t first = static_cast<int32_t>(out.size());
    for (size_t c = 0; c < rank.size(); ++c) {
      const size_t kc = static_cast<size_t>(rank[c]);
      remap[kc] = static_cast<int32_t>(c);
      out.parent.push_back(o);
      out.func.push_back(kid_func[kc]);
      out.depth.push_back(out.depth[static_cast<size_t>(o)] + 1);
      begin.push_back(0);
      end.push_back(0);
      w.push_back(kid_w[kc]);
    }
    const size_t kids = rank.size();
    // the range: the entries that stay here, then each caller's (counting sort, stable)
    fill.assign(kids + 2, 0);
    for (size_t j2 = 0; j2 < m; ++j2) ++fill[static_cast<size_t>(remap[static_cast<size_t>(child[j2])] + 2)];  // (group r + 1)
    for (size_t c = 1; c < fill.size(); ++c) fill[c] += fill[c - 1];
    for (size_t c = 0; c < kids; ++c) {
      begin[static_cast<size_t>(first) + c] = static_cast<uint32_t>(k + fill[c + 1]);
      end[static_cast<size_t>(first) + c] = static_cast<uint32_t>(k + fill[c + 2]);
    }
    tmp_node.resize(m);
    tmp_next.resize(m);
    for (size_t j2 = 0; j2 < m; ++j2) {
      const int32_t r = remap[static_cast<size_t>(child[j2])];
      const size_t to = fill[static_cast<size_t>(r + 1)]++;
      tmp_node[to] = node[k + j2];
      tmp_next[to] = r < 0 ? next[k + j2] : in.parent[static_cast<size_t>(next[k + j2])];
      if (r < 0) inv[static_cast<size_t>(node[k + j2])] = o;
    }
    std::copy(tmp_node.begin(), tmp_node.end(), node.begin() + static_cast<std::ptrdiff_t>(k));
    std::copy(tmp_next.begin(), tmp_next.end(), next.begin() + static_cast<std::ptrdiff_t>(k));
    for (size_t c = 0; c < kids; ++c) {
      heap.push_back(first + static_cast<int32_t>(c));
      std::push_heap(heap.begin(), heap.end(), lighter);
    }
  }
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

bool InvertTrie(const Trie& in, const std::vector<uint8_t>& need, const std::function<std::vector<double>()>& weigh, Trie& out,
                std::vector<int32_t>& inv, size_t max_nodes, uint64_t max_steps, InvertCut* cut, std::string* error,
                InvertHow how) {
  inv.assign(in.size(), -1);
  *cut = InvertCut();
  if (how == InvertHow::kBestFirst) {
    InvertBestFirst(in, need, weigh(), out, inv, max_nodes, max_steps, cut);
    return true;
  }
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
    if (how == InvertHow::kCheaper) {  // the heaviest part of it, then (a quarter of the nodes: more than a page can show)
      out = Trie();
      inv.assign(in.size(), -1);
      InvertBestFirst(in, need, weigh(), out, inv, std::max<size_t>(max_nodes / 4, 1), max_steps, cut);
      return true;
    }
    if (error)
      *error = "the inverted tree of these stacks is too large to build: " + what + " (stacks up to " + CountText(static_cast<uint64_t>(deepest)) +
               " deep); collapse recursion, focus on a function or narrow the selection first";
    out = Trie();
    inv.assign(in.size(), -1);
    return false;
  };
  if (steps > max_steps) return too_large("its paths hold " + CountText(steps) + " frames, more than the " + CountText(max_steps) + " this view walks");
  ChildIndex oi(out);
  for (size_t n = 0; n < in.size() && n < need.size(); ++n) {
    if (!need[n]) continue;
    int32_t o = 0;
    for (int32_t v = static_cast<int32_t>(n); v > 0; v = in.parent[static_cast<size_t>(v)]) o = oi.Child(o, in.func[static_cast<size_t>(v)]);
    inv[n] = o;
    if (out.size() > max_nodes) return too_large("it passes " + CountText(max_nodes) + " nodes");
  }
  return true;
}

}  // namespace profscope
