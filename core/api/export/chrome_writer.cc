#include "core/api/export/chrome_writer.h"

#include <algorithm>
#include <map>

#include "core/model/interval_view.h"

namespace profscope::exporter {

namespace {

// One complete ("X") event before sorting.
struct Slice {
  int32_t thread;   // thread row (or the number of threads for "no thread")
  int32_t depth;
  uint64_t start, dur;  // ns since the origin
  int32_t name;     // string id
  uint64_t samples; // samples merged (0 for exact calls)
};

// The flame chart's gap rule (web/src/views/flame-chart/chart-model.js typicalGap):
// the median of up to ~2000 evenly spaced deltas; a sample lasts until the next
// one, at most 4 gaps.
uint64_t TypicalGap(const std::vector<uint64_t>& t) {
  const size_t n = t.size();
  if (n < 2) return 1;
  const size_t step = std::max<size_t>(1, (n - 1) / 2000);
  std::vector<uint64_t> d;
  for (size_t i = 1; i < n; i += step) d.push_back(t[i] - t[i - 1]);
  std::sort(d.begin(), d.end());
  return std::max<uint64_t>(d[d.size() >> 1], 1);
}

void AppendEventHead(std::string& o, const char* ph, int32_t pid, int32_t tid) {
  o += "{\"ph\":\"";
  o += ph;
  o += "\",\"pid\":";
  AppendInt(o, pid);
  o += ",\"tid\":";
  AppendInt(o, tid);
}

}  // namespace

Output WriteChrome(const DecodeResult& res, const Options& opts) {
  // Trace Event Format (Chrome's catapult docs; Perfetto's json trace parser):
  // {"traceEvents":[{"ph":"X","ts":us,"dur":us,"pid","tid","name","cat","args"}...]}.
  Output out;
  const Profile& p = res.profile;
  if (opts.weight != Weight::kSamples) {
    out.error = "a trace has times, not weights: use --weight samples";
    return out;
  }
  int32_t want = kNone;
  if (!FindEvent(p, opts.event, &want)) {
    out.error = "no event named " + opts.event;
    return out;
  }
  const TimeBase tb(res);
  const size_t nthreads = p.threads.size();
  std::vector<Slice> slices;
  const bool exact = p.intervals.size() > 0;
  if (exact) {
    // XRay: every call with its exact enter/exit.
    const IntervalView iv(p);
    for (size_t i = 0; i < iv.size(); ++i) {
      const int32_t t = iv.thread(i);
      int32_t th = t >= 0 && static_cast<size_t>(t) < nthreads ? t : static_cast<int32_t>(nthreads);
      int32_t f = iv.func(i);
      int32_t name = f >= 0 && static_cast<size_t>(f) < p.funcs.name.size() ? p.funcs.name[static_cast<size_t>(f)] : kNone;
      uint64_t s = tb.Rel(iv.start(i));
      uint64_t e = tb.Rel(iv.end(i));
      slices.push_back(Slice{th, iv.depth(i), s, e > s ? e - s : 0, name, 0});
    }
  } else {
    bool any_time = false;
    for (size_t i = 0; i < p.samples.size() && !any_time; ++i) any_time = p.samples.time[i] != 0;
    if (!any_time && p.samples.size()) {
      out.error = "the samples of this profile have no times (" + res.format + "): a trace needs them; use speedscope, pprof or folded";
      return out;
    }
    // Sampled: per thread, runs of consecutive samples sharing a frame (by function name)
    // at a depth, from the root down, merge into one slice, as the flame chart draws them.
    auto by_thread = SamplesByThread(p, want);
    std::vector<int32_t> chain;
    struct Open { int32_t name; uint64_t start, samples; };
    for (size_t t = 0; t < by_thread.size(); ++t) {
      const auto& rows = by_thread[t];
      if (rows.empty()) continue;
      std::vector<uint64_t> times(rows.size());
      for (size_t k = 0; k < rows.size(); ++k) times[k] = tb.Rel(p.samples.time[rows[k]]);
      const uint64_t gap = TypicalGap(times);
      std::vector<Open> open;
      uint64_t prev_end = 0;
      auto close_from = [&](size_t d, uint64_t at) {
        while (open.size() > d) {
          const Open& o = open.back();
          slices.push_back(Slice{static_cast<int32_t>(t), static_cast<int32_t>(open.size() - 1), o.start,
                                 at > o.start ? at - o.start : 0, o.name, o.samples});
          open.pop_back();
        }
      };
      for (size_t k = 0; k < rows.size(); ++k) {
        const uint32_t i = rows[k];
        const uint64_t s = times[k];
        const uint64_t next = k + 1 < rows.size() ? times[k + 1] : UINT64_MAX;
        const uint64_t e = std::min(next, SatAdd(s, SatMul(4, gap)));
        if (k && prev_end < s) close_from(0, prev_end);
        StackFrames(p, p.samples.stack[i], chain);
        size_t same = 0;
        while (same < open.size() && same < chain.size()) {
          int32_t f = p.frames.func[static_cast<size_t>(chain[same])];
          int32_t nm = f >= 0 ? p.funcs.name[static_cast<size_t>(f)] : kNone;
          if (nm != open[same].name) break;
          ++same;
        }
        close_from(same, s);
        for (size_t d = same; d < chain.size(); ++d) {
          int32_t f = p.frames.func[static_cast<size_t>(chain[d])];
          open.push_back(Open{f >= 0 ? p.funcs.name[static_cast<size_t>(f)] : kNone, s, 0});
        }
        for (Open& o : open) o.samples += p.samples.Count(i);
        prev_end = e;
      }
      close_from(0, prev_end);
    }
  }
  std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    if (a.thread != b.thread) return a.thread < b.thread;
    if (a.start != b.start) return a.start < b.start;
    return a.depth < b.depth;
  });

  std::string& o = out.bytes;
  o = "{\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&]() {
    if (!first) o += ",\n";
    first = false;
  };
  auto pid_of = [&](int32_t t) { return static_cast<size_t>(t) < nthreads ? p.threads.pid[static_cast<size_t>(t)] : 0; };
  auto tid_of = [&](int32_t t) { return static_cast<size_t>(t) < nthreads ? p.threads.tid[static_cast<size_t>(t)] : 0; };
  // Metadata: a name per process (its main thread's) and per thread that has events.
  std::vector<bool> used(nthreads + 1, false);
  for (const Slice& s : slices) used[static_cast<size_t>(s.thread)] = true;
  for (size_t m = 0; m < p.markers.size(); ++m)
    if (p.markers.time[m] && p.markers.thread[m] >= 0 && static_cast<size_t>(p.markers.thread[m]) < nthreads)
      used[static_cast<size_t>(p.markers.thread[m])] = true;
  std::map<int32_t, std::string> processes;
  for (size_t t = 0; t < nthreads; ++t)
    if (used[t]) processes.emplace(p.threads.pid[t], "");
  for (size_t t = 0; t < nthreads; ++t) {
    auto it = processes.find(p.threads.pid[t]);
    if (it != processes.end() && p.threads.tid[t] == p.threads.pid[t]) it->second = ThreadName(p, static_cast<int32_t>(t));
  }
  for (const auto& [pid, name] : processes) {
    sep();
    AppendEventHead(o, "M", pid, pid);
    o += ",\"name\":\"process_name\",\"args\":{\"name\":";
    AppendQuoted(o, name.empty() ? "process " + std::to_string(pid) : name);
    o += "}}";
  }
  for (size_t t = 0; t < nthreads; ++t) {
    if (!used[t]) continue;
    std::string name = ThreadName(p, static_cast<int32_t>(t));
    sep();
    AppendEventHead(o, "M", p.threads.pid[t], p.threads.tid[t]);
    o += ",\"name\":\"thread_name\",\"args\":{\"name\":";
    AppendQuoted(o, name.empty() ? "thread " + std::to_string(p.threads.tid[t]) : name);
    o += "}}";
  }
  for (const Slice& s : slices) {
    sep();
    AppendEventHead(o, "X", pid_of(s.thread), tid_of(s.thread));
    o += ",\"ts\":";
    AppendMicros(o, s.start);
    o += ",\"dur\":";
    AppendMicros(o, s.dur);
    o += ",\"name\":";
    AppendQuoted(o, s.name == kNone ? std::string("[unknown]") : p.strings.Get(s.name));
    o += exact ? ",\"cat\":\"call\"" : ",\"cat\":\"samples\",\"args\":{\"samples\":";
    if (!exact) {
      AppendNum(o, s.samples);
      o += '}';
    }
    o += '}';
  }
  // Markers with a time: instant events on their thread (global when they have none).
  for (size_t m = 0; m < p.markers.size(); ++m) {
    if (p.markers.time[m] == 0) continue;
    int32_t th = p.markers.thread[m];
    bool on_thread = th >= 0 && static_cast<size_t>(th) < nthreads;
    sep();
    AppendEventHead(o, "i", on_thread ? pid_of(th) : 0, on_thread ? tid_of(th) : 0);
    o += on_thread ? ",\"s\":\"t\"" : ",\"s\":\"g\"";
    o += ",\"ts\":";
    AppendMicros(o, tb.Rel(p.markers.time[m]));
    o += ",\"name\":";
    AppendQuoted(o, p.strings.Get(p.markers.kind[m]));
    o += ",\"cat\":\"marker\",\"args\":{\"label\":";
    AppendQuoted(o, p.markers.label[m] == kNone ? std::string() : p.strings.Get(p.markers.label[m]));
    o += "}}";
  }
  o += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"profscope\",\"format\":";
  AppendQuoted(o, res.format);
  o += "}}\n";
  return out;
}

}  // namespace profscope::exporter
