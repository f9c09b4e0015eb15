#include "core/analysis/call_tree.h"

#include <algorithm>
#include <iterator>

namespace profscope {

namespace {

// "each hiding at most 12 samples", or "each hiding a weight of at most 3.5 M" (weighted trees:
// periods, a tracer's ticks).
std::string HiddenText(double w, bool weighted) {
  const std::string v = CountText(WeightToU64(w));
  return weighted ? "each hiding a weight of at most " + v : "each hiding at most " + v + (v == "1" ? " sample" : " samples");
}

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

// Whether every value of the column is v (told from its runs; a plain column is not looked through).
bool EveryValueIs(const PackedColumn<int32_t>& c, int32_t v) {
  if (!c.is_runs()) return false;
  bool every = true;
  c.ForEachRun([&](int32_t first, int32_t step, size_t len) { every = every && first == v && (step == 0 || len == 1); });
  return every;
}

constexpr int32_t kDropped = -2;  // the node and its subtree are out of the view
constexpr int32_t kPending = -4;  // not in the view yet (a sample there is out), its subtree may be

// A tree of `t`'s nodes that samples reached (sample_node, -1 for none) and their ancestors, in
// depth-first order with a node's children in the order samples first reached them; self and
// total from the samples' values.
template <typename Values>
void KeepReached(const Trie& tr, const SampleTable& s, Values& values, CallTree& t) {
  const size_t nn = tr.size();
  std::vector<double> self(nn, 0.0);
  // numbered as samples first reach them: a sample's node and the ancestors no earlier sample reached,
  // top down (parents before children; siblings by their first sample), each node once
  std::vector<int32_t> id(nn, -1), order{0}, chain;
  id[0] = 0;
  for (size_t i = 0; i < t.sample_node.size(); ++i) {
    const int32_t n = t.sample_node[i];
    if (n < 0) continue;
    self[static_cast<size_t>(n)] += values.At(i, s.stack[i]);
    t.samples += s.Count(i);
    chain.clear();
    for (int32_t x = n; id[static_cast<size_t>(x)] < 0; x = tr.parent[static_cast<size_t>(x)]) chain.push_back(x);
    for (size_t j = chain.size(); j-- > 0;) {
      id[static_cast<size_t>(chain[j])] = static_cast<int32_t>(order.size());
      order.push_back(chain[j]);
    }
  }
  const size_t kept = order.size();
  t.parent.resize(kept);
  t.func.resize(kept);
  t.depth.resize(kept);
  t.self.resize(kept);
  for (size_t k = 0; k < kept; ++k) {
    const size_t n = static_cast<size_t>(order[k]);
    t.parent[k] = n == 0 ? kNone : id[static_cast<size_t>(tr.parent[n])];
    t.func[k] = tr.func[n];
    t.depth[k] = tr.depth[n];
    t.self[k] = self[n];
  }
  t.total = t.self;
  for (size_t n = kept; n-- > 1;) t.total[static_cast<size_t>(t.parent[n])] += t.total[n];
  const std::vector<int32_t> pos = ToDepthFirst(t);
  for (auto& n : t.sample_node)
    if (n >= 0) n = pos[static_cast<size_t>(id[static_cast<size_t>(n)])];
}

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
  if (o.event >= 0 && rows_.event(i) != o.event) return false;
  if (!threads.empty()) {
    int32_t t = rows_.thread(i);
    if (t < 0 || static_cast<size_t>(t) >= threads.size() || !threads[static_cast<size_t>(t)]) return false;
  }
  if (!cpus.empty()) {
    int32_t c = i < s.cpu.size() ? rows_.cpu(i) : -1;
    // index 0 holds "no CPU" (-1), CPU c is at c + 1
    size_t k = static_cast<size_t>(c + 1);
    if (c < -1 || k >= cpus.size() || !cpus[k]) return false;
  }
  if (o.has_t0 && s.time[i] < o.t0) return false;
  if (o.has_t1 && s.time[i] > o.t1) return false;
  return true;
}

Trie CallTreeBuilder::TransformTrie(const Trie& in, const std::vector<uint8_t>& live, const AnalysisTransform& t,
                                    std::vector<int32_t>& img) {
  using Type = AnalysisTransform::Type;
  Trie out;
  ChildIndex child(out);
  const size_t nn = in.size();
  img.assign(nn, kDropped);
  // focus-subtree: the path's frames matched so far; collapse-recursion: the image of the
  // function's first call on the path
  std::vector<int32_t> aux;
  const bool focus = (t.type == Type::kFocusSubtree && !t.path.empty()) || t.type == Type::kFocusFunction;
  img[0] = focus ? kPending : 0;
  if (t.type == Type::kFocusSubtree || t.type == Type::kCollapseRecursion) aux.assign(nn, t.type == Type::kFocusSubtree ? 0 : kNone);
  int32_t lib = -1, pseudo = kNone;
  if (t.type == Type::kCollapseLibrary) {
    for (size_t i = 0; i < libs_.size(); ++i)
      if (libs_[i] == t.lib) lib = static_cast<int32_t>(i);
    if (lib >= 0) pseudo = LibFunc(lib);
  }
  for (size_t u = 1; u < nn; ++u) {
    if (!live.empty() && !live[u]) continue;
    const size_t p = static_cast<size_t>(in.parent[u]);
    const int32_t x = in.func[u], ip = img[p];
    if (ip == kDropped) continue;
    int32_t& iu = img[u];
    switch (t.type) {
      case Type::kFocusSubtree:  // the path starts with t.path; its last function is the root
        if (ip != kPending) {
          iu = child.Child(ip, x);
        } else if (x == t.path[static_cast<size_t>(aux[p])]) {
          aux[u] = aux[p] + 1;
          iu = static_cast<size_t>(aux[u]) == t.path.size() ? child.Child(0, x) : kPending;
        }
        break;
      case Type::kFocusFunction:  // from the function's first call
        iu = ip != kPending ? child.Child(ip, x) : x == t.func ? child.Child(0, x) : kPending;
        break;
      case Type::kMergeFunction:
        iu = x == t.func ? ip : child.Child(ip, x);
        break;
      case Type::kDropFunction:
        iu = x == t.func ? kDropped : child.Child(ip, x);
        break;
      case Type::kCollapseRecursion:  // the calls between its first and its last one go
        aux[u] = aux[p];
        if (x == t.func && aux[p] != kNone) {
          iu = aux[p];
        } else {
          iu = child.Child(ip, x);
          if (x == t.func) aux[u] = iu;
        }
        break;
      case Type::kCollapseLibrary: {  // a run of the library's functions is one pseudo function
        const bool in_lib = lib >= 0 && x >= 0 && static_cast<size_t>(x) < canon_lib_.size() && canon_lib_[static_cast<size_t>(x)] == lib;
        if (!in_lib) iu = child.Child(ip, x);
        else iu = ip != 0 && out.func[static_cast<size_t>(ip)] == pseudo ? ip : child.Child(ip, pseudo);
        break;
      }
    }
  }
  return out;
}

void CallTreeBuilder::EnsurePlain() {
  if (plain_ready_) return;
  plain_ready_ = true;
  Trie t;
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
  CallTree dfs;
  dfs.parent = std::move(t.parent);
  dfs.func = std::move(t.func);
  dfs.depth = std::move(t.depth);
  const std::vector<int32_t> pos = ToDepthFirst(dfs);
  for (auto& n : plain_node_) n = pos[static_cast<size_t>(n)];
  plain_.parent = std::move(dfs.parent);
  plain_.func = std::move(dfs.func);
  plain_.depth = std::move(dfs.depth);
}

CallTreeBuilder::SampleValues CallTreeBuilder::ValuesOf(const AnalysisOptions& o, const std::vector<uint8_t>& threads,
                                                        const std::vector<uint8_t>& cpus) const {
  const SampleTable& s = p_.samples;
  if (!o.weighted) return SampleValues(s, SampleValues::Kind::kCounts);
  if (!weights_inclusive_) return SampleValues(s, SampleValues::Kind::kWeights);
  SampleValues v(s, SampleValues::Kind::kStackSelf);
  const size_t ns = s.size();
  const size_t nstacks = p_.stacks.frame.size();
  v.self_.assign(nstacks, 0.0);
  v.first_.assign(nstacks, -1);
  size_t run = 0;
  for (size_t i = 0; i < ns; ++i) {
    const int32_t st = s.stack[i];
    if (st < 0 || static_cast<size_t>(st) >= nstacks || !Passes(i, o, threads, cpus)) continue;
    v.self_[static_cast<size_t>(st)] += static_cast<double>(s.weight.At(i, &run));
    if (v.first_[static_cast<size_t>(st)] < 0) v.first_[static_cast<size_t>(st)] = static_cast<int64_t>(i);
  }
  const std::vector<double> inclusive = v.self_;
  for (size_t st = 0; st < nstacks; ++st) {
    const int32_t pre = p_.stacks.prefix[st];
    if (pre >= 0 && static_cast<size_t>(pre) < nstacks) v.self_[static_cast<size_t>(pre)] -= inclusive[st];
  }
  return v;
}

CallTree CallTreeBuilder::BuildPlain(const AnalysisOptions& o, const std::vector<uint8_t>& threads, const std::vector<uint8_t>& cpus,
                                     SampleValues& values) {
  EnsurePlain();
  const SampleTable& s = p_.samples;
  const size_t ns = s.size();
  const size_t nn = plain_.size();
  std::vector<double> cnt(nn, 0.0);
  std::vector<uint8_t> reached(nn, 0);  // a sample of weight 0 still keeps its node
  CallTree t;
  t.sample_node.assign(ns, -1);
  const bool filtered = o.event >= 0 || !threads.empty() || !cpus.empty() || o.has_t0 || o.has_t1;
  for (size_t i = 0; i < ns; ++i) {
    if (filtered && !Passes(i, o, threads, cpus)) continue;
    int32_t st = s.stack[i];
    int32_t n = PlainNodeOf(st);
    t.sample_node[i] = n;
    cnt[static_cast<size_t>(n)] += values.At(i, st);
    reached[static_cast<size_t>(n)] = 1;
    t.samples += s.Count(i);
  }
  // keep the nodes samples reached and their ancestors, renumbered in order (parents first)
  const std::vector<uint8_t> keep = WithAncestors(plain_, reached);
  std::vector<int32_t> id(nn, -1);
  int32_t next = 0;
  for (size_t n = 0; n < nn; ++n)
    if (keep[n]) id[n] = next++;
  t.parent.resize(static_cast<size_t>(next));
  t.func.resize(static_cast<size_t>(next));
  t.depth.resize(static_cast<size_t>(next));
  t.self.resize(static_cast<size_t>(next));
  for (size_t n = 0; n < nn; ++n) {
    int32_t k = id[n];
    if (k < 0) continue;
    size_t kk = static_cast<size_t>(k);
    t.parent[kk] = n == 0 ? kNone : id[static_cast<size_t>(plain_.parent[n])];
    t.func[kk] = plain_.func[n];
    t.depth[kk] = plain_.depth[n];
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
  if (o.event >= 0 && EveryValueIs(p_.samples.event, o.event)) {  // (no test per sample: a file of one event)
    AnalysisOptions every = o;
    every.event = -1;
    return Build(every);
  }
  const SampleTable& s = p_.samples;
  const size_t ns = s.size();
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

  SampleValues values = ValuesOf(o, threads, cpus);
  if (o.transforms.empty() && !o.invert && o.sandwich == AnalysisOptions::Sandwich::kNone)
    return BuildPlain(o, threads, cpus, values);

  // Each passing sample's node in the plain trie (every stack's path), then through each stage
  // from its prefix's node: linear in the stacks, however deep.
  EnsurePlain();
  const size_t nn = plain_.size();
  CallTree t;
  t.sample_node.assign(ns, -1);
  std::vector<uint8_t> reached(nn, 0);
  for (size_t i = 0; i < ns; ++i) {
    if (!Passes(i, o, threads, cpus)) continue;
    const int32_t st = s.stack[i];
    const int32_t n = PlainNodeOf(st);
    t.sample_node[i] = n;
    reached[static_cast<size_t>(n)] = 1;
  }
  const std::vector<uint8_t> live = WithAncestors(plain_, reached);
  std::vector<int32_t> at(nn, -1);  // plain node -> its image in the current trie (< 0: out)
  for (size_t n = 0; n < nn; ++n)
    if (live[n]) at[n] = static_cast<int32_t>(n);
  Trie cur;
  const Trie* in = &plain_;
  std::vector<int32_t> img;
  auto through = [&](const std::vector<int32_t>& im) {
    for (auto& a : at)
      if (a >= 0) a = im[static_cast<size_t>(a)];
  };
  for (const AnalysisTransform& tr : o.transforms) {
    Trie next = TransformTrie(*in, in == &plain_ ? live : std::vector<uint8_t>{}, tr, img);
    through(img);
    cur = std::move(next);
    in = &cur;
  }

  // the view: as it is, the callees of a function, or an inverted tree (of the paths up to a
  // function's first call, for its callers)
  Trie view;
  const bool callers = o.sandwich == AnalysisOptions::Sandwich::kCallers;
  const bool callees = o.sandwich == AnalysisOptions::Sandwich::kCallees;
  if (callees) {
    // the paths from the function's last (innermost) call: its recursion merges into the root
    ChildIndex child(view);
    img.assign(in->size(), kPending);
    for (size_t u = 1; u < in->size(); ++u) {
      const int32_t x = in->func[u], ip = img[static_cast<size_t>(in->parent[u])];
      img[u] = x == o.sandwich_func ? child.Child(0, x) : ip == kPending ? kPending : child.Child(ip, x);
    }
    through(img);
  } else if (callers || o.invert) {
    std::vector<int32_t> upto;  // callers: each node's first call of the function on its path
    if (callers) {
      upto.assign(in->size(), kNone);
      for (size_t u = 1; u < in->size(); ++u) {
        const int32_t pu = upto[static_cast<size_t>(in->parent[u])];
        upto[u] = pu != kNone ? pu : in->func[u] == o.sandwich_func ? static_cast<int32_t>(u) : kNone;
      }
    }
    std::vector<uint8_t> need(in->size(), 0);
    for (size_t n = 0; n < nn; ++n) {
      int32_t a = at[n];
      if (a < 0 || !reached[n]) continue;
      if (callers) a = upto[static_cast<size_t>(a)];
      if (a >= 0) need[static_cast<size_t>(a)] = 1;
    }
    // what each needed node weighs (the order a tree too large is built in: the heaviest first), made
    // only for such a tree
    auto weigh = [&] {
      std::vector<double> weight(in->size(), 0.0);
      for (size_t i = 0; i < ns; ++i) {
        const int32_t n = t.sample_node[i];
        if (n < 0) continue;
        int32_t a = at[static_cast<size_t>(n)];
        if (a >= 0 && callers) a = upto[static_cast<size_t>(a)];
        const double v = values.At(i, s.stack[i]);
        if (a >= 0 && v == v) weight[static_cast<size_t>(a)] += v;  // (a NaN would unorder the heaviest first)
      }
      return weight;
    };
    std::vector<int32_t> inv;
    InvertCut cut;
    if (!InvertTrie(*in, need, weigh, view, inv, max_inverted_nodes_, max_invert_steps_, &cut, &t.error, invert_how_)) {
      CallTree root = RootOnly();
      root.subtree_end = {1};
      root.self = root.total = {0.0};
      root.sample_node.assign(ns, -1);
      root.error = (callers ? "the callers of this function: " : "") + t.error;
      return root;
    }
    if (cut.nodes > 0)
      t.notice = std::string(callers ? "the callers of this function are" : "the inverted tree of these stacks is") +
                 " too large to show whole: it shows " + CountText(view.size() - 1) + " nodes, the heaviest first; " + CountText(cut.nodes) +
                 " of them without all their callers (" + HiddenText(cut.heaviest, o.weighted) + "), whose weight stays in their self; collapse recursion, focus on a function or narrow the selection to see those";
    if (callers)
      for (auto& a : upto) a = a >= 0 ? inv[static_cast<size_t>(a)] : -1;
    through(callers ? upto : inv);
  } else {
    view = std::move(cur);  // (without transforms either, Build took the plain path above)
  }
  for (auto& n : t.sample_node)
    if (n >= 0) n = at[static_cast<size_t>(n)] >= 0 ? at[static_cast<size_t>(n)] : -1;
  KeepReached(view, s, values, t);
  return t;
}

}  // namespace profscope
