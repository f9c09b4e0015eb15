#include "core/api/export/folded_writer.h"

#include <algorithm>
#include <map>

#include "core/api/output_sink.h"
#include "core/model/fields.h"

namespace profscope::exporter {

namespace {

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
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (p.samples.event[i] != want) continue;
    int32_t th = p.samples.thread[i];
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
    int32_t st = p.samples.stack[i];
    if (st >= 0) st = p.stacks.prefix[static_cast<size_t>(st)];  // drop the sample's own frame
    const double w = p.samples.weight[i];  // truncated; saturated (a double >= 2^64 has no u64)
    per[{name, st}] += w >= 18446744073709551616.0 ? UINT64_MAX : w > 0 ? static_cast<uint64_t>(w) : 0;
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
      else line += p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(frame)])]);
    }
    folded[line] += n;
  }
  WriteFolded(folded, out);
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
    const double w = i < p.samples.weight.size() ? p.samples.weight[i] : 0.0;
    const uint64_t v = w >= 18446744073709551616.0 ? UINT64_MAX : w > 0 ? static_cast<uint64_t>(w) : 0;
    uint64_t& sum = per_stack[static_cast<size_t>(s)];
    sum = UINT64_MAX - sum < v ? UINT64_MAX : sum + v;  // saturated
  }
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
      else line += p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(frame)])]);
    }
    folded[line] += per_stack[s];
  }
  WriteFolded(folded, out);
}

}  // namespace profscope::exporter
