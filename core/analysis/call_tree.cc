#include "core/analysis/call_tree.h"

#include <algorithm>
#include <iterator>

namespace profscope {

namespace {

// (parent node, func) -> child node, interned through the tree's own columns.
class ChildIndex {
 public:
  explicit ChildIndex(CallTree& t) : t_(t) {}
  int32_t Child(int32_t parent, int32_t func) {
    uint64_t h = FlatIndex::Mix(static_cast<uint32_t>(parent), static_cast<uint32_t>(func));
    int32_t next = static_cast<int32_t>(t_.parent.size());
    bool inserted = false;
    int32_t n = index_.FindOrInsert(
        h, [&](int32_t row) { return t_.parent[static_cast<size_t>(row)] == parent && t_.func[static_cast<size_t>(row)] == func; },
        next, &inserted);
    if (inserted) {
      t_.parent.push_back(parent);
      t_.func.push_back(func);
      t_.depth.push_back(t_.depth[static_cast<size_t>(parent)] + 1);
    }
    return n;
  }

 private:
  CallTree& t_;
  FlatIndex index_;
};

// A tree holding only its root (node 0: no function, depth 0).
CallTree RootOnly() {
  CallTree t;
  t.parent.push_back(kNone);
  t.func.push_back(kNone);
  t.depth.push_back(0);
  return t;
}

// Subtree sizes of a tree whose parents come before their children.
std::vector<int32_t> SubtreeSizes(const std::vector<int32_t>& parent) {
  std::vector<int32_t> size(parent.size(), 1);
  for (size_t n = parent.size(); n-- > 1;) size[static_cast<size_t>(parent[n])] += size[n];
  return size;
}

// Reorders a tree whose parents come before their children into depth-first
// order (children keep their relative order) and fills subtree_end. Returns
// each old node's new number.
std::vector<int32_t> ToDepthFirst(CallTree& t) {
  const size_t nn = t.parent.size();
  const std::vector<int32_t> size = SubtreeSizes(t.parent);
  // a node's position: its parent's, plus one, plus the sizes of its earlier siblings
  std::vector<int32_t> pos(nn, 0), next(nn, 1);
  for (size_t n = 1; n < nn; ++n) {
    const size_t p = static_cast<size_t>(t.parent[n]);
    pos[n] = next[p];
    next[p] += size[n];
    next[n] = pos[n] + 1;
  }
  auto permute = [&](auto& col) {
    if (col.size() != nn) return;
    auto out = col;
    for (size_t n = 0; n < nn; ++n) out[static_cast<size_t>(pos[n])] = col[n];
    col = std::move(out);
  };
  permute(t.parent);
  for (size_t n = 1; n < nn; ++n) t.parent[n] = pos[static_cast<size_t>(t.parent[n])];
  permute(t.func);
  permute(t.depth);
  permute(t.self);
  permute(t.total);
  t.subtree_end.resize(nn);
  for (size_t n = 0; n < nn; ++n) t.subtree_end[static_cast<size_t>(pos[n])] = pos[n] + size[n];
  return pos;
}

constexpr int32_t kNotComputed = -3;
constexpr int32_t kDropped = -2;

}  // namespace

CallTreeBuilder::CallTreeBuilder(const Profile& p) : p_(p) {
  const size_t nf = p.funcs.name.size();
  canon_.assign(nf, kNone);
  std::vector<int32_t> by_name(p.strings.size(), kNone);  // name string id -> canonical func
  for (size_t f = 0; f < nf; ++f) {
    int32_t id = p.funcs.name[f];
    if (id < 0 || static_cast<size_t>(id) >= by_name.size()) {
      canon_[f] = kNone;  // resolved to [unknown] below
      continue;
    }
    int32_t& c = by_name[static_cast<size_t>(id)];
    if (c == kNone) {
      c = static_cast<int32_t>(names_.size());
      names_.push_back(p.strings.Get(id));
      name_ids_.push_back(id);
    }
    canon_[f] = c;
  }
  // "[unknown]" is one function, whether a func is named so or a frame has none
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == "[unknown]") unknown_ = static_cast<int32_t>(i);
  if (unknown_ == kNone) {
    unknown_ = static_cast<int32_t>(names_.size());
    names_.push_back("[unknown]");
    name_ids_.push_back(kNone);
  }
  for (auto& c : canon_)
    if (c == kNone) c = unknown_;

