#include "core/analysis/diff.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <unordered_map>

#include "core/io/keyed_hash.h"
#include "core/io/path_name.h"

namespace profscope {

namespace {

class Builder {
 public:
  Builder(ProfileDiff& d) : d_(d) {
    d_.tree.parent.push_back(kNone);
    d_.tree.func.push_back(kNone);
    d_.tree.depth.push_back(0);
    d_.tree.self_a.push_back(0);
    d_.tree.self_b.push_back(0);
  }

  // Adds one side's samples to the tree's self counts.
  void AddSide(const Profile& p, int32_t event, bool side_b, bool drop_thread_root) {
    // func row -> key id
    std::vector<int32_t> key(p.funcs.name.size(), kNone);
    for (size_t f = 0; f < p.funcs.name.size(); ++f) {
      const int32_t m = p.funcs.mapping[f];
      std::string name = p.strings.Get(p.funcs.name[f]);
      std::string module;
      if (m >= 0 && static_cast<size_t>(m) < p.mappings.size()) {
        const std::string& path = p.strings.Get(p.mappings.path[static_cast<size_t>(m)]);
        module = BaseName(path);
        // a frame without a symbol: "path+0xOFFSET" -> "module+0xOFFSET"
        if (name.size() > path.size() + 3 && name.compare(0, path.size(), path) == 0 &&
            name.compare(path.size(), 3, "+0x") == 0)
          name = module + name.substr(path.size());
      }
      key[f] = Key(module, name);
    }
    std::vector<uint64_t> per_stack(p.stacks.frame.size(), 0);
    uint64_t no_stack = 0;
    for (size_t i = 0; i < p.samples.size(); ++i) {
      if (event != kNone && p.samples.event[i] != event) continue;
      const int32_t s = p.samples.stack[i];
      if (s >= 0 && static_cast<size_t>(s) < per_stack.size()) per_stack[static_cast<size_t>(s)] += p.samples.Count(i);
      else no_stack += p.samples.Count(i);
    }
    std::vector<int32_t> node_of(p.stacks.frame.size(), kNone);
    std::vector<int32_t> chain;
    for (size_t s = 0; s < per_stack.size(); ++s) {
      if (!per_stack[s]) continue;
      chain.clear();
      int32_t k = static_cast<int32_t>(s);
      while (k != kNone && node_of[static_cast<size_t>(k)] == kNone) {
        chain.push_back(k);
        k = p.stacks.prefix[static_cast<size_t>(k)];
      }
      int32_t node = k == kNone ? 0 : node_of[static_cast<size_t>(k)];
      for (size_t j = chain.size(); j-- > 0;) {
        const int32_t fr = p.stacks.frame[static_cast<size_t>(chain[j])];
        const int32_t f = p.frames.func[static_cast<size_t>(fr)];
        if (drop_thread_root && p.stacks.prefix[static_cast<size_t>(chain[j])] == kNone && IsThreadRoot(p, f)) {
          node_of[static_cast<size_t>(chain[j])] = 0;  // the root itself
          continue;
        }
        const int32_t kf = f >= 0 && static_cast<size_t>(f) < key.size() ? key[static_cast<size_t>(f)] : Key("", "[unknown]");
        node = Child(node, kf);
        node_of[static_cast<size_t>(chain[j])] = node;
      }
      if (node == 0) node = Child(0, Key("", "[no stack]"));  // a stack that was only a dropped root
      Count(node, side_b) += per_stack[s];
    }
    if (no_stack) Count(Child(0, Key("", "[no stack]")), side_b) += no_stack;
  }

