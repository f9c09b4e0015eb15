#include "core/api/export/folded_writer.h"

#include <algorithm>
#include <map>

#include "core/api/output_sink.h"
#include "core/model/fields.h"

namespace profscope::exporter {

namespace {

// A frame's function name in folded stacks ("[unknown]" where the producer's tool says so).
const std::string& FrameName(const Profile& p, int32_t frame) {
  static const std::string kUnknown = "[unknown]";
  const size_t f = static_cast<size_t>(p.frames.func[static_cast<size_t>(frame)]);
  if (f < p.funcs.unknown.size() && p.funcs.unknown[f]) return kUnknown;
  return p.strings.Get(p.funcs.name[f]);
}

void WriteFolded(const std::map<std::string, uint64_t>& folded, OutputSink& out) {
  for (const auto& [line, n] : folded) {
    out.Write(line);
    out.Write(" " + Dec(n) + "\n");
  }
}

void ThreadRootStacks(const DecodeResult& res, bool addresses, int32_t want, OutputSink& out) {
  // simpleperf's stackcollapse.py: "comm;caller..;callee period" where comm is
  // the thread's name when the sample was taken and the callchain is
  // report_lib's GetCallChainOfCurrentSample (it starts at the caller: the
  // sample's own frame is not printed); without --event-filter only the
  // first sample's event is kept; lines sorted.
  const Profile& p = res.profile;
  if (p.samples.size() == 0) return;
  if (want == kNone) want = p.samples.event[0];
  // Per thread: its names over time, in time order (file order among equal times).
  std::vector<std::vector<std::pair<uint64_t, int32_t>>> names(p.threads.size());
  for (size_t k = 0; k < p.thread_names.thread.size(); ++k) {
    int32_t th = p.thread_names.thread[k];
    if (th >= 0 && static_cast<size_t>(th) < names.size()) names[static_cast<size_t>(th)].push_back({p.thread_names.time[k], p.thread_names.name[k]});
  }
  for (auto& v : names)
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // Each thread's process row (the thread whose tid is the pid), kNone for the process itself.
  std::map<int32_t, int32_t> main_of;
  for (size_t t = 0; t < p.threads.size(); ++t)
    if (p.threads.tid[t] == p.threads.pid[t]) main_of.emplace(p.threads.pid[t], static_cast<int32_t>(t));
  std::vector<int32_t> process_row(p.threads.size(), kNone);
  for (size_t t = 0; t < p.threads.size(); ++t) {
    auto it = main_of.find(p.threads.pid[t]);
    if (it != main_of.end() && it->second != static_cast<int32_t>(t)) process_row[t] = it->second;
  }
  const int32_t unknown = kNone - 1;  // rendered as "unknown"
  // Sum periods per (root name, stack), then render each pair once.
  std::map<std::pair<int32_t, int32_t>, uint64_t> per;
  SampleCursor rows(p.samples);
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (rows.event(i) != want) continue;
    int32_t th = rows.thread(i);
    int32_t name = kNone;
    if (th >= 0 && static_cast<size_t>(th) < names.size()) {
      const uint64_t t = p.samples.time[i];
      auto at = [&](int32_t row) {  // the row's name at t, else kNone
        const auto& v = names[static_cast<size_t>(row)];
        auto it = std::upper_bound(v.begin(), v.end(), t,
                                   [](uint64_t x, const std::pair<uint64_t, int32_t>& e) { return x < e.first; });
        return it == v.begin() ? kNone : std::prev(it)->second;
      };
      // The thread's own name then; else its process's (simpleperf's
      // ThreadTree gives a new thread its process's comm); else the latest
      // name either had; else simpleperf's "unknown".
      int32_t proc = process_row[static_cast<size_t>(th)];
      name = at(th);
      if (name == kNone && proc != kNone) name = at(proc);
      if (name == kNone) name = p.threads.name[static_cast<size_t>(th)];
      if (name == kNone && proc != kNone) name = p.threads.name[static_cast<size_t>(proc)];
      if (name == kNone) name = unknown;
    }
    int32_t st = rows.stack(i);
    if (st >= 0) st = p.stacks.prefix[static_cast<size_t>(st)];  // drop the sample's own frame
    per[{name, st}] += rows.weight(i);
  }
  std::map<std::string, uint64_t> folded;
  std::vector<int32_t> chain;
  for (const auto& [key, n] : per) {
    std::string line = key.first == unknown ? std::string("unknown") : key.first == kNone ? std::string() : p.strings.Get(key.first);
    chain.clear();
    for (int32_t k = key.second; k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) chain.push_back(k);
    for (size_t j = chain.size(); j-- > 0;) {
      int32_t frame = p.stacks.frame[static_cast<size_t>(chain[j])];
      line += ';';
      if (addresses) line += Hex(p.frames.address[static_cast<size_t>(frame)]);
      else line += FrameName(p, frame);
    }
    folded[line] += n;
  }
  WriteFolded(folded, out);
}

// Every distinct stack rendered whole into a sorted map, then written: memory
// grows with the whole output (a 20 000-deep recursion's 600 MB). Used only
// where WriteSortedTrie cannot give the same bytes.
void WriteRendered(const Profile& p, bool addresses, const std::vector<uint64_t>& per_stack, OutputSink& out) {
  std::map<std::string, uint64_t> folded;
  std::vector<int32_t> chain;
  for (size_t s = 0; s < per_stack.size(); ++s) {
    if (!per_stack[s]) continue;
    chain.clear();
    for (int32_t k = static_cast<int32_t>(s); k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) chain.push_back(k);
    std::string line;
    for (size_t j = chain.size(); j-- > 0;) {
      int32_t frame = p.stacks.frame[static_cast<size_t>(chain[j])];
      if (!line.empty()) line += ';';
      if (addresses) line += Hex(p.frames.address[static_cast<size_t>(frame)]);
      else line += FrameName(p, frame);
    }
    folded[line] += per_stack[s];
  }
  WriteFolded(folded, out);
}

// The same lines in the same (byte-wise sorted) order, written as they are
// made: a depth-first walk of the stack tree whose siblings are merged by name
// and visited in the order their lines sort in. A line "P;name" sorts before
// every "P;name;..." line, and "P;name;..." lines sort as the key "name;"
// among their siblings' keys ("name" for the line ending there), so each
// level's keys, sorted, give the output order. Memory: the tree's live
// nodes and the current line, not the output. False (nothing written) when
// that order would differ from the rendered map's: a name that is empty or
// holds ';', or a stack node before its prefix.
bool WriteSortedTrie(const Profile& p, bool addresses, const std::vector<uint64_t>& per_stack, OutputSink& out) {
  const size_t n = per_stack.size();
  const std::vector<int32_t>& prefix = p.stacks.prefix;
  // live: the node or a node below it has a value; below: a node below it has one.
  std::vector<uint8_t> live(n, 0), below(n, 0);
  for (size_t s = n; s-- > 0;) {
    if (per_stack[s]) live[s] = 1;
    if (!live[s]) continue;
    int32_t up = prefix[s];
    if (up == kNone) continue;
    if (up < 0 || static_cast<size_t>(up) >= s) return false;
    live[static_cast<size_t>(up)] = 1;
    below[static_cast<size_t>(up)] = 1;
  }
  auto name_of = [&](size_t s, std::string& hex) -> std::string_view {
    int32_t frame = p.stacks.frame[s];
    if (addresses) {
      hex = Hex(p.frames.address[static_cast<size_t>(frame)]);
      return hex;
    }
    return FrameName(p, frame);
  };
  // Names that would sort or join differently as whole lines: use the rendered map.
  {
    std::string hex;
    for (size_t s = 0; s < n; ++s) {
      if (!live[s]) continue;
      std::string_view nm = name_of(s, hex);
      if (nm.empty() || nm.find(';') != std::string_view::npos) return false;
    }
  }
  // Children of each live node (CSR); roots under index n.
  std::vector<uint32_t> first(n + 2, 0);
  for (size_t s = 0; s < n; ++s)
    if (live[s]) ++first[(prefix[s] == kNone ? n : static_cast<size_t>(prefix[s])) + 1];
  for (size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
  std::vector<int32_t> kids(first.back());
  {
    std::vector<uint32_t> at(first.begin(), first.end() - 1);
    for (size_t s = 0; s < n; ++s)
      if (live[s]) kids[at[prefix[s] == kNone ? n : static_cast<size_t>(prefix[s])]++] = static_cast<int32_t>(s);
  }
  std::vector<uint8_t>().swap(live);
  // One level of the walk: the merged siblings' keys, sorted, and the stack
  // nodes each merged sibling stands for.
  struct Item {
    std::string key;    // name, or name + ';' for the lines below it
    size_t name_len;
    bool below;         // the lines below (else the line ending here)
    uint64_t value;
    uint32_t from, to;  // nodes[from, to): the stack nodes merged into this name
  };
  struct Level {
    std::vector<int32_t> nodes;
    std::vector<Item> items;
    size_t next = 0;
    size_t line_len = 0;
  };
  std::vector<Level> levels;
  auto open = [&](const int32_t* parents, size_t count, size_t line_len) {
    Level lv;
    lv.line_len = line_len;
    std::string hex;
    std::vector<std::pair<std::string, int32_t>> named;
    for (size_t i = 0; i < count; ++i) {
      size_t up = parents[i] < 0 ? n : static_cast<size_t>(parents[i]);
      for (uint32_t k = first[up]; k < first[up + 1]; ++k) {
        int32_t c = kids[k];
        named.emplace_back(std::string(name_of(static_cast<size_t>(c), hex)), c);
      }
    }
    std::sort(named.begin(), named.end());
    lv.nodes.reserve(named.size());
    for (size_t i = 0; i < named.size();) {
      size_t j = i;
      uint64_t value = 0;
      bool any = false, more = false;
      uint32_t from = static_cast<uint32_t>(lv.nodes.size());
      for (; j < named.size() && named[j].first == named[i].first; ++j) {
        size_t c = static_cast<size_t>(named[j].second);
        value += per_stack[c];
        any = any || per_stack[c] != 0;
        more = more || below[c];
        lv.nodes.push_back(named[j].second);
      }
      uint32_t to = static_cast<uint32_t>(lv.nodes.size());
      if (any) lv.items.push_back(Item{named[i].first, named[i].first.size(), false, value, from, to});
      if (more) lv.items.push_back(Item{named[i].first + ';', named[i].first.size(), true, 0, from, to});
      i = j;
    }
    std::sort(lv.items.begin(), lv.items.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
    levels.push_back(std::move(lv));
  };
  const int32_t root = kNone;
  open(&root, 1, 0);
  std::string line;
  while (!levels.empty()) {
    Level& lv = levels.back();
    if (lv.next == lv.items.size()) {
      levels.pop_back();
      continue;
    }
    const Item& it = lv.items[lv.next++];
    line.resize(lv.line_len);
    if (!line.empty()) line += ';';
    line.append(it.key, 0, it.name_len);
    if (!it.below) {
      out.Write(line);
      out.Write(" " + Dec(it.value) + "\n");
      continue;
    }
    // `lv` may move when the next level is pushed: copy what open() reads.
    std::vector<int32_t> group(lv.nodes.begin() + it.from, lv.nodes.begin() + it.to);
    open(group.data(), group.size(), line.size());
  }
  return true;
}

}  // namespace

std::string FoldedStacks(const DecodeResult& res, bool addresses, const std::string& event, bool weighted) {
  return Collect([&](OutputSink& sink) { WriteFoldedStacks(res, addresses, event, sink, weighted); });
}

void WriteFoldedStacks(const DecodeResult& res, bool addresses, const std::string& event, OutputSink& out, bool weighted) {
  const Profile& p = res.profile;
  int32_t want = kNone;
  if (!event.empty()) {
    for (size_t e = 0; e < p.events.size(); ++e)
      if (p.strings.Get(p.events.name[e]) == event) { want = static_cast<int32_t>(e); break; }
    if (want == kNone) return;
  }
  if (res.stacks_thread_root) return ThreadRootStacks(res, addresses, want, out);
  // Count samples (or sum their weights, each truncated) per stack, then render each distinct stack once.
  std::vector<uint64_t> per_stack(p.stacks.frame.size(), 0);
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (want != kNone && p.samples.event[i] != want) continue;
    int32_t s = p.samples.stack[i];
    if (s < 0) continue;
    if (!weighted) {
      per_stack[static_cast<size_t>(s)] += p.samples.Count(i);
      continue;
    }
    const uint64_t v = i < p.samples.weight.size() ? p.samples.weight[i] : 0;
    uint64_t& sum = per_stack[static_cast<size_t>(s)];
    sum = UINT64_MAX - sum < v ? UINT64_MAX : sum + v;  // saturated
  }
  if (!WriteSortedTrie(p, addresses, per_stack, out)) WriteRendered(p, addresses, per_stack, out);
}

}  // namespace profscope::exporter