  // canonical func -> library (mapping path), from the func's mapping, else a frame's
  canon_lib_.assign(names_.size(), -1);
  std::vector<int32_t> lib_of_path(p.strings.size(), -1);
  auto lib_of = [&](int32_t m) -> int32_t {
    if (m < 0 || static_cast<size_t>(m) >= p.mappings.size()) return -1;
    int32_t path = p.mappings.path[static_cast<size_t>(m)];
    if (path < 0 || static_cast<size_t>(path) >= lib_of_path.size() || p.strings.Get(path).empty()) return -1;
    int32_t& l = lib_of_path[static_cast<size_t>(path)];
    if (l < 0) {
      l = static_cast<int32_t>(libs_.size());
      libs_.push_back(p.strings.Get(path));
    }
    return l;
  };
  for (size_t f = 0; f < nf; ++f) {
    int32_t& cl = canon_lib_[static_cast<size_t>(canon_[f])];
    if (cl < 0 && f < p.funcs.mapping.size()) cl = lib_of(p.funcs.mapping[f]);
  }
  for (size_t fr = 0; fr < p.frames.func.size(); ++fr) {
    int32_t c = Canon(p.frames.func[fr]);
    int32_t& cl = canon_lib_[static_cast<size_t>(c)];
    if (cl < 0 && fr < p.frames.mapping.size()) cl = lib_of(p.frames.mapping[fr]);
  }
  lib_func_.assign(libs_.size(), kNone);
}

const std::string& CallTreeBuilder::Library(int32_t canon) const {
  static const std::string kNoLibrary;
  if (canon < 0 || static_cast<size_t>(canon) >= canon_lib_.size()) return kNoLibrary;
  const int32_t lib = canon_lib_[static_cast<size_t>(canon)];
  return lib >= 0 ? libs_[static_cast<size_t>(lib)] : kNoLibrary;
}

int32_t CallTreeBuilder::LibFunc(int32_t lib) {
  int32_t& f = lib_func_[static_cast<size_t>(lib)];
  if (f == kNone) {
    f = static_cast<int32_t>(names_.size());
    names_.push_back("[lib] " + libs_[static_cast<size_t>(lib)]);
    name_ids_.push_back(kNone);
  }
  return f;
}

bool CallTreeBuilder::Passes(size_t i, const AnalysisOptions& o, const std::vector<uint8_t>& threads,
                             const std::vector<uint8_t>& cpus) const {
  const SampleTable& s = p_.samples;
  if (o.event >= 0 && s.event[i] != o.event) return false;
  if (!threads.empty()) {
    int32_t t = s.thread[i];
    if (t < 0 || static_cast<size_t>(t) >= threads.size() || !threads[static_cast<size_t>(t)]) return false;
  }
  if (!cpus.empty()) {
    int32_t c = i < s.cpu.size() ? s.cpu[i] : -1;
    // index 0 holds "no CPU" (-1), CPU c is at c + 1
    size_t k = static_cast<size_t>(c + 1);
    if (c < -1 || k >= cpus.size() || !cpus[k]) return false;
  }
  if (o.has_t0 && s.time[i] < o.t0) return false;
  if (o.has_t1 && s.time[i] > o.t1) return false;
  return true;
}

void CallTreeBuilder::StackPath(int32_t stack, std::vector<int32_t>& out) const {
  out.clear();
  const StackTable& st = p_.stacks;
  int32_t s = stack;
  size_t guard = 0;
  while (s >= 0 && static_cast<size_t>(s) < st.frame.size() && guard++ < 100000) {
    int32_t fr = st.frame[static_cast<size_t>(s)];
    int32_t f = fr >= 0 && static_cast<size_t>(fr) < p_.frames.func.size() ? p_.frames.func[static_cast<size_t>(fr)] : kNone;
    out.push_back(Canon(f));
    int32_t pre = st.prefix[static_cast<size_t>(s)];
    s = pre < s ? pre : -1;
  }
  std::reverse(out.begin(), out.end());
}

