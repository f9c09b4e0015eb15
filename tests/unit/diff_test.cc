// DiffProfiles: golden tests in a small text form (after the Firefox Profiler's
// getProfileFromTextSamples): each profile is folded lines "frame;frame;.. count",
// root first; a frame is `name@module` (module = a mapping's file name, in a
// directory that differs between A and B, at a different load address), `#OFF@module`
// (a frame without a symbol: the decoders name it `path+0xOFF`) or a bare name
// (no mapping).
#include "core/analysis/diff.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>

namespace profscope {
namespace {

// `dir` and `base` vary the mapping paths and load addresses between sides.
Profile FromText(const std::string& text, const std::string& dir, uint64_t base) {
  Profile p;
  p.threads.tid = {1};
  p.threads.pid = {1};
  p.threads.name = {kNone};
  p.threads.start = {0};
  p.threads.end = {0};
  p.threads.samples = {0};
  p.events.name = {p.strings.Intern("cycles")};
  p.events.samples = {0};
  StackBuilder b(p);
  std::map<std::string, int32_t> maps;
  auto mapping = [&](const std::string& module) {
    auto it = maps.find(module);
    if (it != maps.end()) return it->second;
    int32_t m = static_cast<int32_t>(p.mappings.size());
    p.mappings.pid.push_back(1);
    p.mappings.start.push_back(base + 0x100000 * static_cast<uint64_t>(m));
    p.mappings.end.push_back(base + 0x100000 * static_cast<uint64_t>(m + 1));
    p.mappings.pgoff.push_back(0);
    p.mappings.path.push_back(p.strings.Intern(dir + "/" + module));
    p.mappings.build_id.push_back(kNone);
    p.mappings.time.push_back(0);
    p.mappings.record.push_back(kNone);
    maps.emplace(module, m);
    return m;
  };
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.find_last_of(' ');
    if (sp == std::string::npos) continue;
    uint64_t count = std::stoull(line.substr(sp + 1));
    std::string stack = line.substr(0, sp);
    int32_t s = kNone;
    size_t pos = 0;
    while (pos <= stack.size()) {
      size_t semi = stack.find(';', pos);
      std::string fr = stack.substr(pos, semi == std::string::npos ? std::string::npos : semi - pos);
      pos = semi == std::string::npos ? stack.size() + 1 : semi + 1;
      size_t at = fr.find('@');
      int32_t m = at == std::string::npos ? kNone : mapping(fr.substr(at + 1));
      std::string name = at == std::string::npos ? fr : fr.substr(0, at);
      uint64_t addr = 0x42;
      if (m != kNone) {
        const size_t mi = static_cast<size_t>(m);
        if (name[0] == '#') {
          uint64_t off = std::stoull(name.substr(1), nullptr, 16);
          addr = p.mappings.start[mi] + off;
          name = p.strings.Get(p.mappings.path[mi]) + "+0x" + name.substr(1);
        } else {
          addr = p.mappings.start[mi] + std::hash<std::string>()(name) % 0x1000;
        }
      }
      int32_t f = b.Func(p.strings.Intern(name), m);
      s = b.Stack(s, b.Frame(addr, f, m));
    }
    for (uint64_t k = 0; k < count; ++k) {
      p.samples.time.push_back(k + 1);
      p.samples.thread.push_back(0);
      p.samples.cpu.push_back(kNone);
      p.samples.event.push_back(0);
      p.samples.weight.push_back(1);
      p.samples.stack.push_back(s);
      p.samples.record.push_back(kNone);
    }
  }
  return p;
}

std::string TreeText(const ProfileDiff& d) {
  std::string out;
  // depth-first from the root, children in creation order
  std::vector<std::vector<int32_t>> kids(d.tree.size());
  for (size_t n = 1; n < d.tree.size(); ++n) kids[static_cast<size_t>(d.tree.parent[n])].push_back(static_cast<int32_t>(n));
  std::vector<int32_t> todo = {0};
  while (!todo.empty()) {
    int32_t n = todo.back();
    todo.pop_back();
    const size_t u = static_cast<size_t>(n);
    if (n > 0) {
      out += std::string(2 * static_cast<size_t>(d.tree.depth[u] - 1), ' ') + d.funcs.label[static_cast<size_t>(d.tree.func[u])];
      out += " A " + std::to_string(d.tree.self_a[u]) + "/" + std::to_string(d.tree.total_a[u]);
      out += " B " + std::to_string(d.tree.self_b[u]) + "/" + std::to_string(d.tree.total_b[u]) + "\n";
    }
    for (size_t k = kids[u].size(); k-- > 0;) todo.push_back(kids[u][k]);
  }
  return out;
}

std::string Pct(double v) {
  if (std::isinf(v)) return "new";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", v);
  return buf;
}

std::string FunctionsText(const ProfileDiff& d) {
  std::string out;
  for (const DiffFunction& f : d.functions) {
    out += d.funcs.label[static_cast<size_t>(f.func)] + " self " + std::to_string(f.self_a) + "->" + std::to_string(f.self_b) +
           " (" + std::to_string(f.delta_self) + ", " + Pct(f.delta_self_pct) + ") total " + std::to_string(f.total_a) + "->" +
           std::to_string(f.total_b) + " (" + std::to_string(f.delta_total) + ", " + Pct(f.delta_total_pct) + ")\n";
  }
  return out;
}

const char* kA =
    "main@app;run@app;parse@app 10\n"
    "main@app;run@app;malloc@libc.so.6 4\n"
    "main@app;run@app;#1a2b@libfoo.so 2\n"
    "main@app;run@app;run@app;parse@app 2\n"
    "main@app 2\n";
const char* kB =
    "main@app;run@app;parse@app 5\n"
    "main@app;run@app;malloc@libc.so.6 9\n"
    "main@app;run@app;#1a2b@libfoo.so 2\n"
    "main@app;run@app;compress@app 6\n"
    "main@app;malloc@libmalloc.so 1\n";

TEST(Diff, MatchesByModuleAndNameNotAddress) {
  // B is the same program from another directory, loaded at other addresses.
  Profile a = FromText(kA, "/opt/run1", 0x555500000000);
  Profile b = FromText(kB, "/home/x/run2", 0x7f0000000000);
  ProfileDiff d = DiffProfiles(a, b);
  EXPECT_EQ(d.FoldedText(),
            "main 2 0\n"
            "main;malloc [libmalloc.so] 0 1\n"
            "main;run;compress 0 6\n"
            "main;run;libfoo.so+0x1a2b 2 2\n"
            "main;run;malloc [libc.so.6] 4 9\n"
            "main;run;parse 10 5\n"
            "main;run;run;parse 2 0\n");
  EXPECT_EQ(d.total_a, 20u);
  EXPECT_EQ(d.total_b, 23u);
  EXPECT_EQ(TreeText(d),
            "main A 2/20 B 0/23\n"
            "  run A 0/18 B 0/22\n"
            "    parse A 10/10 B 5/5\n"
            "    malloc [libc.so.6] A 4/4 B 9/9\n"
            "    libfoo.so+0x1a2b A 2/2 B 2/2\n"
            "    run A 0/2 B 0/0\n"
            "      parse A 2/2 B 0/0\n"
            "    compress A 0/0 B 6/6\n"
            "  malloc [libmalloc.so] A 0/0 B 1/1\n");
  EXPECT_EQ(FunctionsText(d),
            "parse self 12->5 (-7, -58.3%) total 12->5 (-7, -58.3%)\n"
            "compress self 0->6 (6, new) total 0->6 (6, new)\n"
            "malloc [libc.so.6] self 4->9 (5, +125.0%) total 4->9 (5, +125.0%)\n"
            "main self 2->0 (-2, -100.0%) total 20->23 (3, +15.0%)\n"
            "malloc [libmalloc.so] self 0->1 (1, new) total 0->1 (1, new)\n"
            "run self 0->0 (0, +0.0%) total 18->22 (4, +22.2%)\n"
            "libfoo.so+0x1a2b self 2->2 (0, +0.0%) total 2->2 (0, +0.0%)\n");
}

TEST(Diff, SameProfileGivesEqualColumns) {
  Profile a = FromText(kA, "/opt/run1", 0x555500000000);
  Profile a2 = FromText(kA, "/srv/elsewhere", 0x600000000000);
  ProfileDiff d = DiffProfiles(a, a2);
  std::istringstream in(d.FoldedText());
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    std::istringstream f(line.substr(line.find(' ', line.find_last_of(';') == std::string::npos ? 0 : line.find_last_of(';'))));
    uint64_t x = 0, y = 0;
    f >> x >> y;
    EXPECT_EQ(x, y) << line;
    ++n;
  }
  EXPECT_EQ(n, 5u);
  for (const DiffFunction& f : d.functions) {
    EXPECT_EQ(f.delta_self, 0);
    EXPECT_EQ(f.delta_total, 0);
  }
}

