// CallTreeBuilder on deep and random stacks: every view (transforms, inversion, sandwich halves)
// against a reference that builds each sample's path whole, as the views are defined; deep
// recursion in time linear in the stacks; inverted trees too large to build say so.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "tests/unit/analysis_profile.h"

namespace profscope {
namespace {

using Type = AnalysisTransform::Type;

// The reference: each passing sample's root-first path of canonical functions, transformed one
// transform after another, then cut and turned for the sandwich halves or inverted.
bool RefPath(const CallTreeBuilder& b, const Profile& p, int32_t stack, const AnalysisOptions& o, std::vector<int32_t>& path) {
  path.clear();
  for (int32_t s = stack; s >= 0; s = p.stacks.prefix[static_cast<size_t>(s)])
    path.push_back(b.Canon(p.frames.func[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(s)])]));
  std::reverse(path.begin(), path.end());
  for (const AnalysisTransform& t : o.transforms) {
    switch (t.type) {
      case Type::kFocusSubtree:
        if (path.size() < t.path.size() || !std::equal(t.path.begin(), t.path.end(), path.begin())) return false;
        if (!t.path.empty()) path.erase(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(t.path.size() - 1));
        break;
      case Type::kFocusFunction: {
        auto it = std::find(path.begin(), path.end(), t.func);
        if (it == path.end()) return false;
        path.erase(path.begin(), it);
        break;
      }
      case Type::kMergeFunction:
        path.erase(std::remove(path.begin(), path.end(), t.func), path.end());
        break;
      case Type::kDropFunction:
        if (std::find(path.begin(), path.end(), t.func) != path.end()) return false;
        break;
      case Type::kCollapseRecursion: {
        auto first = std::find(path.begin(), path.end(), t.func);
        if (first == path.end()) break;
        auto last = std::find(path.rbegin(), path.rend(), t.func).base() - 1;
        path.erase(first + 1, last + 1);
        break;
      }
      case Type::kCollapseLibrary: {  // a run of the library's functions becomes its "[lib] PATH" function
        const auto& names = b.names();
        const int32_t pseudo = static_cast<int32_t>(std::find(names.begin(), names.end(), "[lib] " + t.lib) - names.begin());
        std::vector<int32_t> out;
        for (int32_t f : path) {
          const bool in_lib = b.Library(f) == t.lib;
          if (in_lib && !out.empty() && out.back() == pseudo) continue;
          out.push_back(in_lib ? pseudo : f);
        }
        path = out;
        break;
      }
    }
  }
  if (o.sandwich == AnalysisOptions::Sandwich::kCallees) {
    auto it = std::find(path.rbegin(), path.rend(), o.sandwich_func);
    if (it == path.rend()) return false;
    path.erase(path.begin(), it.base() - 1);
  } else if (o.sandwich == AnalysisOptions::Sandwich::kCallers) {
    auto it = std::find(path.begin(), path.end(), o.sandwich_func);
    if (it == path.end()) return false;
    path.erase(it + 1, path.end());
    std::reverse(path.begin(), path.end());
  } else if (o.invert) {
    std::reverse(path.begin(), path.end());
  }
  return true;
}

// A tree as text, depth-first, children in the order samples first reached them: "depth name self
// total" lines, then each sample's node path.
struct RefNode {
  int32_t func;
  double self = 0, total = 0;
  std::vector<size_t> kids;
};

std::string RefTree(const CallTreeBuilder& b, const Profile& p, const AnalysisOptions& o) {
  std::vector<RefNode> nodes{{kNone}};
  std::string samples;
  std::vector<int32_t> path;
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (o.has_t0 && p.samples.time[i] < o.t0) continue;
    if (o.has_t1 && p.samples.time[i] > o.t1) continue;
    if (!RefPath(b, p, p.samples.stack[i], o, path)) {
      samples += "-\n";
      continue;
    }
    size_t n = 0;
    std::string text;
    nodes[0].total += 1;
    for (int32_t f : path) {
      size_t next = 0;
      for (size_t k : nodes[n].kids)
        if (nodes[k].func == f) next = k;
      if (!next) {
        next = nodes.size();
        nodes[n].kids.push_back(next);
        nodes.push_back({f});
      }
      n = next;
      nodes[n].total += 1;
      text += b.names()[static_cast<size_t>(f)] + ";";
    }
    nodes[n].self += 1;
    samples += text + "\n";
  }
  std::string out;
  auto walk = [&](auto& self, size_t n, int d) -> void {
    const RefNode& x = nodes[n];
    out += std::to_string(d) + " " + (n ? b.names()[static_cast<size_t>(x.func)] : "<root>") + " " + std::to_string(x.self) + " " +
           std::to_string(x.total) + "\n";
    for (size_t k : x.kids) self(self, k, d + 1);
  };
  walk(walk, 0, 0);
  return out + samples;
}

