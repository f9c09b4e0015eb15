#include "core/symbols/perf_symbol_tree.h"

#include <string>
#include <utility>

namespace profscope::symbols {

// ---- LinuxRbTree ---------------------------------------------------------
// The cases below are lib/rbtree.c's (numbered as there), so that the same
// inserts and erases give the same shape. Where lib/rbtree.c leaves a link
// stale for a moment because the next case rewrites it (insert Case 2 into
// Case 3, erase Case 3 into Case 4), so does this code.

uint32_t LinuxRbTree::NewNode(uint64_t key) {
  nodes_.push_back(Node{});
  nodes_.back().key = key;
  return static_cast<uint32_t>(nodes_.size() - 1);
}

void LinuxRbTree::ReplaceChild(uint32_t from, uint32_t to, uint32_t parent) {
  if (parent == kNil) root_ = to;
  else if (nodes_[parent].left == from) nodes_[parent].left = to;
  else nodes_[parent].right = to;
}

void LinuxRbTree::TakePlace(uint32_t top, uint32_t up, bool top_black) {
  const uint32_t above = nodes_[top].parent;
  nodes_[up].parent = above;
  nodes_[up].black = nodes_[top].black;
  nodes_[top].parent = up;
  nodes_[top].black = top_black;
  ReplaceChild(top, up, above);
}

void LinuxRbTree::Link(uint32_t n, uint32_t parent, bool as_left) {
  Node& x = nodes_[n];
  x.parent = parent;
  x.left = x.right = kNil;
  x.black = false;
  if (parent == kNil) root_ = n;
  else if (as_left) nodes_[parent].left = n;
  else nodes_[parent].right = n;
  ++linked_;
  InsertFixup(n);
}

void LinuxRbTree::InsertFixup(uint32_t n) {
  uint32_t p = nodes_[n].parent;
  for (;;) {
    // n is red here.
    if (p == kNil) {  // n is the root
      nodes_[n].black = true;
      return;
    }
    if (nodes_[p].black) return;
    const uint32_t g = nodes_[p].parent;  // p is red, so not the root
    const bool p_left = p != nodes_[g].right;
    const uint32_t uncle = p_left ? nodes_[g].right : nodes_[g].left;
    if (red(uncle)) {
      // Case 1: recolour, go on from the grandparent.
      nodes_[uncle].black = true;
      nodes_[p].black = true;
      n = g;
      p = nodes_[n].parent;
      nodes_[n].black = false;
      continue;
    }
    if (p_left) {
      if (n == nodes_[p].right) {
        // Case 2: rotate left at p (g's left link is rewritten by Case 3).
        const uint32_t inner = nodes_[n].left;
        nodes_[p].right = inner;
        nodes_[n].left = p;
        if (inner != kNil) { nodes_[inner].parent = p; nodes_[inner].black = true; }
        nodes_[p].parent = n;
        nodes_[p].black = false;
        p = n;
      }
      // Case 3: rotate right at g.
      const uint32_t inner = nodes_[p].right;
      nodes_[g].left = inner;
      nodes_[p].right = g;
      if (inner != kNil) { nodes_[inner].parent = g; nodes_[inner].black = true; }
      TakePlace(g, p, false);
    } else {
      if (n == nodes_[p].left) {
        // Case 2, mirrored: rotate right at p.
        const uint32_t inner = nodes_[n].right;
        nodes_[p].left = inner;
        nodes_[n].right = p;
        if (inner != kNil) { nodes_[inner].parent = p; nodes_[inner].black = true; }
        nodes_[p].parent = n;
        nodes_[p].black = false;
        p = n;
      }
      // Case 3, mirrored: rotate left at g.
      const uint32_t inner = nodes_[p].left;
      nodes_[g].right = inner;
      nodes_[p].left = g;
      if (inner != kNil) { nodes_[inner].parent = g; nodes_[inner].black = true; }
      TakePlace(g, p, false);
    }
    return;
  }
}

void LinuxRbTree::Erase(uint32_t n) {
  const Node z = nodes_[n];
  uint32_t rebalance = kNil;
  if (z.left == kNil) {
    // Case 1: at most a right child, which takes n's place and colour.
    ReplaceChild(n, z.right, z.parent);
    if (z.right != kNil) {
      nodes_[z.right].parent = z.parent;
      nodes_[z.right].black = z.black;
    } else if (z.black) {
      rebalance = z.parent;
    }
  } else if (z.right == kNil) {
    // Case 1 with the left child.
    nodes_[z.left].parent = z.parent;
    nodes_[z.left].black = z.black;
    ReplaceChild(n, z.left, z.parent);
  } else {
    // Two children: n's in-order successor node takes n's place and colour.
    uint32_t succ = z.right, parent, child2;
    uint32_t down = nodes_[succ].left;
    if (down == kNil) {
      // Case 2: the successor is n's right child.
      parent = succ;
      child2 = nodes_[succ].right;
    } else {
      // Case 3: the successor is the leftmost node under n's right child.
      do {
        parent = succ;
        succ = down;
        down = nodes_[down].left;
      } while (down != kNil);
      child2 = nodes_[succ].right;
      nodes_[parent].left = child2;
      nodes_[succ].right = z.right;
      nodes_[z.right].parent = succ;
    }
    nodes_[succ].left = z.left;
    nodes_[z.left].parent = succ;
    ReplaceChild(n, succ, z.parent);
    const bool succ_was_black = nodes_[succ].black;
    nodes_[succ].parent = z.parent;
    nodes_[succ].black = z.black;
    if (child2 != kNil) {
      nodes_[child2].parent = parent;
      nodes_[child2].black = true;
    } else if (succ_was_black) {
      rebalance = parent;
    }
  }
  nodes_[n].parent = nodes_[n].left = nodes_[n].right = kNil;
  nodes_[n].black = false;
  --linked_;
  if (rebalance != kNil) EraseFixup(rebalance);
}

void LinuxRbTree::EraseFixup(uint32_t parent) {
  // The paths through `node` (kNil at first) under `parent` lack one black.
  uint32_t node = kNil;
  for (;;) {
    uint32_t sib = nodes_[parent].right;
    if (node != sib) {  // node is parent's left child
      if (red(sib)) {
        // Case 1: rotate left at parent.
        const uint32_t inner = nodes_[sib].left;
        nodes_[parent].right = inner;
        nodes_[sib].left = parent;
        if (inner != kNil) { nodes_[inner].parent = parent; nodes_[inner].black = true; }
        TakePlace(parent, sib, false);
        sib = inner;
      }
      uint32_t far = nodes_[sib].right;
      if (black(far)) {
        const uint32_t near = nodes_[sib].left;
        if (black(near)) {
          // Case 2: the sibling turns red.
          nodes_[sib].black = false;
          if (!nodes_[parent].black) {
            nodes_[parent].black = true;
          } else {
            node = parent;
            parent = nodes_[node].parent;
            if (parent != kNil) continue;
          }
          return;
        }
        // Case 3: rotate right at the sibling (links finished by Case 4).
        const uint32_t inner = nodes_[near].right;
        nodes_[sib].left = inner;
        nodes_[near].right = sib;
        nodes_[parent].right = near;
        if (inner != kNil) { nodes_[inner].parent = sib; nodes_[inner].black = true; }
        far = sib;
        sib = near;
      }
      // Case 4: rotate left at parent.
      const uint32_t inner = nodes_[sib].left;
      nodes_[parent].right = inner;
      nodes_[sib].left = parent;
      nodes_[far].parent = sib;
      nodes_[far].black = true;
      if (inner != kNil) nodes_[inner].parent = parent;
      TakePlace(parent, sib, true);
      return;
    }
    // Mirrored: node is parent's right child.
    sib = nodes_[parent].left;
    if (red(sib)) {
      const uint32_t inner = nodes_[sib].right;
      nodes_[parent].left = inner;
      nodes_[sib].right = parent;
      if (inner != kNil) { nodes_[inner].parent = parent; nodes_[inner].black = true; }
      TakePlace(parent, sib, false);
      sib = inner;
    }
    uint32_t far = nodes_[sib].left;
    if (black(far)) {
      const uint32_t near = nodes_[sib].right;
      if (black(near)) {
        nodes_[sib].black = false;
        if (!nodes_[parent].black) {
          nodes_[parent].black = true;
        } else {
          node = parent;
          parent = nodes_[node].parent;
          if (parent != kNil) continue;
        }
        return;
      }
      const uint32_t inner = nodes_[near].left;
      nodes_[sib].right = inner;
      nodes_[near].left = sib;
      nodes_[parent].left = near;
      if (inner != kNil) { nodes_[inner].parent = sib; nodes_[inner].black = true; }
      far = sib;
      sib = near;
    }
    const uint32_t inner = nodes_[sib].right;
    nodes_[parent].left = inner;
    nodes_[sib].right = parent;
    nodes_[far].parent = sib;
    nodes_[far].black = true;
    if (inner != kNil) nodes_[inner].parent = parent;
    TakePlace(parent, sib, true);
    return;
  }
}

uint32_t LinuxRbTree::First() const {
  uint32_t n = root_;
  if (n == kNil) return kNil;
  while (nodes_[n].left != kNil) n = nodes_[n].left;
  return n;
}

uint32_t LinuxRbTree::Next(uint32_t n) const {
  if (nodes_[n].right != kNil) {
    n = nodes_[n].right;
    while (nodes_[n].left != kNil) n = nodes_[n].left;
    return n;
  }
  uint32_t p = nodes_[n].parent;
  while (p != kNil && n == nodes_[p].right) {
    n = p;
    p = nodes_[n].parent;
  }
  return p;
}

// ---- PerfSymbolTree --------------------------------------------------------

void PerfSymbolTree::Insert(Symbol s, bool raw_name) {
  const uint64_t ip = s.start;
  const uint32_t id = tree_.NewNode(ip);
  syms_.push_back(std::move(s));
  raw_.push_back(raw_name && demangle_ ? 1 : 0);
  uint32_t parent = LinuxRbTree::kNil, at = tree_.root();
  bool as_left = false;
  while (at != LinuxRbTree::kNil) {
    parent = at;
    as_left = ip < tree_.key(at);
    at = as_left ? tree_.left(at) : tree_.right(at);
  }
  tree_.Link(id, parent, as_left);
}

// The tree's nodes in order (rb_first, rb_next...). Erasing a node leaves
// the others in the same order, so a walk over this list that skips what it
// erased meets the nodes that perf's rb_next walk meets.
std::vector<uint32_t> PerfSymbolTree::InOrder() const {
  std::vector<uint32_t> out, stack;
  out.reserve(tree_.size());
  uint32_t n = tree_.root();
  while (n != LinuxRbTree::kNil || !stack.empty()) {
    while (n != LinuxRbTree::kNil) {
      stack.push_back(n);
      n = tree_.left(n);
    }
    n = stack.back();
    stack.pop_back();
    out.push_back(n);
    n = tree_.right(n);
  }
  return out;
}

void PerfSymbolTree::FixupEnd() {
  const std::vector<uint32_t> order = InOrder();
  if (order.empty()) return;
  for (size_t i = 1; i < order.size(); ++i) {
    Symbol& prev = syms_[order[i - 1]];
    if (prev.end == prev.start) prev.end = syms_[order[i]].start;
  }
  Symbol& last = syms_[order.back()];
  if (last.end == last.start) {
    // roundup(start, 4096) + 4096, held at the top of the address space
    const uint64_t r = (last.start + 4095) / 4096 * 4096;
    last.end = r < last.start || r + 4096 < r ? UINT64_MAX : r + 4096;
  }
}

void PerfSymbolTree::Cook(uint32_t id) {
  if (!raw_[id]) return;
  syms_[id].name = demangle_(syms_[id].name);
  raw_[id] = 0;
}

bool PerfSymbolTree::Prefer(uint32_t a, uint32_t b) {
  // Two equal raw names demangle to two equal names: choose_best_symbol's
  // name rules (underscores, length) tie either way, and only the "SyS"
  // prefix rule reads a name, which can start the demangled name only when
  // the raw name holds "SyS".
  if (!(raw_[a] && raw_[b] && syms_[a].name == syms_[b].name && syms_[a].name.find("SyS") == std::string::npos)) {
    Cook(a);
    Cook(b);
  }
  return ChooseFirst(syms_[a], syms_[b]);
}

void PerfSymbolTree::FixupDuplicate() {
  // perf: curr = first; next = rb_next(curr); equal starts: the loser is
  // erased; curr won: compare it with its new next; next won: go on from it.
  const std::vector<uint32_t> order = InOrder();
  if (order.empty()) return;
  uint32_t curr = order[0];
  for (size_t i = 1; i < order.size(); ++i) {
    const uint32_t next = order[i];
    if (syms_[curr].start == syms_[next].start) {
      if (Prefer(curr, next)) {
        tree_.Erase(next);
        std::string().swap(syms_[next].name);
        continue;
      }
      tree_.Erase(curr);
      std::string().swap(syms_[curr].name);
    }
    curr = next;
  }
}

// (names as given: MoveInto demangles what is still raw)
const Symbol* PerfSymbolTree::Find(uint64_t ip) const {
  uint32_t n = tree_.root();
  while (n != LinuxRbTree::kNil) {
    const Symbol& s = syms_[n];
    if (ip < s.start) n = tree_.left(n);
    else if (ip > s.end || (ip == s.end && ip != s.start)) n = tree_.right(n);
    else return &s;
  }
  return nullptr;
}

void PerfSymbolTree::MoveInto(SymbolTable& out) {
  // Node ids become in-order ranks.
  const size_t n = tree_.size();
  std::vector<uint32_t> rank(tree_.node_ids(), LinuxRbTree::kNil);
  std::vector<Symbol> in_order;
  in_order.reserve(n);
  for (uint32_t id : InOrder()) {
    Cook(id);
    rank[id] = static_cast<uint32_t>(in_order.size());
    in_order.push_back(std::move(syms_[id]));
  }
  auto ranked = [&](uint32_t id) { return id == LinuxRbTree::kNil ? SymbolTable::kNoNode : rank[id]; };
  std::vector<uint32_t> left(n), right(n);
  for (size_t id = 0; id < rank.size(); ++id) {
    if (rank[id] == LinuxRbTree::kNil) continue;
    left[rank[id]] = ranked(tree_.left(static_cast<uint32_t>(id)));
    right[rank[id]] = ranked(tree_.right(static_cast<uint32_t>(id)));
  }
  out.Adopt(std::move(in_order), std::move(left), std::move(right), ranked(tree_.root()));
  *this = PerfSymbolTree();
}

}  // namespace profscope::symbols
