// The folded-stacks writer (core/api/export/folded_writer.h) streams its lines
// from a walk of the stack tree: the same bytes as rendering every stack and
// sorting the lines (the order `profscope stacks` always had), on names that
// sort around ';' and merge by name, on deep recursion, and through the
// fallback for names that hold ';'.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/api/export/folded_writer.h"

namespace profscope::exporter {
namespace {

struct Builder {
  DecodeResult r;
  StackBuilder b{r.profile};
  Builder() {
    r.profile.events.name = {r.profile.strings.Intern("calls")};
    r.profile.events.samples = {0};
    r.profile.threads.tid = {1};
    r.profile.threads.pid = {1};
    r.profile.threads.name = {kNone};
    r.profile.threads.start = {0};
    r.profile.threads.end = {0};
    r.profile.threads.samples = {0};
  }
  // A new frame (own address) named `name`: two frames may share a name.
  int32_t Frame(const std::string& name) {
    return b.Frame(0x1000 + r.profile.frames.address.size(), b.Func(r.profile.strings.Intern(name), kNone), kNone);
  }
  int32_t Stack(int32_t prefix, const std::string& name) { return b.Stack(prefix, Frame(name)); }
  void Sample(int32_t stack, uint64_t n = 1) {
    Profile& p = r.profile;
    for (uint64_t i = 0; i < n; ++i) {
      p.samples.time.push_back(1);
      p.samples.thread.push_back(0);
      p.samples.cpu.push_back(kNone);
      p.samples.event.push_back(0);
      p.samples.weight.push_back(10);
      p.samples.stack.push_back(stack);
      p.samples.record.push_back(kNone);
    }
  }
  // What the writer printed before it streamed: every sampled stack rendered, summed per line, sorted.
  std::string Rendered(bool addresses) const {
    const Profile& p = r.profile;
    std::map<std::string, uint64_t> lines;
    for (size_t i = 0; i < p.samples.size(); ++i) {
      std::vector<int32_t> chain;
      for (int32_t k = p.samples.stack[i]; k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) chain.push_back(k);
      std::string line;
      for (size_t j = chain.size(); j-- > 0;) {
        int32_t f = p.stacks.frame[static_cast<size_t>(chain[j])];
        if (!line.empty()) line += ';';
        line += addresses ? Hex(p.frames.address[static_cast<size_t>(f)])
                          : p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(f)])]);
      }
      lines[line] += 1;
    }
    std::string out;
    for (const auto& [l, n] : lines) out += l + " " + Dec(n) + "\n";
    return out;
  }
};

TEST(FoldedWriter, SiblingsSortAsWholeLines) {
  Builder t;
  // Under "main": "foo" (a line of its own and lines below), "foo!x" ('!' < ';'), "foobar", "fo",
  // and a second frame also named "foo" whose lines merge with the first's.
  int32_t main = t.Stack(kNone, "main");
  int32_t foo = t.Stack(main, "foo");
  t.Sample(foo, 2);
  t.Sample(t.Stack(foo, "a"));
  t.Sample(t.Stack(t.Stack(foo, "b"), "c"), 3);
  t.Sample(t.Stack(main, "foo!x"));
  t.Sample(t.Stack(t.Stack(main, "foobar"), "z"));
  t.Sample(t.Stack(main, "fo"));
  int32_t foo2 = t.Stack(main, "foo");
  t.Sample(foo2);
  t.Sample(t.Stack(foo2, "a"), 4);
  t.Sample(t.Stack(foo2, "A"));
  t.Sample(t.Stack(kNone, "Main"));
  t.Sample(main);
  std::string want =
      "Main 1\nmain 1\nmain;fo 1\nmain;foo 3\nmain;foo!x 1\nmain;foo;A 1\nmain;foo;a 5\nmain;foo;b;c 3\nmain;foobar;z 1\n";
  EXPECT_EQ(t.Rendered(false), want);
  EXPECT_EQ(FoldedStacks(t.r, false, ""), want);
  EXPECT_EQ(FoldedStacks(t.r, true, ""), t.Rendered(true));
}

TEST(FoldedWriter, DeepRecursionStreamsEveryLine) {
  // 1000 frames deep, a sample at every depth: 1000 lines, the longest 1000 names long.
  Builder t;
  int32_t s = t.Stack(kNone, "thread_1");
  for (int d = 0; d < 1000; ++d) {
    s = t.Stack(s, "recurse");
    t.Sample(s);
  }
  std::string got = FoldedStacks(t.r, false, "");
  EXPECT_EQ(got, t.Rendered(false));
  EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 1000);
  EXPECT_EQ(got.substr(0, 19), "thread_1;recurse 1\n");
}

TEST(FoldedWriter, NamesWithSemicolonsKeepTheRenderedOrder) {
  // "a;b" renders like the stack a -> b: the lines merge, as they always did.
  Builder t;
  int32_t a = t.Stack(kNone, "a");
  t.Sample(t.Stack(a, "b"));
  t.Sample(t.Stack(kNone, "a;b"), 2);
  t.Sample(t.Stack(a, "c"));
  EXPECT_EQ(FoldedStacks(t.r, false, ""), "a;b 3\na;c 1\n");
  EXPECT_EQ(FoldedStacks(t.r, false, ""), t.Rendered(false));
}

TEST(FoldedWriter, WeightedSumsAndEventFilter) {
  Builder t;
  int32_t m = t.Stack(kNone, "m");
  t.Sample(t.Stack(m, "x"), 2);
  t.Sample(m);
  EXPECT_EQ(FoldedStacks(t.r, false, "", true), "m 10\nm;x 20\n");
  EXPECT_EQ(FoldedStacks(t.r, false, "calls"), "m 1\nm;x 2\n");
  EXPECT_EQ(FoldedStacks(t.r, false, "cycles"), "");
}

}  // namespace
}  // namespace profscope::exporter