std::string Tree(const CallTreeBuilder& b, const Profile& p, const CallTree& t, const AnalysisOptions& o) {
  std::string out;
  for (size_t n = 0; n < t.size(); ++n)
    out += std::to_string(t.depth[n]) + " " + (n ? b.names()[static_cast<size_t>(t.func[n])] : "<root>") + " " + std::to_string(t.self[n]) + " " +
           std::to_string(t.total[n]) + "\n";
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if ((o.has_t0 && p.samples.time[i] < o.t0) || (o.has_t1 && p.samples.time[i] > o.t1)) continue;
    const int32_t n = t.sample_node[i];
    if (n < 0) {
      out += "-\n";
      continue;
    }
    std::string text;
    for (int32_t x = n; x > 0; x = t.parent[static_cast<size_t>(x)]) text = b.names()[static_cast<size_t>(t.func[static_cast<size_t>(x)])] + ";" + text;
    out += text + "\n";
  }
  return out;
}

// A profile of random stacks over a few functions (recursion likely; two funcs share a name; c, d and
// the second a in a library), every prefix of some stacks sampled too, as XRay's calls are.
Profile RandomProfile(std::mt19937& rng) {
  Profile p;
  AddThreads(p, 1);
  const int32_t app = AddMapping(p, "/bin/app"), lib = AddMapping(p, "/lib/x.so");
  StackBuilder sb(p);
  const char* names[] = {"main", "a", "b", "c", "d", "a"};
  const int32_t maps[] = {app, app, app, lib, lib, lib};
  std::vector<int32_t> frames;
  for (size_t i = 0; i < 6; ++i)
    frames.push_back(sb.Frame(0x1000 + i, sb.Func(p.strings.Intern(names[i]), maps[i]), maps[i]));
  std::uniform_int_distribution<int> pick(0, static_cast<int>(frames.size()) - 1), depth(0, 9), coin(0, 3);
  const int nsamples = 1 + static_cast<int>(rng() % 40);
  for (int i = 0; i < nsamples; ++i) {
    int32_t s = kNone;
    const int d = depth(rng);
    for (int k = 0; k < d; ++k) {
      s = sb.Stack(s, frames[static_cast<size_t>(pick(rng))]);
      if (coin(rng) == 0) AddSample(p, 0, 0, 0, static_cast<uint64_t>(p.samples.size()), s);
    }
    AddSample(p, 0, 0, 0, static_cast<uint64_t>(p.samples.size()), s);
  }
  return p;
}

