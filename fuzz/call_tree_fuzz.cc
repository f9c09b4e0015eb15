// libFuzzer target of the call trees the views are made of (core/analysis/call_tree.cc, trie.cc): the
// input describes stacks (deep recursion in a few bytes), samples on them, transforms, inversion and a
// sandwich half. Checks, besides the sanitizers: every tree is well formed (parents first, depth-first
// subtree ends, totals the sums of their subtrees), each sample's node is in range, and an inverted tree
// is the same whether walked or built over the suffix trie. Seeded from fuzz/seeds/call_tree_fuzz/;
// built and run by fuzz/run.sh (clang-14, ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/analysis/sample_nodes.h"

namespace {

using profscope::AnalysisOptions;
using profscope::AnalysisTransform;
using profscope::CallTree;
using profscope::CallTreeBuilder;
using profscope::kNone;
using profscope::Profile;
using profscope::SampleNodes;

struct Input {
  const uint8_t* p;
  size_t n, at = 0;
  int Next() { return at < n ? p[at++] : -1; }
  uint8_t Byte() {
    const int b = Next();
    return b < 0 ? 0 : static_cast<uint8_t>(b);
  }
};

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

// (and the tree's sample -> node kept as SampleNodes keeps it, a node a stack: every passing sample of a
// stack reaches the same node, whatever the view)
void CheckTree(const CallTree& t, const Profile& p) {
  const size_t samples = p.samples.size();
  Check(t.size() >= 1 && t.parent.size() == t.size() && t.func.size() == t.size() && t.depth.size() == t.size());
  Check(t.subtree_end.size() == t.size() && t.self.size() == t.size() && t.total.size() == t.size());
  Check(t.sample_node.size() == samples);
  Check(t.error.empty() || t.size() == 1);
  Check(t.parent[0] == kNone && t.depth[0] == 0 && t.subtree_end[0] == static_cast<int32_t>(t.size()));
  std::vector<double> sum = t.self;
  for (size_t n = t.size(); n-- > 1;) {
    const int32_t p = t.parent[n];
    Check(p >= 0 && static_cast<size_t>(p) < n && t.depth[n] == t.depth[static_cast<size_t>(p)] + 1);
    Check(t.subtree_end[n] > static_cast<int32_t>(n) && t.subtree_end[n] <= t.subtree_end[static_cast<size_t>(p)]);
    sum[static_cast<size_t>(p)] += sum[n];
  }
  for (size_t n = 0; n < t.size(); ++n) Check(sum[n] == t.total[n]);  // counts: exact in doubles
  for (int32_t s : t.sample_node) Check(s >= -1 && s < static_cast<int32_t>(t.size()));
  Check(SampleNodes(t, p.samples, p.stacks.frame.size()).All(p.samples) == t.sample_node);
}

// One tree, column by column (both ways of inverting keep the same nodes in the same order).
bool Same(const CallTree& a, const CallTree& b) {
  return a.parent == b.parent && a.func == b.func && a.self == b.self && a.subtree_end == b.subtree_end && a.sample_node == b.sample_node;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in{data, size};
  profscope::Profile p;
  p.threads.tid.push_back(1);
  p.threads.pid.push_back(1);
  p.threads.name.push_back(kNone);
  p.threads.start.push_back(0);
  p.threads.end.push_back(0);
  p.threads.samples.push_back(0);
  profscope::StackBuilder sb(p);
  const int nf = 1 + in.Byte() % 8;
  std::vector<int32_t> frames;
  for (int f = 0; f < nf; ++f)
    frames.push_back(sb.Frame(0x1000 + static_cast<uint64_t>(f), sb.Func(p.strings.Intern("f" + std::to_string(f % 6)), kNone), kNone));

  // the options
  AnalysisOptions o;
  const uint8_t flags = in.Byte();
  o.invert = flags & 1;
  o.sandwich = static_cast<AnalysisOptions::Sandwich>((flags >> 1) % 3);
  o.sandwich_func = in.Byte() % 8;
  for (int k = in.Byte() % 4; k > 0; --k) {
    AnalysisTransform t;
    t.type = static_cast<AnalysisTransform::Type>(in.Byte() % 5);  // collapse-library needs mappings: not here
    t.func = in.Byte() % 8;
    if (t.type == AnalysisTransform::Type::kFocusSubtree)
      for (int j = in.Byte() % 4; j > 0; --j) t.path.push_back(in.Byte() % 8);
    o.transforms.push_back(t);
  }
  if (flags & 8) {
    o.has_t0 = true;
    o.t0 = in.Byte();
  }

  // the stacks: push a frame, pop, sample, or push one frame up to 2 040 times (deep recursion)
  std::vector<int32_t> path;
  auto top = [&] { return path.empty() ? kNone : path.back(); };
  uint64_t time = 0;
  const size_t kMaxDepth = 3000;  // deep enough for quadratic work to show, small enough for many runs a second
  auto sample = [&](uint64_t weight) {
    p.samples.time.push_back(time++);
    p.samples.thread.push_back(0);
    p.samples.cpu.push_back(kNone);
    p.samples.event.push_back(0);
    p.samples.weight.push_back(weight);
    p.samples.stack.push_back(top());
    p.samples.record.push_back(kNone);
  };
  for (int b; (b = in.Next()) >= 0 && p.samples.size() < 4096;) {
    const int32_t fr = frames[static_cast<size_t>(b & 7) % frames.size()];
    switch (b >> 6) {
      case 0:
        if (path.size() < kMaxDepth) path.push_back(sb.Stack(top(), fr));
        break;
      case 1:
        if (!path.empty()) path.pop_back();
        break;
      case 2:
        sample(1 + (b & 7));
        break;
      default: {
        const int times = 8 * in.Byte();
        for (int k = 0; k < times && path.size() < kMaxDepth; ++k) {
          path.push_back(sb.Stack(top(), fr));
          if (b & 8) sample(1);  // every call a sample, as XRay's
        }
      }
    }
  }

  CallTreeBuilder builder(p);
  // limits small enough that a run stays fast under the sanitizers, and the refusal is reached too
  builder.set_invert_limits(1 << 16, 1 << 20);
  CheckTree(builder.Build({}), p);
  const CallTree t = builder.Build(o);
  CheckTree(t, p);
  if (o.invert || o.sandwich == AnalysisOptions::Sandwich::kCallers) {
    // the two ways of inverting give one tree (limits small enough to be refused sometimes)
    builder.set_invert_limits(1 << 16, 1 << 20, profscope::InvertHow::kWalk);
    const CallTree walked = builder.Build(o);
    builder.set_invert_limits(1 << 16, 1 << 20, profscope::InvertHow::kSuffixes);
    const CallTree suffixes = builder.Build(o);
    CheckTree(walked, p);
    CheckTree(suffixes, p);
    if (walked.error.empty() && suffixes.error.empty()) Check(Same(walked, suffixes));
    if (walked.error.empty() && t.error.empty()) Check(Same(walked, t));
    // best first (what the page gets over the limits): within them the same tree, over them its heaviest part
    builder.set_invert_limits(1 << 12, 1 << 14, profscope::InvertHow::kBestFirst);
    const CallTree best = builder.Build(o);
    CheckTree(best, p);
    Check(best.error.empty() && best.size() <= (1 << 12));
    builder.set_invert_limits(1 << 16, 1 << 20, profscope::InvertHow::kBestFirst);
    const CallTree whole = builder.Build(o);
    CheckTree(whole, p);
    Check(whole.error.empty() && best.total[0] == whole.total[0] && best.sample_node.size() == whole.sample_node.size());
    if (whole.notice.empty() && walked.error.empty()) Check(Same(walked, whole));
  }
  return 0;
}
