// The symbols of one DSO as perf keeps them (perf's util/symbol.c): each
// symbol [start, end) with its ELF binding and type, in address order with
// equal starts in insertion order (perf's rb-tree puts an equal key to the
// right), then perf's two repairs: symbols__fixup_end (a symbol without a
// size ends where the next one starts) and symbols__fixup_duplicate (of
// aliases at one address, choose_best_symbol keeps one).
// A user DSO's ELF symbols come with the shape of perf's tree
// (PerfSymbolTree, Adopt): where symbols overlap, Find answers as perf's
// symbols__find does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace profscope::symbols {

inline constexpr uint8_t kStbLocal = 0, kStbGlobal = 1, kStbWeak = 2;
inline constexpr uint8_t kSttNotype = 0, kSttObject = 1, kSttFunc = 2, kSttGnuIfunc = 10;

struct Symbol {
  uint64_t start = 0;
  uint64_t end = 0;      // exclusive; == start while unknown (perf's zero-size symbol)
  uint8_t binding = kStbGlobal;
  uint8_t type = kSttFunc;
  std::string name;      // demangled as perf demangles
};

class SymbolTable {
 public:
  // perf's symbol__new: end = start + size (start when size is 0).
  void Add(uint64_t start, uint64_t size, uint8_t binding, uint8_t type, std::string name);
  // Orders by start (stable) and applies fixup_end then fixup_duplicate.
  // `kallsyms`: perf's is_kallsyms rule (a zero-size symbol before a switch
  // between kernel and module symbols ends at the next page).
  void Finish(bool kallsyms);
  // Takes symbols already in perf's order, ends and duplicates settled, with
  // the shape of perf's rb-tree over them: left/right children by index into
  // `in_order` (kNoNode: none), `root` likewise. The shape is kept only when
  // it can change an answer (some symbol overlaps another, or has no size);
  // otherwise Find's search of the sorted symbols gives the same answers.
  static constexpr uint32_t kNoNode = 0xffffffffu;
  void Adopt(std::vector<Symbol> in_order, std::vector<uint32_t> left, std::vector<uint32_t> right, uint32_t root);
  // The symbol perf names at addr, or nullptr: with a tree shape, perf's
  // symbols__find (the first symbol on the descent from the root that holds
  // addr: start <= addr < end, or addr == start == end); without, the
  // nearest-start symbol with start <= addr < end (the same answer when no
  // symbols overlap).
  const Symbol* Find(uint64_t addr) const;
  bool has_tree() const { return root_ != kNoNode; }
  const std::vector<Symbol>& all() const { return syms_; }
  // For changes followed by Finish (which drops any tree shape).
  std::vector<Symbol>& mutable_all() { return syms_; }
  size_t size() const { return syms_.size(); }
  bool empty() const { return syms_.empty(); }

 private:
  std::vector<Symbol> syms_;
  // max end over syms_[0..i]: Find walks back over overlapping symbols.
  std::vector<uint64_t> max_end_;
  // perf's tree shape over syms_ (Adopt), when kept.
  std::vector<uint32_t> left_, right_;
  uint32_t root_ = kNoNode;
  void Index();
};

// perf's choose_best_symbol: true when `a` wins over `b` (same start).
bool ChooseFirst(const Symbol& a, const Symbol& b);

}  // namespace profscope::symbols