 private:
  static bool IsThreadRoot(const Profile& p, int32_t f) {
    if (f < 0 || static_cast<size_t>(f) >= p.funcs.name.size() || p.funcs.mapping[static_cast<size_t>(f)] != kNone) return false;
    const std::string& n = p.strings.Get(p.funcs.name[static_cast<size_t>(f)]);
    return n.size() > 7 && n.compare(0, 7, "thread_") == 0 && n.find_first_not_of("0123456789", 7) == std::string::npos;
  }
  int32_t Key(const std::string& module, const std::string& name) {
    auto it = keys_.find({module, name});
    if (it != keys_.end()) return it->second;
    int32_t id = static_cast<int32_t>(d_.funcs.size());
    keys_.emplace(std::make_pair(module, name), id);
    d_.funcs.name.push_back(name);
    d_.funcs.module.push_back(module);
    return id;
  }
  int32_t Child(int32_t parent, int32_t func) {
    const uint64_t k = (static_cast<uint64_t>(static_cast<uint32_t>(parent)) << 32) | static_cast<uint32_t>(func);
    auto it = children_.find(k);
    if (it != children_.end()) return it->second;
    DiffTree& t = d_.tree;
    int32_t id = static_cast<int32_t>(t.size());
    t.parent.push_back(parent);
    t.func.push_back(func);
    t.depth.push_back(t.depth[static_cast<size_t>(parent)] + 1);
    t.self_a.push_back(0);
    t.self_b.push_back(0);
    children_.emplace(k, id);
    return id;
  }
  uint64_t& Count(int32_t node, bool side_b) {
    return side_b ? d_.tree.self_b[static_cast<size_t>(node)] : d_.tree.self_a[static_cast<size_t>(node)];
  }