// Applies the transforms in order; false when the sample is dropped.
bool CallTreeBuilder::Transform(std::vector<int32_t>& p, const AnalysisOptions& o) {
  for (const AnalysisTransform& t : o.transforms) {
    switch (t.type) {
      case AnalysisTransform::Type::kFocusSubtree: {
        const auto& pre = t.path;
        if (p.size() < pre.size()) return false;
        if (!std::equal(pre.begin(), pre.end(), p.begin())) return false;
        if (!pre.empty()) p.erase(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(pre.size() - 1));
        break;
      }
      case AnalysisTransform::Type::kFocusFunction: {
        auto it = std::find(p.begin(), p.end(), t.func);
        if (it == p.end()) return false;
        p.erase(p.begin(), it);
        break;
      }
      case AnalysisTransform::Type::kMergeFunction:
        p.erase(std::remove(p.begin(), p.end(), t.func), p.end());
        break;
      case AnalysisTransform::Type::kDropFunction:
        if (std::find(p.begin(), p.end(), t.func) != p.end()) return false;
        break;
      case AnalysisTransform::Type::kCollapseRecursion: {
        auto a = std::find(p.begin(), p.end(), t.func);
        if (a == p.end()) break;
        auto b = std::find(p.rbegin(), p.rend(), t.func).base() - 1;  // last occurrence
        if (b > a) p.erase(a + 1, b + 1);
        break;
      }
      case AnalysisTransform::Type::kCollapseLibrary: {
        int32_t lib = -1;
        for (size_t i = 0; i < libs_.size(); ++i)
          if (libs_[i] == t.lib) lib = static_cast<int32_t>(i);
        if (lib < 0) break;
        int32_t pseudo = LibFunc(lib);
        size_t w = 0;
        for (size_t r = 0; r < p.size(); ++r) {
          int32_t f = p[r];
          bool in_lib = f >= 0 && static_cast<size_t>(f) < canon_lib_.size() && canon_lib_[static_cast<size_t>(f)] == lib;
          int32_t v = in_lib ? pseudo : f;
          if (in_lib && w > 0 && p[w - 1] == pseudo) continue;
          p[w++] = v;
        }
        p.resize(w);
        break;
      }
    }
  }
  return true;
}

void CallTreeBuilder::EnsurePlain() {
  if (plain_ready_) return;
  plain_ready_ = true;
  CallTree t = RootOnly();
  ChildIndex children(t);
  const StackTable& st = p_.stacks;
  plain_node_.assign(st.frame.size(), 0);
  for (size_t s = 0; s < st.frame.size(); ++s) {
    int32_t pre = st.prefix[s];
    // parents come before children; a prefix that does not is treated as a root (as StackPath does)
    int32_t base = pre >= 0 && static_cast<size_t>(pre) < s ? plain_node_[static_cast<size_t>(pre)] : 0;
    int32_t fr = st.frame[s];
    int32_t f = fr >= 0 && static_cast<size_t>(fr) < p_.frames.func.size() ? p_.frames.func[static_cast<size_t>(fr)] : kNone;
    plain_node_[s] = children.Child(base, Canon(f));
  }
  // depth-first, so that the subset a Build keeps (in this order) is depth-first too
  const std::vector<int32_t> pos = ToDepthFirst(t);
  for (auto& n : plain_node_) n = pos[static_cast<size_t>(n)];
  plain_parent_ = std::move(t.parent);
  plain_func_ = std::move(t.func);
  plain_depth_ = std::move(t.depth);
}

