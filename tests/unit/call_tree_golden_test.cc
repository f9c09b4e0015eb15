// Golden tests of the call tree (core/analysis/call_tree.h): each case in
// tests/unit/call_tree_cases/*.txt gives samples as columns of stacks, the
// analysis options, and the expected tree as indented text (the form of
// Firefox Profiler's getProfileFromTextSamples tests, our own reading of it).
//
//   == name of the case
//   samples:
//     thread: 0 0 1          optional rows first: thread, cpu, time, event, count
//     A      A      B        then one row per depth, root first: a column is one
//     B      C@libc .        sample's stack, "." where it has ended (a column of
//     C      .      .        only "." is an empty stack); name@lib puts the
//   options:                 function in library lib
//     merge-function B       one per line: event N, threads N.., cpus N.., t0 N,
//   tree:                    t1 N, focus-subtree A B.., focus-function A,
//     A 2 0                  merge-function A, drop-function A, collapse-recursion
//       C 1 1                A, collapse-library LIB, invert, sandwich callers|callees A
//   sample nodes: A>C A -    optional: each sample's node as a path, "-" when dropped
//
// The expected tree lists every node but the root in node order (depth-first:
// a node's children follow it in the order samples first reached them), indented
// two spaces per depth, with total and self; the first line is "samples N" (the
// samples counted). Every tree is also checked to be depth-first with exact
// subtree ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "tests/unit/analysis_profile.h"

namespace profscope {
namespace {

namespace fs = std::filesystem;

const fs::path kCases = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "unit" / "call_tree_cases";

struct Case {
  std::string file, name;
  std::vector<std::string> sample_lines, option_lines, tree_lines;
  std::string sample_nodes;  // empty when the case has none
};

std::vector<std::string> Words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string Trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<Case> LoadCases() {
  std::vector<Case> out;
  if (!fs::exists(kCases)) return out;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kCases))
    if (e.path().extension() == ".txt") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::vector<std::string>* block = nullptr;
    for (std::string line; std::getline(in, line);) {
      const std::string t = Trim(line);
      if (t.empty() || t[0] == '#') continue;
      if (t.rfind("== ", 0) == 0) {
        out.push_back({f.filename().string(), t.substr(3), {}, {}, {}, {}});
        block = nullptr;
      } else if (out.empty()) {
        continue;
      } else if (t == "samples:") {
        block = &out.back().sample_lines;
      } else if (t == "options:") {
        block = &out.back().option_lines;
      } else if (t == "tree:") {
        block = &out.back().tree_lines;
      } else if (t.rfind("sample nodes:", 0) == 0) {
        out.back().sample_nodes = Trim(t.substr(13));
        block = nullptr;
      } else if (block == &out.back().tree_lines) {
        block->push_back(line.substr(0, line.find_last_not_of(" \t\r") + 1));
      } else if (block) {
        block->push_back(t);
      }
    }
  }
  return out;
}

// The profile of a case's samples.
struct Built {
  Profile p;
  std::string error;
};

void Build(const Case& c, Built& b) {
  Profile& p = b.p;
  std::map<std::string, std::vector<std::string>> attrs;
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : c.sample_lines) {
    auto colon = line.find(':');
    if (colon != std::string::npos && line.find(' ') > colon) attrs[line.substr(0, colon)] = Words(line.substr(colon + 1));
    else rows.push_back(Words(line));
  }
  const size_t n = rows.empty() ? 0 : rows[0].size();
  for (const auto& r : rows)
    if (r.size() != n) { b.error = "stack rows of different lengths"; return; }
  std::map<std::string, int32_t> mapping_of;
  auto mapping = [&](const std::string& lib) {
    auto it = mapping_of.find(lib);
    return it != mapping_of.end() ? it->second : mapping_of[lib] = AddMapping(p, lib);
  };
  StackBuilder sb(p);
  auto attr = [&](const char* key, size_t i, int64_t otherwise) -> int64_t {
    auto it = attrs.find(key);
    return it == attrs.end() || i >= it->second.size() ? otherwise : std::stoll(it->second[i]);
  };
  int32_t max_thread = -1;
  for (size_t col = 0; col < n; ++col) {
    int32_t stack = kNone;
    for (const auto& r : rows) {
      const std::string& tok = r[col];
      if (tok == ".") break;
      const size_t at = tok.find('@');
      const int32_t m = at == std::string::npos ? mapping("/bin/app") : mapping(tok.substr(at + 1));
      const int32_t func = sb.Func(p.strings.Intern(tok.substr(0, at)), m);
      const int32_t frame = sb.Frame(0x1000 + static_cast<uint64_t>(func) * 16, func, m);
      stack = sb.Stack(stack, frame);
    }
    const int32_t thread = static_cast<int32_t>(attr("thread", col, 0));
    max_thread = std::max(max_thread, thread);
    AddSample(p, thread, static_cast<int32_t>(attr("cpu", col, 0)), static_cast<int32_t>(attr("event", col, 0)),
              static_cast<uint64_t>(attr("time", col, static_cast<int64_t>(col + 1))), stack);
    if (attrs.count("count")) p.samples.count.push_back(static_cast<uint32_t>(attr("count", col, 1)));
  }
  AddThreads(p, max_thread + 1);
}