TEST(CallTreeDeep, EveryViewMatchesTheReferenceOnRandomStacks) {
  std::mt19937 rng(20261127);
  const Type types[] = {Type::kFocusSubtree, Type::kFocusFunction, Type::kMergeFunction, Type::kDropFunction, Type::kCollapseRecursion,
                        Type::kCollapseLibrary};
  for (int round = 0; round < 3000; ++round) {
    Profile p = RandomProfile(rng);
    CallTreeBuilder b(p);
    const int32_t nf = static_cast<int32_t>(b.names().size());
    AnalysisOptions o;
    const int ntr = static_cast<int>(rng() % 4);
    for (int k = 0; k < ntr; ++k) {
      AnalysisTransform t;
      t.type = types[rng() % 6];
      t.func = static_cast<int32_t>(rng() % static_cast<uint32_t>(nf));
      if (t.type == Type::kCollapseLibrary) t.lib = rng() % 3 ? "/lib/x.so" : "/bin/app";
      if (t.type == Type::kFocusSubtree)
        for (int j = static_cast<int>(rng() % 3); j > 0; --j) t.path.push_back(static_cast<int32_t>(rng() % static_cast<uint32_t>(nf)));
      o.transforms.push_back(t);
    }
    switch (rng() % 4) {
      case 0: o.invert = true; break;
      case 1: o.sandwich = AnalysisOptions::Sandwich::kCallees; break;
      case 2: o.sandwich = AnalysisOptions::Sandwich::kCallers; break;
      default: break;
    }
    o.sandwich_func = static_cast<int32_t>(rng() % static_cast<uint32_t>(nf));
    // (a plain tree keeps the stacks' order, not the first passing samples': no filter for it)
    const bool plain = o.transforms.empty() && !o.invert && o.sandwich == AnalysisOptions::Sandwich::kNone;
    if (!plain && rng() % 4 == 0) {
      o.has_t0 = true;
      o.t0 = rng() % 10;
    }
    // the inverted tree both ways: through the suffix trie (few frames to walk) and walked
    // (best first, within the limits: the whole tree too)
    const InvertHow ways[] = {InvertHow::kWalk, InvertHow::kSuffixes, InvertHow::kCheaper, InvertHow::kBestFirst};
    b.set_invert_limits(CallTreeBuilder::kMaxInvertedNodes, CallTreeBuilder::kMaxInvertSteps, ways[round % 4]);
    const CallTree t = b.Build(o);
    ASSERT_EQ(t.error, "");
    ASSERT_EQ(t.notice, "");
    ASSERT_EQ(Tree(b, p, t, o), RefTree(b, p, o)) << "round " << round;
    for (size_t n = 0; n < t.size(); ++n) ASSERT_EQ(t.subtree_end[n] > static_cast<int32_t>(n), true);
  }
}

// The functions root -> n of a tree's node.
std::vector<int32_t> PathOf(const CallTree& t, int32_t n) {
  std::vector<int32_t> path;
  for (; n > 0; n = t.parent[static_cast<size_t>(n)]) path.push_back(t.func[static_cast<size_t>(n)]);
  std::reverse(path.begin(), path.end());
  return path;
}

TEST(CallTreeDeep, AnInvertedTreeOverTheLimitsHoldsItsHeaviestNodes) {
  std::mt19937 rng(271127);
  int cut_rounds = 0;
  for (int round = 0; round < 2000; ++round) {
    Profile p = RandomProfile(rng);
    p.samples.weight = {};
    for (size_t i = 0; i < p.samples.size(); ++i) p.samples.weight.push_back(1 + rng() % 5);
    CallTreeBuilder b(p);
    AnalysisOptions o;
    o.weighted = rng() % 2 == 0;
    if (rng() % 3 == 0) {
      o.sandwich = AnalysisOptions::Sandwich::kCallers;
      o.sandwich_func = static_cast<int32_t>(rng() % b.names().size());
    } else {
      o.invert = true;
    }
    b.set_invert_limits(CallTreeBuilder::kMaxInvertedNodes, CallTreeBuilder::kMaxInvertSteps, InvertHow::kWalk);
    const CallTree full = b.Build(o);
    ASSERT_EQ(full.error, "");
    std::map<std::vector<int32_t>, double> full_total;
    for (size_t n = 0; n < full.size(); ++n) full_total[PathOf(full, static_cast<int32_t>(n))] = full.total[n];
    const size_t max_nodes = 1 + rng() % (full.size() + 2);
    const uint64_t max_steps = rng() % 200;
    b.set_invert_limits(max_nodes, max_steps, InvertHow::kBestFirst);
    const CallTree t = b.Build(o);
    ASSERT_EQ(t.error, "");
    ASSERT_LE(t.size(), std::max<size_t>(max_nodes, 1)) << "round " << round;
    if (t.size() < full.size()) {
      ++cut_rounds;
      ASSERT_NE(t.notice.find("too large to show whole"), std::string::npos) << t.notice;
    }
    // well formed, depth first; totals are their subtrees' sums, and the whole tree's for the same path
    ASSERT_DOUBLE_EQ(t.total[0], full.total[0]);
    std::vector<double> sum(t.self);
    for (size_t n = t.size(); n-- > 1;) {
      ASSERT_LT(t.parent[n], static_cast<int32_t>(n));
      ASSERT_LE(t.subtree_end[n], t.subtree_end[static_cast<size_t>(t.parent[n])]);
      sum[static_cast<size_t>(t.parent[n])] += sum[n];
    }
    for (size_t n = 0; n < t.size(); ++n) {
      ASSERT_NEAR(sum[n], t.total[n], 1e-9);
      const auto it = full_total.find(PathOf(t, static_cast<int32_t>(n)));
      ASSERT_TRUE(it != full_total.end()) << "round " << round;
      ASSERT_NEAR(it->second, t.total[n], 1e-9) << "round " << round;
    }
    // a sample's node is the start of its whole path
    for (size_t i = 0; i < p.samples.size(); ++i) {
      ASSERT_EQ(t.sample_node[i] < 0, full.sample_node[i] < 0);
      if (t.sample_node[i] < 0) continue;
      const std::vector<int32_t> a = PathOf(t, t.sample_node[i]), whole = PathOf(full, full.sample_node[i]);
      ASSERT_LE(a.size(), whole.size());
      ASSERT_TRUE(std::equal(a.begin(), a.end(), whole.begin())) << "round " << round;
    }
  }
  EXPECT_GT(cut_rounds, 500);
}