TEST(Diff, NormalizeScalesAToBTotalByLargestRemainder) {
  // A: 3 lines of 1 (total 3), B: total 10. 10/3 each = 3.333: floors 3,3,3 and
  // one more unit to the first line in STACK order (equal remainders).
  Profile a = FromText("m;x 1\nm;y 1\nm;z 1\n", "/a", 0x1000);
  Profile b = FromText("m;x 5\nm;y 5\n", "/b", 0x2000);
  DiffOptions o;
  o.normalize = true;
  ProfileDiff d = DiffProfiles(a, b, o);
  EXPECT_EQ(d.FoldedText(), "m;x 4 5\nm;y 3 5\nm;z 3 0\n");
  EXPECT_EQ(d.total_a, 10u);
  EXPECT_EQ(d.raw_total_a, 3u);
  EXPECT_EQ(d.tree.total_a[0], 10u);
  // larger remainders win: 7 and 2 of 9 scaled to 4 -> 3.11, 0.89 -> 3, 1
  Profile a2 = FromText("m;x 7\nm;y 2\n", "/a", 0x1000);
  Profile b2 = FromText("m;x 4\n", "/b", 0x2000);
  EXPECT_EQ(DiffProfiles(a2, b2, o).FoldedText(), "m;x 3 4\nm;y 1 0\n");
}

