// The symbols of one DSO as perf keeps them (perf's util/symbol.c): each
// symbol [start, end) with its ELF binding and type, in address order with
// equal starts in insertion order (perf's rb-tree puts an equal key to the
// right), then perf's two repairs: symbols__fixup_end (a symbol without a
// size ends where the next one starts) and symbols__fixup_duplicate (of
// aliases at one address, choose_best_symbol keeps one).
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
  // For symbols perf loads without its repairs (a perf map, dso__load_perf_map):
  // ordered by start; of several at one start the first added is kept (perf's
  // tree meets the older one first); a zero-size one holds just its address.
  void FinishAsIs();
  // Adds symbols after Finish (perf's synthesized PLT entries): kept ordered.
  void Insert(Symbol s);
  // The symbol containing addr (start <= addr < end), or nullptr.
  const Symbol* Find(uint64_t addr) const;
  const std::vector<Symbol>& all() const { return syms_; }
  std::vector<Symbol>& mutable_all() { return syms_; }
  size_t size() const { return syms_.size(); }
  bool empty() const { return syms_.empty(); }

 private:
  std::vector<Symbol> syms_;
  // max end over syms_[0..i]: Find walks back over overlapping symbols.
  std::vector<uint64_t> max_end_;
  void Index();
};

// perf's choose_best_symbol: true when `a` wins over `b` (same start).
bool ChooseFirst(const Symbol& a, const Symbol& b);

}  // namespace profscope::symbols