std::vector<double> CallTreeBuilder::SampleValues(const AnalysisOptions& o, const std::vector<uint8_t>& threads,
                                                  const std::vector<uint8_t>& cpus) const {
  const SampleTable& s = p_.samples;
  const size_t ns = s.size();
  if (!o.weighted) return {};  // counts: SampleTable::Count
  std::vector<double> v(ns, 0.0);
  for (size_t i = 0; i < ns; ++i) v[i] = i < s.weight.size() ? s.weight[i] : 0.0;
  if (!weights_inclusive_) return v;
  const size_t nstacks = p_.stacks.frame.size();
  std::vector<double> self(nstacks, 0.0);
  std::vector<int64_t> first(nstacks, -1);
  for (size_t i = 0; i < ns; ++i) {
    const int32_t st = s.stack[i];
    if (st < 0 || static_cast<size_t>(st) >= nstacks || !Passes(i, o, threads, cpus)) continue;
    self[static_cast<size_t>(st)] += v[i];
    if (first[static_cast<size_t>(st)] < 0) first[static_cast<size_t>(st)] = static_cast<int64_t>(i);
  }
  std::vector<double> inclusive = self;
  for (size_t st = 0; st < nstacks; ++st) {
    const int32_t pre = p_.stacks.prefix[st];
    if (pre >= 0 && static_cast<size_t>(pre) < nstacks) self[static_cast<size_t>(pre)] -= inclusive[st];
  }
  for (size_t i = 0; i < ns; ++i) {
    const int32_t st = s.stack[i];
    if (st >= 0 && static_cast<size_t>(st) < nstacks)
      v[i] = first[static_cast<size_t>(st)] == static_cast<int64_t>(i) ? std::max(0.0, self[static_cast<size_t>(st)]) : 0.0;
  }
  return v;
}

CallTree CallTreeBuilder::BuildPlain(const AnalysisOptions& o, const std::vector<uint8_t>& threads, const std::vector<uint8_t>& cpus,
                                     const std::vector<double>& values) {
  EnsurePlain();
  const SampleTable& s = p_.samples;
  const size_t ns = s.size();
  const size_t nn = plain_parent_.size();
  std::vector<double> cnt(nn, 0.0);
  std::vector<uint8_t> reached(nn, 0);  // a sample of weight 0 still keeps its node
  CallTree t;
  t.sample_node.assign(ns, -1);
  const bool filtered = o.event >= 0 || !threads.empty() || !cpus.empty() || o.has_t0 || o.has_t1;
  for (size_t i = 0; i < ns; ++i) {
    if (filtered && !Passes(i, o, threads, cpus)) continue;
    int32_t st = s.stack[i];
    int32_t n = st >= 0 && static_cast<size_t>(st) < plain_node_.size() ? plain_node_[static_cast<size_t>(st)] : 0;
    t.sample_node[i] = n;
    const uint64_t c = s.Count(i);
    cnt[static_cast<size_t>(n)] += values.empty() ? static_cast<double>(c) : values[i];
    reached[static_cast<size_t>(n)] = 1;
    t.samples += c;
  }
  // keep the nodes samples reached and their ancestors, renumbered in order (parents first)
  std::vector<int32_t> id(nn, -1);
  id[0] = 0;
  for (size_t n = nn; n-- > 1;) {
    if (reached[n]) id[n] = 0;
    if (id[n] == 0) id[static_cast<size_t>(plain_parent_[n])] = 0;
  }
  int32_t next = 0;
  for (size_t n = 0; n < nn; ++n)
    if (id[n] == 0 || n == 0) id[n] = next++;
  t.parent.resize(static_cast<size_t>(next));
  t.func.resize(static_cast<size_t>(next));
  t.depth.resize(static_cast<size_t>(next));
  t.self.resize(static_cast<size_t>(next));
  for (size_t n = 0; n < nn; ++n) {
    int32_t k = id[n];
    if (k < 0) continue;
    size_t kk = static_cast<size_t>(k);
    t.parent[kk] = n == 0 ? kNone : id[static_cast<size_t>(plain_parent_[n])];
    t.func[kk] = plain_func_[n];
    t.depth[kk] = plain_depth_[n];
    t.self[kk] = cnt[n];
  }
  for (auto& n : t.sample_node)
    if (n >= 0) n = id[static_cast<size_t>(n)];
  t.total = t.self;
  for (size_t n = t.total.size(); n-- > 1;) t.total[static_cast<size_t>(t.parent[n])] += t.total[n];
  // the kept nodes of a depth-first tree, in order, are depth-first
  const std::vector<int32_t> size = SubtreeSizes(t.parent);
  t.subtree_end.resize(size.size());
  for (size_t n = 0; n < size.size(); ++n) t.subtree_end[n] = static_cast<int32_t>(n) + size[n];
  return t;
}