TEST(Diff, EventFilterAndStacklessSamples) {
  Profile a = FromText("m;x 2\n", "/a", 0x1000);
  // a second event and a sample without a stack
  a.events.name.push_back(a.strings.Intern("instructions"));
  a.events.samples.push_back(0);
  PackedColumn<int32_t> events;  // sample 1 is of the second event
  for (size_t i = 0; i < a.samples.size(); ++i) events.push_back(i == 1 ? 1 : a.samples.event[i]);
  a.samples.event = events;
  a.samples.time.push_back(9);
  a.samples.thread.push_back(0);
  a.samples.cpu.push_back(kNone);
  a.samples.event.push_back(0);
  a.samples.weight.push_back(1);
  a.samples.stack.push_back(kNone);
  a.samples.record.push_back(kNone);
  Profile b = FromText("m;x 1\n", "/b", 0x2000);
  EXPECT_EQ(DiffProfiles(a, b).FoldedText(), "[no stack] 1 0\nm;x 2 1\n");
  DiffOptions o;
  o.event_a = 1;
  EXPECT_EQ(DiffProfiles(a, b, o).FoldedText(), "m;x 1 1\n");
}

TEST(Diff, XRayThreadRootsDropped) {
  // llvm-xray stack's per-thread roots carry the thread id, which differs between runs
  Profile a = FromText("thread_21495;main;work 2\nthread_21496;main;work 1\n", "/a", 0x1000);
  Profile b = FromText("thread_31007;main;work 5\nthread_31007;main 1\n", "/b", 0x2000);
  DiffOptions o;
  o.drop_thread_root_a = o.drop_thread_root_b = true;
  EXPECT_EQ(DiffProfiles(a, b, o).FoldedText(), "main 0 1\nmain;work 3 5\n");
  EXPECT_EQ(DiffProfiles(a, b).FoldedText(),
            "thread_21495;main;work 2 0\nthread_21496;main;work 1 0\nthread_31007;main 0 1\nthread_31007;main;work 0 5\n");
}

}  // namespace
}  // namespace profscope
