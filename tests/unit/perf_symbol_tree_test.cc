// perf 6.1's symbol tree (core/symbols/perf_symbol_tree.h): Linux's
// red-black tree by its invariants and by shapes worked out by hand from
// lib/rbtree.c's cases, perf's insert/fixup/find rules, and the replay of two
// corpus binaries' symbols against what perf 6.1 printed for their PLT slots.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "core/format/elf/elf_reader.h"
#include "core/symbols/elf_symbols.h"
#include "core/symbols/perf_symbol_tree.h"
#include "core/symbols/symbol_table.h"

using namespace profscope;
using namespace profscope::symbols;

namespace {

constexpr uint32_t kNil = LinuxRbTree::kNil;

// A tree of integer keys, inserted as perf inserts symbols (an equal key goes right).
struct KeyTree {
  LinuxRbTree t;
  std::vector<int> key;
  uint32_t Insert(int k) {
    uint32_t id = t.NewNode(static_cast<uint64_t>(k));
    key.push_back(k);
    uint32_t parent = kNil, at = t.root();
    bool left = false;
    while (at != kNil) {
      parent = at;
      left = k < key[at];
      at = left ? t.left(at) : t.right(at);
    }
    t.Link(id, parent, left);
    return id;
  }
  // "key colour(left,right)", "-" for no child.
  std::string Shape(uint32_t n) const {
    if (n == kNil) return "-";
    std::string s = std::to_string(key[n]) + (t.red(n) ? "r" : "b");
    if (t.left(n) != kNil || t.right(n) != kNil) s += "(" + Shape(t.left(n)) + "," + Shape(t.right(n)) + ")";
    return s;
  }
  std::string Shape() const { return Shape(t.root()); }
};

// The red-black rules and the links; returns the black height (-1: broken).
int Check(const LinuxRbTree& t, uint32_t n, uint32_t parent, size_t* count) {
  if (n == kNil) return 1;
  ++*count;
  if (t.parent(n) != parent) return -1;
  if (t.red(n) && (t.red(t.left(n)) || t.red(t.right(n)))) return -1;  // no red node has a red child
  int l = Check(t, t.left(n), n, count), r = Check(t, t.right(n), n, count);
  if (l < 0 || r < 0 || l != r) return -1;  // the same number of black nodes on every path
  return l + (t.red(n) ? 0 : 1);
}

std::vector<uint8_t> ReadAll(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::filesystem::path PerfData() { return std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests/data/perf"; }

}  // namespace

// Shapes followed by hand through lib/rbtree.c's cases.
TEST(LinuxRbTree, InsertCasesGiveLinuxsShapes) {
  KeyTree k;
  k.Insert(1);
  EXPECT_EQ(k.Shape(), "1b");
  k.Insert(2);
  EXPECT_EQ(k.Shape(), "1b(-,2r)");
  k.Insert(3);  // red parent on the right, right child, black uncle: Case 3 (left rotate at 1)
  EXPECT_EQ(k.Shape(), "2b(1r,3r)");
  k.Insert(4);  // red uncle: Case 1 colour flips up to the root, which turns black
  EXPECT_EQ(k.Shape(), "2b(1b,3b(-,4r))");
  k.Insert(5);  // Case 3 at 3
  EXPECT_EQ(k.Shape(), "2b(1b,4b(3r,5r))");

  KeyTree z;
  z.Insert(10);
  z.Insert(5);
  z.Insert(7);  // left parent, right child: Case 2 (left rotate at 5) then Case 3 (right rotate at 10)
  EXPECT_EQ(z.Shape(), "7b(5r,10r)");
}

TEST(LinuxRbTree, EraseCasesGiveLinuxsShapes) {
  KeyTree k;
  std::vector<uint32_t> id;
  for (int v = 1; v <= 5; ++v) id.push_back(k.Insert(v));
  ASSERT_EQ(k.Shape(), "2b(1b,4b(3r,5r))");
  // Two children: the successor node (3, leftmost under 4) takes 2's place
  // and colour; it was red with no child, so nothing is rebalanced.
  k.t.Erase(id[1]);
  EXPECT_EQ(k.Shape(), "3b(1b,4b(-,5r))");
  // A black leaf: rebalance at 3, sibling 4 black with a red far child: Case 4.
  k.t.Erase(id[0]);
  EXPECT_EQ(k.Shape(), "4b(3b,5b)");
  // Black leaf, black sibling without red children, black parent: Case 2 up to the root.
  k.t.Erase(id[2]);
  EXPECT_EQ(k.Shape(), "4b(-,5r)");
  k.t.Erase(id[3]);  // the root with one (red) child: the child takes its place and colour
  EXPECT_EQ(k.Shape(), "5b");
  k.t.Erase(id[4]);
  EXPECT_EQ(k.t.root(), kNil);
  EXPECT_EQ(k.t.size(), 0u);

  // Red sibling: Case 1 (rotate at the parent), then Case 2 at the red parent.
  KeyTree r;
  std::vector<uint32_t> rid;
  for (int v : {2, 1, 4, 3, 5, 6}) rid.push_back(r.Insert(v));
  ASSERT_EQ(r.Shape(), "2b(1b,4r(3b,5b(-,6r)))");
  r.t.Erase(rid[5]);  // 6: red leaf, nothing to rebalance
  ASSERT_EQ(r.Shape(), "2b(1b,4r(3b,5b))");
  r.t.Erase(rid[1]);  // 1: black leaf, sibling 4 red -> rotate left at 2; then 3 black childless, 2 red -> recolour
  EXPECT_EQ(r.Shape(), "4b(2b(-,3r),5b)");
}

TEST(LinuxRbTree, EqualKeysGoRightAndKeepInsertionOrder) {
  KeyTree k;
  uint32_t a = k.Insert(5), b = k.Insert(5), c = k.Insert(5);
  EXPECT_EQ(k.t.root(), b);
  EXPECT_EQ(k.t.left(b), a);
  EXPECT_EQ(k.t.right(b), c);
  std::vector<uint32_t> order;
  for (uint32_t n = k.t.First(); n != kNil; n = k.t.Next(n)) order.push_back(n);
  EXPECT_EQ(order, (std::vector<uint32_t>{a, b, c}));
}

// Random inserts and erases (many equal keys): the red-black rules hold after
// each step and an in-order walk gives the keys in order, equal keys in
// insertion order.
TEST(LinuxRbTree, RandomInsertsAndErasesKeepTheRulesAndTheOrder) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 40; ++round) {
    KeyTree k;
    std::vector<uint32_t> live;
    const int range = round % 2 ? 20 : 1000000;
    const int steps = round < 20 ? 200 : 3000;
    for (int step = 0; step < steps; ++step) {
      if (!live.empty() && rng() % 3 == 0) {
        size_t at = rng() % live.size();
        k.t.Erase(live[at]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
      } else {
        live.push_back(k.Insert(static_cast<int>(rng() % range)));
      }
      if (round >= 20 && step % 97 != 0) continue;  // the big rounds: checked now and then
      size_t count = 0;
      ASSERT_GT(Check(k.t, k.t.root(), kNil, &count), 0) << "round " << round << " step " << step;
      ASSERT_FALSE(k.t.red(k.t.root()));
      ASSERT_EQ(count, live.size());
      ASSERT_EQ(k.t.size(), live.size());
      std::vector<uint32_t> want = live;
      std::stable_sort(want.begin(), want.end(), [&](uint32_t x, uint32_t y) { return k.key[x] < k.key[y]; });
      std::vector<uint32_t> got;
      for (uint32_t n = k.t.First(); n != kNil; n = k.t.Next(n)) got.push_back(n);
      ASSERT_EQ(got, want) << "round " << round << " step " << step;
    }
  }
}

namespace {

Symbol Sym(uint64_t start, uint64_t end, const std::string& name, uint8_t bind = kStbGlobal) {
  Symbol s;
  s.start = start;
  s.end = end;
  s.binding = bind;
  s.name = name;
  return s;
}

}  // namespace

// symbols__find returns the first symbol on the descent that holds the
// address: of two overlapping symbols, the ancestor.
TEST(PerfSymbolTree, OfOverlappingSymbolsTheAncestorIsFound) {
  PerfSymbolTree outer_first;
  outer_first.Insert(Sym(0x100, 0x200, "outer"));
  outer_first.Insert(Sym(0x150, 0x160, "inner"));
  EXPECT_EQ(outer_first.Find(0x155)->name, "outer");
  EXPECT_EQ(outer_first.Find(0x1ff)->name, "outer");
  EXPECT_EQ(outer_first.Find(0x200), nullptr);

  PerfSymbolTree inner_first;
  inner_first.Insert(Sym(0x150, 0x160, "inner"));
  inner_first.Insert(Sym(0x100, 0x200, "outer"));
  EXPECT_EQ(inner_first.Find(0x155)->name, "inner");
  EXPECT_EQ(inner_first.Find(0x120)->name, "outer");
  // outer holds 0x160, but the descent goes right of inner (at its end) and
  // meets nothing more: perf names no symbol there.
  EXPECT_EQ(inner_first.Find(0x160), nullptr);
}

TEST(PerfSymbolTree, FixupsAsPerf) {
  PerfSymbolTree t;
  t.Insert(Sym(0x1000, 0x1000, "zero"));  // size 0: ends where the next starts
  t.Insert(Sym(0x1010, 0x1020, "weak_alias", kStbWeak));
  t.Insert(Sym(0x1010, 0x1020, "global_one"));
  t.Insert(Sym(0x1010, 0x1010, "zero_alias"));
  t.Insert(Sym(0x3000, 0x3000, "last"));  // the last one: to the next page + 4096
  t.FixupEnd();
  t.FixupDuplicate();
  SymbolTable out;
  t.MoveInto(out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out.all()[0].name, "zero");
  EXPECT_EQ(out.all()[0].end, 0x1010u);
  EXPECT_EQ(out.all()[1].name, "global_one");  // not weak beats weak; a size beats none
  EXPECT_EQ(out.all()[2].end, 0x4000u);
  EXPECT_FALSE(out.has_tree());  // nothing overlaps: the sorted search answers alike
  EXPECT_EQ(out.Find(0x1015)->name, "global_one");
}

// A zero-size symbol stretched over later-inserted ones: the lookup follows
// the tree, including where perf's descent misses a symbol that holds the
// address (perf prints [unknown] there).
TEST(PerfSymbolTree, AdoptedShapeAnswersAsSymbolsFind) {
  PerfSymbolTree t;
  t.Insert(Sym(0x1000, 0x1000, "_init"));
  t.Insert(Sym(0x1020, 0x1040, "main"));
  t.FixupEnd();  // _init: [0x1000, 0x1020)
  t.FixupDuplicate();
  // _init(b) with main(r) on its right; a@plt goes left of main: Case 2 and
  // Case 3 make it the root over _init and main; b@plt goes left of main.
  t.Insert(Sym(0x1010, 0x1018, "a@plt"));
  t.Insert(Sym(0x1018, 0x1020, "b@plt"));
  SymbolTable out;
  std::vector<std::string> want;
  for (uint64_t a : {0x1000, 0x1010, 0x1017, 0x1018, 0x101f, 0x1020})
    want.push_back(t.Find(a) ? t.Find(a)->name : "-");
  t.MoveInto(out);
  ASSERT_TRUE(out.has_tree());
  std::vector<std::string> got;
  for (uint64_t a : {0x1000, 0x1010, 0x1017, 0x1018, 0x101f, 0x1020})
    got.push_back(out.Find(a) ? out.Find(a)->name : "-");
  EXPECT_EQ(got, want);
  EXPECT_EQ(out.Find(0x1000)->name, "_init");
  EXPECT_EQ(out.Find(0x100f)->name, "_init");
  EXPECT_EQ(out.Find(0x1010)->name, "a@plt");
  EXPECT_EQ(out.Find(0x1018)->name, "b@plt");  // under main, which _init's range does not reach
  EXPECT_EQ(out.Find(0x1020)->name, "main");
}

namespace {

struct Loaded {
  std::vector<uint8_t> bytes;
  elf::ElfFile elf;
  SymbolTable syms;
  uint64_t plt = 0, plt_entry = 0, slots = 0;
};

void Load(const std::filesystem::path& p, Loaded* l) {
  l->bytes = ReadAll(p);
  ASSERT_FALSE(l->bytes.empty()) << p;
  l->elf = elf::ReadElfBytes(l->bytes.data(), l->bytes.size());
  ASSERT_TRUE(l->elf.ok);
  ElfImage im{l->bytes.data(), l->bytes.size(), &l->elf};
  LoadElfSymbols(im, im, ElfRole::kUser, l->syms);
  const elf::Section* plt = l->elf.FindSection(".plt");
  const elf::Section* rel = l->elf.FindSection(".rela.plt");
  ASSERT_TRUE(plt && rel && rel->entsize);
  l->plt = plt->offset;
  l->plt_entry = plt->entsize;
  l->slots = rel->size / rel->entsize;
}

std::string NameAt(const SymbolTable& t, uint64_t a) {
  const Symbol* s = t.Find(a);
  return s ? s->name : "[unknown]";
}

}  // namespace

// The C program of dwarf_sig_plt_nofp: `_init` (size 0 in .symtab, stretched
// over .plt before the PLT entries were inserted) is an ancestor of every PLT
// entry in perf's tree: perf 6.1 names every slot `_init+0x..`
// (folded_sym.txt: plt_loop;_init).
TEST(PerfSymbolTree, SigPltEveryPltSlotIsInit) {
  Loaded l;
  Load(PerfData() / "dwarf_sig_plt_nofp/sig_plt", &l);
  ASSERT_EQ(l.slots, 5u);
  ASSERT_EQ(l.plt_entry, 16u);
  EXPECT_TRUE(l.syms.has_tree());
  for (uint64_t i = 0; i <= l.slots; ++i)
    for (uint64_t at : {0ull, 4ull, 15ull}) EXPECT_EQ(NameAt(l.syms, l.plt + i * l.plt_entry + at), "_init") << "slot " << i;
  // The PLT entries are there, under _init.
  size_t plts = 0;
  for (const auto& s : l.syms.all()) plts += s.name.size() > 4 && s.name.compare(s.name.size() - 4, 4, "@plt") == 0;
  EXPECT_EQ(plts, 5u);
}

// The C++ program of dwarf_cpp_nofp: there, perf's tree puts the PLT entries
// above `_init` for most slots. What perf 6.1 printed (perf script on a
// sample at each byte of .plt, as file offsets): `_init` up to the first
// slot's end (printf@plt's), then each slot's `name@plt`, memcpy@plt at
// 0x1090 (the recording's frame), [unknown] past .plt.
TEST(PerfSymbolTree, CppMemcpySlotIsMemcpyPlt) {
  Loaded l;
  Load(PerfData() / "dwarf_cpp_nofp/cpp_nofp", &l);
  EXPECT_TRUE(l.syms.has_tree());
  const Symbol* memcpy_plt = nullptr;
  for (const auto& s : l.syms.all())
    if (s.name == "memcpy@plt") memcpy_plt = &s;
  ASSERT_TRUE(memcpy_plt);
  for (uint64_t at = memcpy_plt->start; at < memcpy_plt->end; ++at) EXPECT_EQ(NameAt(l.syms, at), "memcpy@plt");
  EXPECT_EQ(memcpy_plt->start, 0x1090u);
  EXPECT_EQ(l.plt, 0x1020u);
  for (uint64_t at = 0x1020; at < 0x1040; ++at) EXPECT_EQ(NameAt(l.syms, at), "_init");  // header and printf@plt's slot
  EXPECT_EQ(NameAt(l.syms, 0x1040), "std::_Rb_tree_insert_and_rebalance@plt");
  EXPECT_EQ(NameAt(l.syms, 0x1050), "memcmp@plt");
  EXPECT_EQ(NameAt(l.syms, 0x110f), "_Unwind_Resume@plt");
  EXPECT_EQ(NameAt(l.syms, 0x1110), "[unknown]");  // past .plt: _init reaches no further, the descent meets no holder
}