  ProfileDiff& d_;
  std::map<std::pair<std::string, std::string>, int32_t> keys_;
  std::unordered_map<uint64_t, int32_t, KeyedIntHash> children_;
};

double Pct(uint64_t a, int64_t delta) {
  if (a == 0) return delta == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return 100.0 * static_cast<double>(delta) / static_cast<double>(a);
}

}  // namespace

std::string ProfileDiff::StackText(int32_t node) const {
  std::vector<int32_t> chain;
  for (int32_t n = node; n > 0; n = tree.parent[static_cast<size_t>(n)]) chain.push_back(n);
  std::string out;
  for (size_t j = chain.size(); j-- > 0;) {
    if (!out.empty()) out += ';';
    out += funcs.label[static_cast<size_t>(tree.func[static_cast<size_t>(chain[j])])];
  }
  return out;
}

std::string ProfileDiff::FoldedText() const {
  std::string out;
  for (size_t k = 0; k < line_node.size(); ++k)
    out += StackText(line_node[k]) + " " + std::to_string(line_a[k]) + " " + std::to_string(line_b[k]) + "\n";
  return out;
}

ProfileDiff DiffProfiles(const Profile& a, const Profile& b, const DiffOptions& opts) {
  ProfileDiff d;
  {
    Builder builder(d);
    builder.AddSide(a, opts.event_a, false, opts.drop_thread_root_a);
    builder.AddSide(b, opts.event_b, true, opts.drop_thread_root_b);
  }
  // Labels: the name, or "name [module]" when the pair has the name in two modules.
  std::map<std::string, int> modules_per_name;
  for (size_t f = 0; f < d.funcs.size(); ++f) modules_per_name[d.funcs.name[f]]++;
  d.funcs.label.resize(d.funcs.size());
  for (size_t f = 0; f < d.funcs.size(); ++f)
    d.funcs.label[f] = modules_per_name[d.funcs.name[f]] > 1 && !d.funcs.module[f].empty()
                           ? d.funcs.name[f] + " [" + d.funcs.module[f] + "]"
                           : d.funcs.name[f];
  // Folded lines: the nodes with samples, in STACK byte order.
  DiffTree& t = d.tree;
  std::vector<std::pair<std::string, int32_t>> lines;
  for (size_t n = 1; n < t.size(); ++n)
    if (t.self_a[n] || t.self_b[n]) lines.emplace_back(d.StackText(static_cast<int32_t>(n)), static_cast<int32_t>(n));
  std::sort(lines.begin(), lines.end());
  for (const auto& [text, n] : lines) {
    d.line_node.push_back(n);
    d.line_a.push_back(t.self_a[static_cast<size_t>(n)]);
    d.line_b.push_back(t.self_b[static_cast<size_t>(n)]);
    d.raw_total_a += t.self_a[static_cast<size_t>(n)];
    d.total_b += t.self_b[static_cast<size_t>(n)];
  }
  d.total_a = d.raw_total_a;
  if (opts.normalize && d.raw_total_a) {
    // Largest remainder: floor(a * B / A) each, then +1 to the largest remainders.
    const unsigned __int128 ta = d.raw_total_a, tb = d.total_b;
    std::vector<std::pair<uint64_t, size_t>> rem;  // (remainder, line)
    uint64_t given = 0;
    for (size_t k = 0; k < d.line_a.size(); ++k) {
      unsigned __int128 x = static_cast<unsigned __int128>(d.line_a[k]) * tb;
      d.line_a[k] = static_cast<uint64_t>(x / ta);
      given += d.line_a[k];
      uint64_t r = static_cast<uint64_t>(x % ta);
      if (r) rem.emplace_back(r, k);
    }
    std::stable_sort(rem.begin(), rem.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (size_t k = 0; given < d.total_b && k < rem.size(); ++k, ++given) d.line_a[rem[k].second] += 1;
    d.total_a = given;
    for (size_t k = 0; k < d.line_node.size(); ++k) t.self_a[static_cast<size_t>(d.line_node[k])] = d.line_a[k];
  }
  // Totals bottom-up (children come after their parents).
  t.total_a = t.self_a;
  t.total_b = t.self_b;
  for (size_t n = t.size(); n-- > 1;) {
    t.total_a[static_cast<size_t>(t.parent[n])] += t.total_a[n];
    t.total_b[static_cast<size_t>(t.parent[n])] += t.total_b[n];
  }
  // Functions: self from the nodes, total once per line that has the function (recursion counts once).
  std::vector<DiffFunction> fn(d.funcs.size());
  for (size_t f = 0; f < fn.size(); ++f) fn[f].func = static_cast<int32_t>(f);
  for (size_t n = 1; n < t.size(); ++n) {
    DiffFunction& x = fn[static_cast<size_t>(t.func[n])];
    x.self_a += t.self_a[n];
    x.self_b += t.self_b[n];
  }
  std::vector<uint32_t> seen(d.funcs.size(), 0);
  for (size_t k = 0; k < d.line_node.size(); ++k) {
    const uint32_t stamp = static_cast<uint32_t>(k + 1);
    for (int32_t n = d.line_node[k]; n > 0; n = t.parent[static_cast<size_t>(n)]) {
      const size_t f = static_cast<size_t>(t.func[static_cast<size_t>(n)]);
      if (seen[f] == stamp) continue;
      seen[f] = stamp;
      fn[f].total_a += d.line_a[k];
      fn[f].total_b += d.line_b[k];
    }
  }
  for (DiffFunction& x : fn) {
    if (!x.total_a && !x.total_b) continue;
    x.delta_self = static_cast<int64_t>(x.self_b) - static_cast<int64_t>(x.self_a);
    x.delta_total = static_cast<int64_t>(x.total_b) - static_cast<int64_t>(x.total_a);
    x.delta_self_pct = Pct(x.self_a, x.delta_self);
    x.delta_total_pct = Pct(x.total_a, x.delta_total);
    d.functions.push_back(x);
  }
  std::sort(d.functions.begin(), d.functions.end(), [&](const DiffFunction& x, const DiffFunction& y) {
    uint64_t ax = static_cast<uint64_t>(std::llabs(x.delta_self)), ay = static_cast<uint64_t>(std::llabs(y.delta_self));
    if (ax != ay) return ax > ay;
    ax = static_cast<uint64_t>(std::llabs(x.delta_total));
    ay = static_cast<uint64_t>(std::llabs(y.delta_total));
    if (ax != ay) return ax > ay;
    const std::string& lx = d.funcs.label[static_cast<size_t>(x.func)];
    const std::string& ly = d.funcs.label[static_cast<size_t>(y.func)];
    if (lx != ly) return lx < ly;
    return x.func < y.func;
  });
  return d;
}

}  // namespace profscope