TEST(CallTreeDeep, ANodeLeftWithoutCallersCountsOnlyThePathsThatGoOn) {
  // 1000 samples in L alone, 1 in main -> L: inverted, L (1001) has one caller, main, over 1 sample
  Profile p;
  AddThreads(p, 1);
  StackBuilder sb(p);
  const int32_t l = sb.Stack(kNone, sb.Frame(1, sb.Func(p.strings.Intern("L"), kNone), kNone));
  const int32_t ml = sb.Stack(sb.Stack(kNone, sb.Frame(2, sb.Func(p.strings.Intern("main"), kNone), kNone)), sb.Frame(1, 0, kNone));
  for (int i = 0; i < 1000; ++i) AddSample(p, 0, 0, 0, static_cast<uint64_t>(i), l);
  AddSample(p, 0, 0, 0, 1000, ml);
  CallTreeBuilder b(p);
  b.set_invert_limits(100, 2, InvertHow::kBestFirst);  // the root's two paths walked, then no more
  AnalysisOptions o;
  o.invert = true;
  const CallTree t = b.Build(o);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.total[1], 1001.0);
  EXPECT_EQ(t.self[1], 1001.0);
  EXPECT_NE(t.notice.find("1 of them without all their callers (each hiding at most 1 sample)"), std::string::npos) << t.notice;
}

// One thread recursing N deep in f below main, every call a sample (an XRay log).
struct Recursion {
  Profile p;
  explicit Recursion(int n, bool distinct = false) {
    AddThreads(p, 1);
    StackBuilder sb(p);
    int32_t s = sb.Stack(kNone, sb.Frame(1, sb.Func(p.strings.Intern("main"), kNone), kNone));
    const int32_t f = sb.Frame(2, sb.Func(p.strings.Intern("f"), kNone), kNone);
    AddSample(p, 0, 0, 0, 0, s);
    for (int i = 0; i < n; ++i) {
      const int32_t fr = distinct ? sb.Frame(3 + static_cast<uint64_t>(i), sb.Func(p.strings.Intern("f" + std::to_string(i)), kNone), kNone) : f;
      s = sb.Stack(s, fr);
      AddSample(p, 0, 0, 0, static_cast<uint64_t>(i + 1), s);
    }
  }
};

