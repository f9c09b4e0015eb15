// CallTreeBuilder: filters, transforms, inversion and sandwich halves on a
// small hand-made profile; folded output compared as text.
#include "core/analysis/call_tree.h"
#include "core/analysis/sample_nodes.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/unit/analysis_profile.h"

namespace profscope {
namespace {

// Samples (thread, cpu, time, root-first names):
//   0: t0 c0 t=10  main;a;b
//   1: t0 c1 t=20  main;a;b
//   2: t1 c0 t=30  main;a;a;a   (recursion)
//   3: t1 c1 t=40  main;libx;liby;c   (libx, liby in lib.so)
//   4: t0 c0 t=50  main           (in another mapping: same name merges)
//   5: t1 c0 t=60  (empty stack)
struct Fixture {
  Profile p;
  Fixture() {
    AddThreads(p, 2);
    auto map = [&](const char* path) { return AddMapping(p, path); };
    int32_t exe = map("/bin/app");
    int32_t exe2 = map("/bin/app2");
    int32_t lib = map("/lib/lib.so");
    StackBuilder b(p);
    auto fr = [&](const char* name, int32_t m) {
      int32_t f = b.Func(p.strings.Intern(name), m);
      return b.Frame(0x1000u + static_cast<uint64_t>(p.frames.address.size()), f, m);
    };
    auto stack = [&](std::initializer_list<int32_t> frames) {
      int32_t s = kNone;
      for (int32_t f : frames) s = b.Stack(s, f);
      return s;
    };
    int32_t main = fr("main", exe), a = fr("a", exe), bb = fr("b", exe), c = fr("c", exe);
    int32_t libx = fr("libx", lib), liby = fr("liby", lib), main2 = fr("main", exe2);
    add(0, 0, 10, stack({main, a, bb}));
    add(0, 1, 20, stack({main, a, bb}));
    add(1, 0, 30, stack({main, a, a, a}));
    add(1, 1, 40, stack({main, libx, liby, c}));
    add(0, 0, 50, stack({main2}));
    add(1, 0, 60, kNone);
  }
  void add(int32_t th, int32_t cpu, uint64_t t, int32_t st) { AddSample(p, th, cpu, 0, t, st); }
};

// "a;b 2" lines (root-first, self counts), sorted.
std::string Folded(const CallTreeBuilder& b, const CallTree& t) {
  std::map<std::string, double> m;
  for (size_t n = 1; n < t.size(); ++n) {
    if (t.self[n] == 0) continue;
    std::string path;
    for (int32_t x = static_cast<int32_t>(n); x > 0; x = t.parent[static_cast<size_t>(x)])
      path = b.names()[static_cast<size_t>(t.func[static_cast<size_t>(x)])] + (path.empty() ? "" : ";" + path);
    m[path] += t.self[n];
  }
  std::string out;
  for (auto& [k, v] : m) out += k + " " + std::to_string(static_cast<int>(v)) + "\n";
  if (t.self.size() && t.self[0] > 0) out += "<root> " + std::to_string(static_cast<int>(t.self[0])) + "\n";
  return out;
}

int32_t FuncNamed(const CallTreeBuilder& b, const std::string& name) {
  for (size_t i = 0; i < b.names().size(); ++i)
    if (b.names()[i] == name) return static_cast<int32_t>(i);
  return kNone;
}

TEST(CallTree, PlainMergesFunctionsByNameAndCountsEverySample) {
  Fixture f;
  CallTreeBuilder b(f.p);
  CallTree t = b.Build({});
  EXPECT_EQ(t.samples, 6u);
  EXPECT_EQ(Folded(b, t), "main 1\nmain;a;a;a 1\nmain;a;b 2\nmain;libx;liby;c 1\n<root> 1\n");
  EXPECT_EQ(t.total[0], 6);
  EXPECT_EQ(t.sample_node[5], 0);  // the empty stack is the root
  for (size_t n = 1; n < t.size(); ++n) EXPECT_LT(t.parent[n], static_cast<int32_t>(n));
}

// SampleNodes (core/analysis/sample_nodes.h) keeps a tree's sample -> node as a node a stack and a bit a
// sample: it answers as the tree's sample_node, for every tree the options make.
TEST(SampleNodes, AnswerAsTheTreesSampleNodeForEveryView) {
  Fixture f;
  CallTreeBuilder b(f.p);
  const SampleTable& s = f.p.samples;
  std::vector<AnalysisOptions> views(7);
  views[1].threads = {1};
  views[2].cpus = {1};
  views[3].has_t0 = views[3].has_t1 = true;
  views[3].t0 = 20;
  views[3].t1 = 40;
  views[4].invert = true;
  AnalysisTransform drop;
  drop.type = AnalysisTransform::Type::kDropFunction;
  drop.func = FuncNamed(b, "b");
  views[5].transforms = {drop};
  views[6].sandwich = AnalysisOptions::Sandwich::kCallees;
  views[6].sandwich_func = FuncNamed(b, "a");
  for (size_t v = 0; v < views.size(); ++v) {
    SCOPED_TRACE("view " + std::to_string(v));
    const CallTree t = b.Build(views[v]);
    const SampleNodes kept(t, s, f.p.stacks.frame.size());
    EXPECT_EQ(kept.All(s), t.sample_node);
    for (int64_t i = -1; i <= static_cast<int64_t>(s.size()); ++i)
      EXPECT_EQ(kept.Of(s, i), i >= 0 && static_cast<size_t>(i) < s.size() ? t.sample_node[static_cast<size_t>(i)] : -1) << i;
    for (int32_t n = -1; n <= static_cast<int32_t>(t.size()); ++n) {
      std::vector<int32_t> want;  // the subtree's samples, in order
      for (size_t i = 0; n >= 0 && static_cast<size_t>(n) < t.size() && i < s.size(); ++i)
        if (t.sample_node[i] >= n && t.sample_node[i] < t.subtree_end[static_cast<size_t>(n)]) want.push_back(static_cast<int32_t>(i));
      EXPECT_EQ(kept.Under(s, n), want) << "node " << n;
    }
  }
  // the plain tree: the root holds every sample (the empty stack's too), main all but that one
  const CallTree t = b.Build({});
  const SampleNodes kept(t, s, f.p.stacks.frame.size());
  EXPECT_EQ(kept.Under(s, 0), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(kept.Under(s, t.sample_node[4]), (std::vector<int32_t>{0, 1, 2, 3, 4}));  // (main of /bin/app2 merges with main)
  EXPECT_EQ(SampleNodes().Of(s, 0), -1);
  EXPECT_TRUE(SampleNodes().Under(s, 0).empty());
}

TEST(CallTree, FiltersByThreadCpuAndTimeRange) {
  Fixture f;
  CallTreeBuilder b(f.p);
  AnalysisOptions o;
  o.threads = {1};
  EXPECT_EQ(Folded(b, b.Build(o)), "main;a;a;a 1\nmain;libx;liby;c 1\n<root> 1\n");
  o = {};
  o.cpus = {1};
  EXPECT_EQ(Folded(b, b.Build(o)), "main;a;b 1\nmain;libx;liby;c 1\n");
  o = {};
  o.has_t0 = o.has_t1 = true;
  o.t0 = 20;
  o.t1 = 40;  // inclusive
  CallTree t = b.Build(o);
  EXPECT_EQ(t.samples, 3u);
  EXPECT_EQ(t.sample_node[0], -1);
  EXPECT_EQ(o.event, -1);
}

TEST(CallTree, TransformsApplyInOrder) {
  Fixture f;
  CallTreeBuilder b(f.p);
  int32_t a = FuncNamed(b, "a"), main = FuncNamed(b, "main");
  AnalysisOptions o;
  o.transforms.push_back({AnalysisTransform::Type::kMergeFunction, a, {}, ""});
  EXPECT_EQ(Folded(b, b.Build(o)), "main 2\nmain;b 2\nmain;libx;liby;c 1\n<root> 1\n");
  o.transforms = {{AnalysisTransform::Type::kDropFunction, a, {}, ""}};
  EXPECT_EQ(Folded(b, b.Build(o)), "main 1\nmain;libx;liby;c 1\n<root> 1\n");
  o.transforms = {{AnalysisTransform::Type::kCollapseRecursion, a, {}, ""}};
  EXPECT_EQ(Folded(b, b.Build(o)), "main 1\nmain;a 1\nmain;a;b 2\nmain;libx;liby;c 1\n<root> 1\n");
  o.transforms = {{AnalysisTransform::Type::kFocusFunction, a, {}, ""}};
  EXPECT_EQ(Folded(b, b.Build(o)), "a;a;a 1\na;b 2\n");
  o.transforms = {{AnalysisTransform::Type::kFocusSubtree, kNone, {main, a}, ""}};
  EXPECT_EQ(Folded(b, b.Build(o)), "a;a;a 1\na;b 2\n");
  o.transforms = {{AnalysisTransform::Type::kCollapseLibrary, kNone, {}, "/lib/lib.so"}};
  EXPECT_EQ(Folded(b, b.Build(o)), "main 1\nmain;[lib] /lib/lib.so;c 1\nmain;a;a;a 1\nmain;a;b 2\n<root> 1\n");
}

TEST(CallTree, InvertAndSandwichHalves) {
  Fixture f;
  CallTreeBuilder b(f.p);
  AnalysisOptions o;
  o.invert = true;
  EXPECT_EQ(Folded(b, b.Build(o)), "a;a;a;main 1\nb;a;main 2\nc;liby;libx;main 1\nmain 1\n<root> 1\n");
  o = {};
  o.sandwich = AnalysisOptions::Sandwich::kCallees;
  o.sandwich_func = FuncNamed(b, "a");
  EXPECT_EQ(Folded(b, b.Build(o)), "a 1\na;b 2\n");  // main;a;a;a: recursion merged into the root
  o.sandwich = AnalysisOptions::Sandwich::kCallers;
  o.invert = false;  // callers are always inverted
  EXPECT_EQ(Folded(b, b.Build(o)), "a;main 3\n");
}

TEST(CallTree, WeightedCountsEachSamplesWeight) {
  Fixture f;
  // weights 5, 7, 0, 2, 3, 1: sample 2 (main;a;a;a) weighs nothing but keeps its node
  f.p.samples.weight = {5, 7, 0, 2, 3, 1};
  CallTreeBuilder b(f.p);
  AnalysisOptions o;
  o.weighted = true;
  CallTree t = b.Build(o);
  EXPECT_EQ(Folded(b, t), "main 3\nmain;a;b 12\nmain;libx;liby;c 2\n<root> 1\n");
  EXPECT_EQ(t.samples, 6u);  // still the number of samples
  EXPECT_EQ(t.total[0], 18.0);
  EXPECT_GE(t.sample_node[2], 0);
  // the same through the transform path (invert)
  o.invert = true;
  CallTree inv = b.Build(o);
  EXPECT_EQ(inv.total[0], 18.0);
  EXPECT_EQ(Folded(b, inv), "b;a;main 12\nc;liby;libx;main 2\nmain 3\n<root> 1\n");
  o.weighted = false;
  o.invert = false;
  EXPECT_EQ(b.Build(o).total[0], 6.0);
}

TEST(CallTree, InclusiveWeightsBecomeSelfWeights) {
  // XRay-like: one sample per call, weighted by the call's whole duration
  Profile p;
  AddThreads(p, 1);
  StackBuilder b(p);
  auto fr = [&](const char* name) { return b.Frame(0, b.Func(p.strings.Intern(name), kNone), kNone); };
  int32_t run = b.Stack(kNone, fr("run")), a = b.Stack(run, fr("a")), ab = b.Stack(a, fr("b"));
  auto add = [&](int32_t st, uint64_t w, uint64_t t) {
    AddSample(p, 0, 0, 0, t, st);
    p.samples.weight.truncate(p.samples.weight.size() - 1);
    p.samples.weight.push_back(w);
  };
  add(ab, 3, 1);   // b: 3 ticks
  add(ab, 2, 2);   // b again: 2
  add(a, 9, 3);    // a: 9, of which b 5
  add(run, 20, 4); // run: 20, of which a 9
  CallTreeBuilder tb(p);
  tb.set_weights_inclusive(true);
  AnalysisOptions o;
  o.weighted = true;
  EXPECT_EQ(Folded(tb, tb.Build(o)), "run 11\nrun;a 4\nrun;a;b 5\n");
  EXPECT_EQ(tb.Build(o).total[0], 20.0);  // run's whole time, counted once
  o.invert = true;
  EXPECT_EQ(Folded(tb, tb.Build(o)), "a;run 4\nb;a;run 5\nrun 11\n");
  // a time range keeping only the b calls: they are all there is
  o.invert = false;
  o.has_t1 = true;
  o.t1 = 2;
  EXPECT_EQ(Folded(tb, tb.Build(o)), "run;a;b 5\n");
}

TEST(CallTree, AnEventFilterEverySamplePassesIsNoFilter) {
  Fixture f;  // every sample of event 0
  CallTreeBuilder b(f.p);
  AnalysisOptions o;
  const std::string all = Folded(b, b.Build(o));
  o.event = 0;
  EXPECT_EQ(Folded(b, b.Build(o)), all);
  EXPECT_EQ(b.Build(o).samples, 6u);
  o.event = 1;  // no sample of event 1
  EXPECT_EQ(b.Build(o).samples, 0u);
  // samples 1 and 3 of event 1: the filter keeps each event's own
  Fixture g;
  g.p.samples.event = {0, 1, 0, 1, 0, 0};
  CallTreeBuilder gb(g.p);
  o.event = 1;
  EXPECT_EQ(Folded(gb, gb.Build(o)), "main;a;b 1\nmain;libx;liby;c 1\n");
  o.event = 0;
  EXPECT_EQ(Folded(gb, gb.Build(o)), "main 1\nmain;a;a;a 1\nmain;a;b 1\n<root> 1\n");
  o.weighted = true;  // (weights 1 each)
  o.invert = true;
  EXPECT_EQ(gb.Build(o).total[0], 4.0);
}

TEST(CallTree, InclusiveWeightsOfASampleWithoutAStackStayItsOwn) {
  Profile p;
  AddThreads(p, 1);
  StackBuilder b(p);
  const int32_t run = b.Stack(kNone, b.Frame(0, b.Func(p.strings.Intern("run"), kNone), kNone));
  AddSample(p, 0, 0, 0, 1, run);
  AddSample(p, 0, 0, 0, 2, kNone);
  AddSample(p, 0, 0, 0, 3, run);
  p.samples.weight = {4, 6, 5};
  CallTreeBuilder tb(p);
  tb.set_weights_inclusive(true);
  AnalysisOptions o;
  o.weighted = true;
  const CallTree t = tb.Build(o);
  EXPECT_EQ(Folded(tb, t), "run 9\n<root> 6\n");
  EXPECT_EQ(t.total[0], 15.0);
  o.invert = true;  // the transform path reads the same values
  EXPECT_EQ(tb.Build(o).total[0], 15.0);
}

TEST(CallTree, EmptyProfile) {
  Profile p;
  CallTreeBuilder b(p);
  CallTree t = b.Build({});
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.samples, 0u);
  EXPECT_EQ(b.names().back(), "[unknown]");
}

}  // namespace
}  // namespace profscope
