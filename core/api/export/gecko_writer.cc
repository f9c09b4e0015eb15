#include "core/api/export/gecko_writer.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/io/keyed_hash.h"
#include "core/model/fields.h"

namespace profscope::exporter {

namespace {

// More sample rows than this (after expanding gperftools counts) are refused:
// the Gecko format has one row per sample and no weights.
constexpr uint64_t kMaxGeckoSamples = 10'000'000;

// One Gecko thread: its own string, frame and stack tables (the Firefox
// Profiler's src/types/gecko-profile.ts GeckoThread).
struct GeckoThread {
  std::string strings, frames, stacks, samples, markers;
  size_t nstrings = 0, nframes = 0, nstacks = 0, nsamples = 0, nmarkers = 0;
  std::unordered_map<std::string, int32_t, KeyedStringHash> string_ids;
  std::map<std::pair<int32_t, int64_t>, int32_t> frame_ids;  // (location string, line)
  std::unordered_map<int32_t, int32_t, KeyedIntHash> stack_ids;            // profile stack -> gecko stack

  int32_t String(const std::string& s) {
    auto it = string_ids.find(s);
    if (it != string_ids.end()) return it->second;
    if (nstrings++) strings += ',';
    AppendQuoted(strings, s);
    int32_t id = static_cast<int32_t>(nstrings - 1);
    string_ids.emplace(s, id);
    return id;
  }
};

}  // namespace

Output WriteGecko(const DecodeResult& res, const Options& opts) {
  Output out;
  const Profile& p = res.profile;
  if (opts.weight != Weight::kSamples) {
    out.error = "the Gecko format has one row per sample and no weights: use --weight samples";
    return out;
  }
  int32_t want = kNone;
  if (!FindEvent(p, opts.event, &want)) {
    out.error = "no event named " + opts.event;
    return out;
  }
  uint64_t rows = 0;
  for (size_t i = 0; i < p.samples.size(); ++i)
    if (EventPasses(want, p.samples.event[i])) rows += p.samples.Count(i);
  if (rows > kMaxGeckoSamples) {
    out.error = "too many samples for the Gecko format (" + std::to_string(rows) + ", at most " +
                std::to_string(kMaxGeckoSamples) + ")";
    return out;
  }
  const TimeBase tb(res);
  const FrameSources src = SourcesOf(p);
  auto by_thread = SamplesByThread(p, want);
  const size_t nthreads = p.threads.size();
  std::vector<GeckoThread> gt(nthreads + 1);

  // Typical sampling interval (median gap on the busiest thread), for meta.interval.
  uint64_t interval_ns = 1000000;
  {
    size_t best = 0;
    for (size_t t = 1; t < by_thread.size(); ++t)
      if (by_thread[t].size() > by_thread[best].size()) best = t;
    std::vector<uint64_t> gaps;
    const auto& v = by_thread[best];
    for (size_t k = 1; k < v.size(); ++k) {
      uint64_t a = tb.Rel(p.samples.time[v[k - 1]]), b = tb.Rel(p.samples.time[v[k]]);
      if (b > a) gaps.push_back(b - a);
    }
    if (!gaps.empty()) {
      std::nth_element(gaps.begin(), gaps.begin() + static_cast<ptrdiff_t>(gaps.size() / 2), gaps.end());
      interval_ns = std::max<uint64_t>(gaps[gaps.size() / 2], 1000);
    }
  }

  std::vector<int32_t> chain;
  for (size_t t = 0; t <= nthreads; ++t) {
    GeckoThread& g = gt[t];
    for (uint32_t i : by_thread[t]) {
      // the sample's stack, interned prefix first
      int32_t gs = -1;
      int32_t st = p.samples.stack[i];
      if (st != kNone) {
        chain.clear();
        for (int32_t k = st; k != kNone && !g.stack_ids.count(k); k = p.stacks.prefix[static_cast<size_t>(k)]) chain.push_back(k);
        for (size_t j = chain.size(); j-- > 0;) {
          const int32_t k = chain[j];
          const int32_t pre = p.stacks.prefix[static_cast<size_t>(k)];
          const int32_t gpre = pre == kNone ? -1 : g.stack_ids.at(pre);
          const int32_t fr = p.stacks.frame[static_cast<size_t>(k)];
          const int32_t func = p.frames.func[static_cast<size_t>(fr)];
          const int32_t mp = p.frames.mapping[static_cast<size_t>(fr)];
          // gecko.py's location string: "name (in module)"
          std::string loc = FuncName(p, func);
          std::string mod = ModuleName(p, mp);
          if (!mod.empty()) loc += " (in " + mod + ")";
          const int64_t line = src.line[static_cast<size_t>(fr)];
          const int32_t sid = g.String(loc);
          auto fit = g.frame_ids.find({sid, line});
          if (fit == g.frame_ids.end()) {
            fit = g.frame_ids.emplace(std::make_pair(sid, line), static_cast<int32_t>(g.nframes)).first;
            if (g.nframes++) g.frames += ',';
            // [location, relevantForJS, innerWindowID, implementation, optimizations, line, column, category, subcategory]
            g.frames += '[';
            AppendNum(g.frames, static_cast<uint64_t>(sid));
            g.frames += ",false,0,null,null,";
            if (line > 0) AppendInt(g.frames, line);
            else g.frames += "null";
            g.frames += ",null,";
            g.frames += IsKernelMapping(p, mp) ? '1' : '0';
            g.frames += ",0]";
          }
          const int32_t id = static_cast<int32_t>(g.nstacks);
          if (g.nstacks++) g.stacks += ',';
          g.stacks += '[';
          if (gpre < 0) g.stacks += "null";
          else AppendNum(g.stacks, static_cast<uint64_t>(gpre));
          g.stacks += ',';
          AppendNum(g.stacks, static_cast<uint64_t>(fit->second));
          g.stacks += ']';
          g.stack_ids.emplace(k, id);
        }
        gs = g.stack_ids.at(st);
      }
      std::string row = "[";
      if (gs < 0) row += "null";
      else AppendNum(row, static_cast<uint64_t>(gs));
      row += ',';
      AppendMillis(row, tb.Rel(p.samples.time[i]));
      row += ",0]";
      for (uint64_t c = p.samples.Count(i); c > 0; --c) {
        if (g.nsamples++) g.samples += ',';
        g.samples += row;
      }
    }
  }
  // Markers with a time, on their thread (thread-less ones on a "markers" thread).
  for (size_t m = 0; m < p.markers.size(); ++m) {
    if (p.markers.time[m] == 0) continue;
    int32_t th = p.markers.thread[m];
    size_t t = th >= 0 && static_cast<size_t>(th) < nthreads ? static_cast<size_t>(th) : nthreads;
    GeckoThread& g = gt[t];
    // [name, startTime, endTime, phase (0 = instant), category, data]
    if (g.nmarkers++) g.markers += ',';
    g.markers += '[';
    AppendNum(g.markers, static_cast<uint64_t>(g.String(p.strings.Get(p.markers.kind[m]))));
    g.markers += ',';
    AppendMillis(g.markers, tb.Rel(p.markers.time[m]));
    g.markers += ",null,0,0,{\"type\":\"Text\",\"name\":";
    AppendQuoted(g.markers, p.markers.label[m] == kNone ? std::string() : p.strings.Get(p.markers.label[m]));
    g.markers += "}]";
  }

  std::string& o = out.bytes;
  o = "{\"meta\":{\"interval\":";
  AppendMillis(o, interval_ns);
  o += ",\"processType\":0,\"product\":";
  AppendQuoted(o, "profscope (" + res.format + ")");
  o += ",\"stackwalk\":1,\"debug\":0,\"gcpoison\":0,\"asyncstack\":1,\"startTime\":";
  AppendMillis(o, tb.OriginNs());
  o += ",\"shutdownTime\":null,\"version\":24,\"presymbolicated\":true,"
       "\"categories\":[{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
       "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}],"
       "\"markerSchema\":[{\"name\":\"Text\",\"display\":[\"marker-chart\",\"marker-table\"],"
       "\"chartLabel\":\"{marker.data.name}\",\"tableLabel\":\"{marker.name} - {marker.data.name}\","
       "\"data\":[{\"key\":\"name\",\"label\":\"Details\",\"format\":\"string\",\"searchable\":true}]}]},"
       "\"libs\":[],\"threads\":[";
  size_t written = 0;
  for (size_t t = 0; t <= nthreads; ++t) {
    GeckoThread& g = gt[t];
    if (!g.nsamples && !g.nmarkers) continue;
    if (written++) o += ',';
    std::string name = t < nthreads ? ThreadName(p, static_cast<int32_t>(t)) : std::string("markers");
    if (name.empty()) name = t < nthreads ? "thread " + std::to_string(p.threads.tid[t]) : "markers";
    o += "{\"name\":";
    AppendQuoted(o, name);
    o += ",\"tid\":";
    AppendInt(o, t < nthreads ? p.threads.tid[t] : 0);
    o += ",\"pid\":";
    AppendInt(o, t < nthreads ? p.threads.pid[t] : 0);
    o += ",\"processType\":\"default\",\"registerTime\":0,\"unregisterTime\":null,"
         "\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,\"category\":4,\"data\":5},\"data\":[" +
         g.markers + "]},\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"responsiveness\":2},\"data\":[" + g.samples +
         "]},\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,\"implementation\":3,"
         "\"optimizations\":4,\"line\":5,\"column\":6,\"category\":7,\"subcategory\":8},\"data\":[" + g.frames +
         "]},\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[" + g.stacks + "]},\"stringTable\":[" +
         g.strings + "]}";
    g = GeckoThread();  // free as we go
  }
  o += "],\"processes\":[],\"pausedRanges\":[]}\n";
  return out;
}

}  // namespace profscope::exporter