TEST(CallTreeDeep, A100000DeepRecursionInEveryViewInLinearTime) {
  constexpr int kN = 100000;
  Recursion r(kN);
  CallTreeBuilder b(r.p);
  const int32_t f = b.names()[0] == "f" ? 0 : 1;
  ASSERT_EQ(b.names()[static_cast<size_t>(f)], "f");
  const auto start = std::chrono::steady_clock::now();
  AnalysisOptions o;
  o.invert = true;
  CallTree t = b.Build(o);
  ASSERT_EQ(t.error, "");
  // the root, main alone, f's chain and main below each of its N calls
  EXPECT_EQ(t.size(), 2u * kN + 2);
  EXPECT_EQ(t.total[0], kN + 1.0);
  EXPECT_EQ(t.depth[t.size() - 1], kN + 1);

  o = {};
  o.sandwich = AnalysisOptions::Sandwich::kCallers;
  o.sandwich_func = f;
  t = b.Build(o);
  EXPECT_EQ(t.size(), 3u);  // f;main
  EXPECT_EQ(t.self[2], static_cast<double>(kN));
  o.sandwich = AnalysisOptions::Sandwich::kCallees;
  t = b.Build(o);
  EXPECT_EQ(t.size(), 2u);  // f, its recursion merged
  EXPECT_EQ(t.self[1], static_cast<double>(kN));

  o = {};
  o.transforms = {{Type::kCollapseRecursion, f, {}, ""}};
  t = b.Build(o);
  EXPECT_EQ(t.size(), 3u);
  o.transforms = {{Type::kMergeFunction, f, {}, ""}};
  EXPECT_EQ(b.Build(o).size(), 2u);
  o.transforms = {{Type::kFocusFunction, f, {}, ""}};
  t = b.Build(o);
  EXPECT_EQ(t.size(), kN + 1u);
  EXPECT_EQ(t.samples, static_cast<uint64_t>(kN));
  o.transforms.push_back({Type::kCollapseRecursion, f, {}, ""});
  o.invert = true;
  EXPECT_EQ(b.Build(o).size(), 2u);
  // walking each of the N stacks would be N²/2 = 5e9 steps; seconds, not the hours that is
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60.0);
}

TEST(CallTreeDeep, AnInvertedTreeTooLargeToBuildSaysSo) {
  // a chain of 3000 distinct functions, every call a sample: the inverted tree has 4.5 M nodes
  Recursion r(3000, /*distinct=*/true);
  CallTreeBuilder b(r.p);
  AnalysisOptions o;
  o.invert = true;
  // its heaviest part, as the page shows it
  b.set_invert_limits(1000000, 1000000);
  CallTree t = b.Build(o);
  EXPECT_EQ(t.error, "");
  // (a quarter of the nodes, the root included: the 3001 leaf functions first, each of one sample)
  EXPECT_EQ(t.size(), 249999u);
  EXPECT_EQ(t.notice,
            "the inverted tree of these stacks is too large to show whole: it shows 249998 nodes, the heaviest first; 2916 of them without all "
            "their callers (each hiding at most 1 sample), whose weight stays in their self; collapse recursion, focus on a function or narrow "
            "the selection to see those");
  EXPECT_EQ(t.total[0], 3001.0);
  // walked, it gives up
  b.set_invert_limits(1000000, 1000000, InvertHow::kWalk);
  t = b.Build(o);
  EXPECT_NE(t.error.find("the inverted tree of these stacks is too large to build"), std::string::npos) << t.error;
  EXPECT_NE(t.error.find("3001 deep"), std::string::npos) << t.error;
  // 3000 x 3001 / 2 + 3001 frames to walk, to the nearest tenth of a million
  EXPECT_NE(t.error.find("its paths hold 4.5 M frames, more than the 1.0 M this view walks"), std::string::npos) << t.error;
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.subtree_end.size(), 1u);
  EXPECT_EQ(t.sample_node.size(), r.p.samples.size());
  // only the deepest call: one path, walked
  b.set_invert_limits(1000000, 1000000);
  o.has_t0 = true;
  o.t0 = 3000;
  t = b.Build(o);
  EXPECT_EQ(t.error, "");
  EXPECT_EQ(t.size(), 3002u);
  // the callers of the deepest function: one path too
  o = {};
  o.sandwich = AnalysisOptions::Sandwich::kCallers;
  o.sandwich_func = b.Canon(r.p.frames.func.back());
  t = b.Build(o);
  EXPECT_EQ(t.error, "");
  EXPECT_EQ(t.size(), 3002u);
  // a plain tree of it is linear, whatever the limits
  EXPECT_EQ(b.Build({}).size(), 3002u);
}

}  // namespace
}  // namespace profscope
