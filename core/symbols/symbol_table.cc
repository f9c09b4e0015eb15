#include "core/symbols/symbol_table.h"

#include <algorithm>

namespace profscope::symbols {

namespace {

size_t PrefixUnderscores(const std::string& n) {
  size_t i = 0;
  while (i < n.size() && n[i] == '_') ++i;
  return i;
}

}  // namespace

void SymbolTable::Add(uint64_t start, uint64_t size, uint8_t binding, uint8_t type, std::string name) {
  Symbol s;
  s.start = start;
  s.end = size ? start + size : start;
  if (s.end < s.start) s.end = UINT64_MAX;  // a size past the address space
  s.binding = binding;
  s.type = type;
  s.name = std::move(name);
  syms_.push_back(std::move(s));
}

// perf's choose_best_symbol (util/symbol.c): non-zero length, then not weak,
// then global, then fewer leading underscores, then the longer name, then
// the first (arch__choose_best_symbol's default).
bool ChooseFirst(const Symbol& a, const Symbol& b) {
  uint64_t la = a.end - a.start, lb = b.end - b.start;
  if (lb == 0 && la > 0) return true;
  if (la == 0 && lb > 0) return false;
  bool wa = a.binding == kStbWeak, wb = b.binding == kStbWeak;
  if (wb && !wa) return true;
  if (wa && !wb) return false;
  bool ga = a.binding == kStbGlobal, gb = b.binding == kStbGlobal;
  if (ga && !gb) return true;
  if (gb && !ga) return false;
  size_t ua = PrefixUnderscores(a.name), ub = PrefixUnderscores(b.name);
  if (ub > ua) return true;
  if (ua > ub) return false;
  if (a.name.size() > b.name.size()) return true;
  if (a.name.size() < b.name.size()) return false;
  // arch__choose_best_symbol (x86's is the default): not a "SyS" syscall alias
  if (a.name.compare(0, 3, "SyS") == 0 || a.name.compare(0, 10, "compat_SyS") == 0) return false;
  return true;
}

void SymbolTable::Finish(bool kallsyms) {
  left_.clear();
  right_.clear();
  root_ = kNoNode;
  std::stable_sort(syms_.begin(), syms_.end(), [](const Symbol& a, const Symbol& b) { return a.start < b.start; });
  // symbols__fixup_end
  for (size_t i = 1; i < syms_.size(); ++i) {
    Symbol& prev = syms_[i - 1];
    const Symbol& curr = syms_[i];
    if (prev.end != prev.start) continue;
    bool pm = prev.name.find('[') != std::string::npos, cm = curr.name.find('[') != std::string::npos;
    if (kallsyms && pm != cm) {
      uint64_t e = prev.end + 4096;
      prev.end = e < prev.end ? UINT64_MAX : (e + 4095) / 4096 * 4096;
    } else {
      prev.end = curr.start;
    }
  }
  if (!syms_.empty() && syms_.back().end == syms_.back().start) {
    Symbol& last = syms_.back();
    uint64_t r = (last.start + 4095) / 4096 * 4096;
    last.end = r < last.start || r + 4096 < r ? UINT64_MAX : r + 4096;
  }
  // symbols__fixup_duplicate
  std::vector<Symbol> out;
  out.reserve(syms_.size());
  for (auto& s : syms_) {
    if (!out.empty() && out.back().start == s.start) {
      if (!ChooseFirst(out.back(), s)) out.back() = std::move(s);
      continue;
    }
    out.push_back(std::move(s));
  }
  syms_ = std::move(out);
  Index();
}

void SymbolTable::Adopt(std::vector<Symbol> in_order, std::vector<uint32_t> left, std::vector<uint32_t> right,
                        uint32_t root) {
  syms_ = std::move(in_order);
  Index();
  // The shape matters only where a lookup could meet two symbols that hold
  // the address: overlapping ranges, a shared start, or a symbol without size.
  bool shape_matters = false;
  for (size_t i = 0; i < syms_.size() && !shape_matters; ++i)
    shape_matters = syms_[i].end <= syms_[i].start || (i > 0 && max_end_[i - 1] > syms_[i].start) ||
                    (i > 0 && syms_[i - 1].start == syms_[i].start);
  if (shape_matters && left.size() == syms_.size() && right.size() == syms_.size() && root < syms_.size()) {
    left_ = std::move(left);
    right_ = std::move(right);
    root_ = root;
  } else {
    left_.clear();
    right_.clear();
    root_ = kNoNode;
  }
}

void SymbolTable::Index() {
  max_end_.resize(syms_.size());
  uint64_t m = 0;
  for (size_t i = 0; i < syms_.size(); ++i) {
    m = std::max(m, syms_[i].end);
    max_end_[i] = m;
  }
}

const Symbol* SymbolTable::Find(uint64_t addr) const {
  if (root_ != kNoNode) {
    // perf's symbols__find
    uint32_t n = root_;
    while (n != kNoNode) {
      const Symbol& s = syms_[n];
      if (addr < s.start) n = left_[n];
      else if (addr > s.end || (addr == s.end && addr != s.start)) n = right_[n];
      else return &s;
    }
    return nullptr;
  }
  auto it = std::upper_bound(syms_.begin(), syms_.end(), addr, [](uint64_t a, const Symbol& x) { return a < x.start; });
  size_t i = static_cast<size_t>(it - syms_.begin());
  // The nearest symbol starting at or below addr that still covers it.
  while (i > 0) {
    --i;
    if (max_end_[i] <= addr) return nullptr;
    if (addr < syms_[i].end) return &syms_[i];
  }
  return nullptr;
}

}  // namespace profscope::symbols
