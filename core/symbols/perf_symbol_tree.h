// perf 6.1's symbol tree of one DSO, replayed so that lookups answer as
// perf's do where symbols overlap.
//
// perf keeps a DSO's symbols in a Linux red-black tree (tools/lib/rbtree.c)
// and symbols__find descends it from the root, returning the first node on
// the path whose range holds the address. When two symbols overlap (a
// zero-size `_init` stretched over .plt by symbols__fixup_end, then the
// `name@plt` entries inserted after it; libc's nested assembler functions),
// which one perf names depends on which is the ancestor of the other: on
// the tree's shape. The shape follows from the exact sequence of inserts and
// erases and from the rebalancing cases of Linux's rbtree, so both are
// reproduced here:
//  - LinuxRbTree: a red-black tree over node ids (indices, no node per
//    allocation) whose insert and erase take the same cases, rotations and
//    recolourings as lib/rbtree.c (rb_insert_color, rb_erase: an erased
//    node with two children is replaced by its in-order successor node);
//  - PerfSymbolTree: __symbols__insert (an equal start goes right),
//    symbols__fixup_end, symbols__fixup_duplicate (in-order walk, the loser
//    of choose_best_symbol erased), symbols__find.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/symbols/symbol_table.h"

namespace profscope::symbols {

class LinuxRbTree {
 public:
  static constexpr uint32_t kNil = 0xffffffffu;

  void Reserve(size_t n) { nodes_.reserve(n); }
  // A new node, not yet in the tree, with the caller's key (kept beside the
  // links so that a descent reads one place); ids are 0, 1, 2... in order.
  uint32_t NewNode(uint64_t key = 0);
  uint64_t key(uint32_t n) const { return nodes_[n].key; }
  // rb_link_node + rb_insert_color: `n` becomes the left (as_left) or right
  // child of `parent` (kNil: the root of an empty tree), then the tree is
  // rebalanced.
  void Link(uint32_t n, uint32_t parent, bool as_left);
  // rb_erase.
  void Erase(uint32_t n);
  uint32_t First() const;            // rb_first, kNil when empty
  uint32_t Next(uint32_t n) const;   // rb_next, kNil after the last

  uint32_t root() const { return root_; }
  uint32_t left(uint32_t n) const { return nodes_[n].left; }
  uint32_t right(uint32_t n) const { return nodes_[n].right; }
  uint32_t parent(uint32_t n) const { return nodes_[n].parent; }
  bool red(uint32_t n) const { return n != kNil && !nodes_[n].black; }
  size_t node_ids() const { return nodes_.size(); }
  size_t size() const { return linked_; }

 private:
  struct Node {
    uint64_t key = 0;
    uint32_t parent = kNil, left = kNil, right = kNil;
    bool black = false;
  };
  std::vector<Node> nodes_;
  uint32_t root_ = kNil;
  size_t linked_ = 0;

  bool black(uint32_t n) const { return n == kNil || nodes_[n].black; }
  // Puts `to` where `from` hangs under `parent` (kNil: the root).
  void ReplaceChild(uint32_t from, uint32_t to, uint32_t parent);
  // `top` (a child of its parent, or the root) is replaced by `up`, its
  // child, which takes top's parent and colour; top becomes up's child with
  // colour `top_black` (lib/rbtree.c __rb_rotate_set_parents).
  void TakePlace(uint32_t top, uint32_t up, bool top_black);
  void InsertFixup(uint32_t n);
  void EraseFixup(uint32_t parent);
};

class PerfSymbolTree {
 public:
  // perf demangles each symbol's name as it loads it; here a name given raw
  // (Insert's raw_name) is demangled only when it matters: when
  // fixup_duplicate compares it with a different name, and for the symbols
  // still in the tree at MoveInto. The names, choices and shape are the same.
  using Demangle = std::string (*)(const std::string&);
  explicit PerfSymbolTree(Demangle demangle = nullptr) : demangle_(demangle) {}
  void Reserve(size_t n) { syms_.reserve(n); raw_.reserve(n); tree_.Reserve(n); }
  // __symbols__insert: descends left while start < node's start, else right.
  void Insert(Symbol s, bool raw_name = false);
  // symbols__fixup_end(symbols, is_kallsyms = false).
  void FixupEnd();
  // symbols__fixup_duplicate (symbol_conf.allow_aliases unset).
  void FixupDuplicate();
  // symbols__find: the first node on the descent whose range holds ip.
  const Symbol* Find(uint64_t ip) const;
  size_t size() const { return tree_.size(); }
  const LinuxRbTree& tree() const { return tree_; }
  // Node `id`'s symbol (its name maybe not yet demangled).
  const Symbol& symbol(uint32_t id) const { return syms_[id]; }
  // Gives the symbols still in the tree, in order, with the tree's shape to
  // `out` (SymbolTable::Adopt); this tree is left empty.
  void MoveInto(SymbolTable& out);

 private:
  LinuxRbTree tree_;
  std::vector<Symbol> syms_;  // by node id; erased ones stay, unlinked
  std::vector<uint8_t> raw_;  // syms_[id].name is not demangled yet
  Demangle demangle_ = nullptr;
  void Cook(uint32_t id);
  std::vector<uint32_t> InOrder() const;
  // choose_best_symbol(a, b) == SYMBOL_A
  bool Prefer(uint32_t a, uint32_t b);
};

}  // namespace profscope::symbols