CallTree CallTreeBuilder::Build(const AnalysisOptions& o) {
  CallTree t = RootOnly();
  ChildIndex children(t);

  const SampleTable& s = p_.samples;
  const size_t ns = s.size();
  const size_t nstacks = p_.stacks.frame.size();
  std::vector<uint8_t> threads, cpus;
  if (!o.threads.empty()) {
    threads.assign(p_.threads.size(), 0);
    for (int32_t th : o.threads)
      if (th >= 0 && static_cast<size_t>(th) < threads.size()) threads[static_cast<size_t>(th)] = 1;
  }
  if (!o.cpus.empty()) {
    int32_t mx = -1;
    for (int32_t c : o.cpus) mx = std::max(mx, c);
    cpus.assign(static_cast<size_t>(mx + 2), 0);
    for (int32_t c : o.cpus)
      if (c >= -1) cpus[static_cast<size_t>(c + 1)] = 1;
  }

  const std::vector<double> values = SampleValues(o, threads, cpus);
  if (o.transforms.empty() && !o.invert && o.sandwich == AnalysisOptions::Sandwich::kNone)
    return BuildPlain(o, threads, cpus, values);

  // node of each stack (index nstacks = the empty stack), computed when a sample first needs it
  std::vector<int32_t> stack_node(nstacks + 1, kNotComputed);
  std::vector<int32_t> path;
  auto node_of = [&](int32_t stack) -> int32_t {
    size_t slot = stack >= 0 && static_cast<size_t>(stack) < nstacks ? static_cast<size_t>(stack) : nstacks;
    int32_t& memo = stack_node[slot];
    if (memo != kNotComputed) return memo;
    if (slot == nstacks) path.clear();  // the empty stack: transforms may still drop it
    else StackPath(stack, path);
    int32_t n = kDropped;
    if (Transform(path, o)) {
      bool keep = true;
      // The sandwich merges recursion: callees from the function's innermost call, callers up
      // to its outermost one, so the function is their root only (as speedscope's sandwich).
      if (o.sandwich == AnalysisOptions::Sandwich::kCallees) {
        auto it = std::find(path.rbegin(), path.rend(), o.sandwich_func);
        if (it == path.rend()) keep = false;
        else path.erase(path.begin(), std::prev(it.base()));
      } else if (o.sandwich == AnalysisOptions::Sandwich::kCallers) {
        auto it = std::find(path.begin(), path.end(), o.sandwich_func);
        if (it == path.end()) keep = false;
        else path.erase(std::next(it), path.end());
      }
      if (keep) {
        bool inv = o.sandwich == AnalysisOptions::Sandwich::kCallers ? true : o.sandwich == AnalysisOptions::Sandwich::kCallees ? false : o.invert;
        if (inv) std::reverse(path.begin(), path.end());
        n = 0;
        for (int32_t f : path) n = children.Child(n, f);
      }
    }
    return memo = n;
  };

  t.sample_node.assign(ns, -1);
  std::vector<double> self(1, 0.0);
  for (size_t i = 0; i < ns; ++i) {
    if (!Passes(i, o, threads, cpus)) continue;
    int32_t n = node_of(s.stack[i]);
    if (n < 0) continue;
    t.sample_node[i] = n;
    if (self.size() < t.parent.size()) self.resize(t.parent.size() + t.parent.size() / 2, 0.0);
    const uint64_t c = s.Count(i);
    self[static_cast<size_t>(n)] += values.empty() ? static_cast<double>(c) : values[i];
    t.samples += c;
  }
  self.resize(t.parent.size(), 0.0);
  t.self = self;
  t.total = std::move(self);
  for (size_t n = t.total.size(); n-- > 1;) t.total[static_cast<size_t>(t.parent[n])] += t.total[n];
  const std::vector<int32_t> pos = ToDepthFirst(t);
  for (auto& n : t.sample_node)
    if (n >= 0) n = pos[static_cast<size_t>(n)];
  return t;
}

}  // namespace profscope