bool Options(const Case& c, const CallTreeBuilder& b, AnalysisOptions& o, std::string& error) {
  auto func = [&](const std::string& name) {
    for (size_t i = 0; i < b.names().size(); ++i)
      if (b.names()[i] == name) return static_cast<int32_t>(i);
    error = "no function " + name;
    return kNone;
  };
  auto ints = [](const std::vector<std::string>& w) {
    std::vector<int32_t> v;
    for (size_t i = 1; i < w.size(); ++i) v.push_back(std::stoi(w[i]));
    return v;
  };
  using T = AnalysisTransform::Type;
  const std::map<std::string, T> transforms = {
      {"focus-function", T::kFocusFunction}, {"merge-function", T::kMergeFunction},
      {"drop-function", T::kDropFunction},   {"collapse-recursion", T::kCollapseRecursion}};
  for (const auto& line : c.option_lines) {
    const auto w = Words(line);
    if (w[0] == "event" && w.size() == 2) o.event = std::stoi(w[1]);
    else if (w[0] == "threads") o.threads = ints(w);
    else if (w[0] == "cpus") o.cpus = ints(w);
    else if (w[0] == "t0" && w.size() == 2) o.has_t0 = true, o.t0 = std::stoull(w[1]);
    else if (w[0] == "t1" && w.size() == 2) o.has_t1 = true, o.t1 = std::stoull(w[1]);
    else if (w[0] == "invert") o.invert = true;
    else if (w[0] == "focus-subtree") {
      AnalysisTransform t;
      t.type = T::kFocusSubtree;
      for (size_t i = 1; i < w.size(); ++i) t.path.push_back(func(w[i]));
      o.transforms.push_back(t);
    } else if (w[0] == "collapse-library" && w.size() == 2) {
      AnalysisTransform t;
      t.type = T::kCollapseLibrary;
      t.lib = w[1];
      o.transforms.push_back(t);
    } else if (transforms.count(w[0]) && w.size() == 2) {
      AnalysisTransform t;
      t.type = transforms.at(w[0]);
      t.func = func(w[1]);
      o.transforms.push_back(t);
    } else if (w[0] == "sandwich" && w.size() == 3 && (w[1] == "callers" || w[1] == "callees")) {
      o.sandwich = w[1] == "callers" ? AnalysisOptions::Sandwich::kCallers : AnalysisOptions::Sandwich::kCallees;
      o.sandwich_func = func(w[2]);
    } else {
      error = "unknown option line: " + line;
    }
  }
  return error.empty();
}

std::string Number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// "samples N", then each node but the root in node order, indented by depth.
std::string Render(const CallTreeBuilder& b, const CallTree& t) {
  std::string out = "samples " + std::to_string(t.samples) + "\n";
  for (size_t n = 1; n < t.size(); ++n) {
    out += std::string(2 * static_cast<size_t>(t.depth[n] - 1), ' ') + b.names()[static_cast<size_t>(t.func[n])] + " " +
           Number(t.total[n]) + " " + Number(t.self[n]) + "\n";
  }
  return out;
}

std::string PathOf(const CallTreeBuilder& b, const CallTree& t, int32_t n) {
  if (n < 0) return "-";
  if (n == 0) return "<root>";
  std::string path;
  for (; n > 0; n = t.parent[static_cast<size_t>(n)])
    path = b.names()[static_cast<size_t>(t.func[static_cast<size_t>(n)])] + (path.empty() ? "" : ">" + path);
  return path;
}

// Depth-first with exact subtree ranges: a node's subtree is [n, subtree_end[n]).
void ExpectDepthFirst(const CallTree& t) {
  ASSERT_EQ(t.subtree_end.size(), t.size());
  ASSERT_EQ(t.subtree_end[0], static_cast<int32_t>(t.size()));
  std::vector<int32_t> size(t.size(), 1);
  for (size_t n = t.size(); n-- > 1;) size[static_cast<size_t>(t.parent[n])] += size[n];
  for (size_t n = 1; n < t.size(); ++n) {
    const auto p = static_cast<size_t>(t.parent[n]);
    EXPECT_LT(p, n);
    EXPECT_EQ(t.depth[n], t.depth[p] + 1);
    EXPECT_EQ(t.subtree_end[n], static_cast<int32_t>(n) + size[n]) << "node " << n;
    EXPECT_LE(t.subtree_end[n], t.subtree_end[p]) << "node " << n;
  }
}

class CallTreeGolden : public ::testing::TestWithParam<Case> {};

TEST_P(CallTreeGolden, MatchesTheExpectedTree) {
  const Case& c = GetParam();
  Built built;
  Build(c, built);
  ASSERT_TRUE(built.error.empty()) << built.error;
  CallTreeBuilder b(built.p);
  AnalysisOptions o;
  std::string error;
  ASSERT_TRUE(Options(c, b, o, error)) << error;
  const CallTree t = b.Build(o);
  std::string want;
  for (const auto& l : c.tree_lines) want += l.substr(2) + "\n";  // the block is indented by two
  EXPECT_EQ(Render(b, t), want) << c.file << ": " << c.name;
  ExpectDepthFirst(t);
  if (!c.sample_nodes.empty()) {
    std::string got;
    for (int32_t n : t.sample_node) got += (got.empty() ? "" : " ") + PathOf(b, t, n);
    EXPECT_EQ(got, c.sample_nodes) << c.file << ": " << c.name;
  }
}

std::vector<Case> Cases() {
  static const std::vector<Case> cases = LoadCases();
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, CallTreeGolden, ::testing::ValuesIn(Cases()), [](const auto& info) {
  std::string n = info.param.file.substr(0, info.param.file.size() - 4) + "_" + info.param.name;
  for (char& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

TEST(CallTreeGolden, FindsItsCases) { EXPECT_GE(Cases().size(), 20u); }

}  // namespace
}  // namespace profscope
