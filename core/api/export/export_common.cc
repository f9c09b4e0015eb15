#include "core/api/export/export_common.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/analysis/sample_lanes.h"
#include "core/io/keyed_hash.h"
#include "core/model/fields.h"
#include "core/model/interval_view.h"

namespace profscope::exporter {

namespace {

struct NamePair {
  Format f;
  const char* name;
};
constexpr NamePair kFormats[] = {{Format::kFolded, "folded"},
                                 {Format::kSpeedscope, "speedscope"},
                                 {Format::kGecko, "gecko"},
                                 {Format::kPprof, "pprof"},
                                 {Format::kChrome, "chrome"}};

bool IsClockEvent(const std::string& name) {
  // perf's software clock events count ns in their period (kernel/events/core.c cpu_clock_event_*).
  std::string base = name.substr(0, name.find(':'));
  return base == "cpu-clock" || base == "task-clock";
}

}  // namespace

bool ParseFormat(const std::string& s, Format* out) {
  for (const auto& f : kFormats)
    if (s == f.name) { *out = f.f; return true; }
  return false;
}

const char* FormatName(Format f) {
  for (const auto& x : kFormats)
    if (x.f == f) return x.name;
  return "";
}

bool ParseWeight(const std::string& s, Weight* out) {
  if (s == "samples") *out = Weight::kSamples;
  else if (s == "period") *out = Weight::kPeriod;
  else if (s == "time") *out = Weight::kTime;
  else return false;
  return true;
}

const char* WeightName(Weight w) {
  return w == Weight::kSamples ? "samples" : w == Weight::kPeriod ? "period" : "time";
}

TimeBase::TimeBase(const DecodeResult& res) : hz_(res.clock_hz) {
  const Profile& p = res.profile;
  uint64_t lo = UINT64_MAX;
  auto scan = [&](const std::vector<uint64_t>& v) {
    for (uint64_t t : v)
      if (t != 0 && t < lo) lo = t;
  };
  scan(p.samples.time);
  scan(p.intervals.start);  // (those kept; the others are the samples')
  scan(p.markers.time);
  origin_ = lo == UINT64_MAX ? 0 : lo;
}

uint64_t TimeBase::ToNs(uint64_t ticks) const {
  if (hz_ == 0 || hz_ == 1000000000ULL) return ticks;
  // ticks * 1e9 / hz, exactly (rounded down), without overflow.
  unsigned __int128 v = static_cast<unsigned __int128>(ticks) * 1000000000ULL / hz_;
  return v > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(v);
}

void AppendNum(std::string& out, uint64_t v) {
  char buf[24];
  size_t k = sizeof buf;
  do {
    buf[--k] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  out.append(buf + k, sizeof buf - k);
}

void AppendInt(std::string& out, int64_t v) {
  if (v < 0) {
    out += '-';
    AppendNum(out, static_cast<uint64_t>(0) - static_cast<uint64_t>(v));
  } else {
    AppendNum(out, static_cast<uint64_t>(v));
  }
}

void AppendScaled(std::string& out, uint64_t ns, int digits) {
  uint64_t div = 1;
  for (int i = 0; i < digits; ++i) div *= 10;
  AppendNum(out, ns / div);
  uint64_t frac = ns % div;
  if (!frac) return;
  char buf[24];
  for (int i = digits - 1; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  int n = digits;
  while (n > 0 && buf[n - 1] == '0') --n;
  out += '.';
  out.append(buf, static_cast<size_t>(n));
}

void AppendQuoted(std::string& out, const std::string& s) { out += QuoteString(s); }

bool FindEvent(const Profile& p, const std::string& name, int32_t* event) {
  *event = kNone;
  if (name.empty()) return true;
  for (size_t e = 0; e < p.events.size(); ++e)
    if (p.strings.Get(p.events.name[e]) == name) {
      *event = static_cast<int32_t>(e);
      return true;
    }
  return false;
}

std::vector<uint64_t> XRaySelfTicks(const Profile& p) {
  const IntervalView iv(p);
  const SampleTable& s = p.samples;
  // Each interval's self time: sweep each thread's calls by start (outer first
  // among equal starts); a call's direct callees are the next-deeper calls it encloses.
  std::vector<uint64_t> self(iv.size());
  std::vector<uint32_t> order(iv.size());
  for (size_t i = 0; i < iv.size(); ++i) {
    order[i] = static_cast<uint32_t>(i);
    self[i] = iv.end(i) >= iv.start(i) ? iv.end(i) - iv.start(i) : 0;
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (iv.thread(a) != iv.thread(b)) return iv.thread(a) < iv.thread(b);
    if (iv.start(a) != iv.start(b)) return iv.start(a) < iv.start(b);
    return iv.depth(a) < iv.depth(b);
  });
  std::vector<uint32_t> open;
  int32_t thread = kNone - 1;
  for (uint32_t x : order) {
    if (iv.thread(x) != thread) {
      open.clear();
      thread = iv.thread(x);
    }
    while (!open.empty() && (iv.depth(open.back()) >= iv.depth(x) || iv.end(open.back()) < iv.start(x))) open.pop_back();
    if (!open.empty() && iv.depth(open.back()) + 1 == iv.depth(x)) {
      uint64_t d = iv.end(x) >= iv.start(x) ? iv.end(x) - iv.start(x) : 0;
      uint64_t& ps = self[open.back()];
      ps = ps > d ? ps - d : 0;
    }
    open.push_back(x);
  }
  // Samples and intervals of one call share the entry's record row (and thread); when the
  // intervals are read from the samples, sample i is interval i.
  std::unordered_map<uint64_t, uint32_t, KeyedIntHash> by_record;
  for (size_t i = 0; i < iv.size(); ++i)
    if (iv.OfSample(i) == kNone && iv.record(i) >= 0)
      by_record.emplace((static_cast<uint64_t>(static_cast<uint32_t>(iv.thread(i))) << 32) | static_cast<uint32_t>(iv.record(i)),
                        static_cast<uint32_t>(i));
  std::vector<uint64_t> out(s.size());
  SampleCursor at(s);
  for (size_t i = 0; i < s.size(); ++i) {
    out[i] = at.weight(i);
    const int32_t same = iv.OfSample(i);
    if (same != kNone) {
      out[i] = self[static_cast<size_t>(same)];
      continue;
    }
    const int32_t record = at.record(i);
    if (record < 0) continue;
    auto it = by_record.find((static_cast<uint64_t>(static_cast<uint32_t>(at.thread(i))) << 32) | static_cast<uint32_t>(record));
    if (it != by_record.end()) out[i] = self[it->second];
  }
  return out;
}

bool SampleWeights(const DecodeResult& res, Weight w, std::vector<uint64_t>* out, std::string* unit, std::string* error) {
  const Profile& p = res.profile;
  const SampleTable& s = p.samples;
  out->assign(s.size(), 0);
  *unit = "none";
  if (w == Weight::kSamples) {
    for (size_t i = 0; i < s.size(); ++i) (*out)[i] = s.Count(i);
    return true;
  }
  auto period = [&](size_t i) { return s.weight[i]; };
  if (res.samples_are_calls) {
    if (w == Weight::kPeriod) {
      *error = "XRay calls have no period (each sample is one call); use --weight time (self time) or samples";
      return false;
    }
    TimeBase tb(res);
    std::vector<uint64_t> self = XRaySelfTicks(p);
    for (size_t i = 0; i < s.size(); ++i) (*out)[i] = tb.ToNs(self[i]);
    *unit = "nanoseconds";
    return true;
  }
  if (res.format == "gperftools") {
    // weight = the sampling period in us times the record's count
    for (size_t i = 0; i < s.size(); ++i) (*out)[i] = SatMul(period(i), w == Weight::kTime ? 1000 : 1);
    *unit = w == Weight::kTime ? "nanoseconds" : "microseconds";
    return true;
  }
  if (res.format == "perf.data") {
    if (w == Weight::kPeriod) {
      bool all_clock = p.events.size() > 0;
      for (size_t e = 0; e < p.events.size(); ++e) all_clock = all_clock && IsClockEvent(p.strings.Get(p.events.name[e]));
      for (size_t i = 0; i < s.size(); ++i) (*out)[i] = period(i);
      *unit = all_clock ? "nanoseconds" : "none";
      return true;
    }
    // time: only when every sampled event is a clock (its period is ns)
    std::vector<bool> used(p.events.size(), false);
    for (size_t i = 0; i < s.size(); ++i)
      if (s.event[i] >= 0 && static_cast<size_t>(s.event[i]) < used.size()) used[static_cast<size_t>(s.event[i])] = true;
    for (size_t e = 0; e < p.events.size(); ++e)
      if (used[e] && !IsClockEvent(p.strings.Get(p.events.name[e]))) {
        *error = "time weights need a clock event (cpu-clock, task-clock) whose period is in ns; event " +
                 p.strings.Get(p.events.name[e]) + " counts something else (use --weight period or samples)";
        return false;
      }
    for (size_t i = 0; i < s.size(); ++i) (*out)[i] = period(i);
    *unit = "nanoseconds";
    return true;
  }
  *error = std::string("this profile (") + res.format + ") has no " + WeightName(w) + " per sample; use --weight samples";
  return false;
}

FrameSources SourcesOf(const Profile& p) {
  FrameSources fs;
  fs.file.assign(p.frames.address.size(), kNone);
  fs.line.assign(p.frames.address.size(), 0);
  std::map<std::string, int32_t> ids;
  for (size_t k = 0; k < p.frame_sources.size(); ++k) {
    int32_t fr = p.frame_sources.frame[k];
    if (fr < 0 || static_cast<size_t>(fr) >= fs.file.size()) continue;
    const std::string& src = p.strings.Get(p.frame_sources.source[k]);
    size_t colon = src.find_last_of(':');
    std::string file = src;
    int64_t line = 0;
    if (colon != std::string::npos && colon + 1 < src.size() &&
        src.find_first_not_of("0123456789", colon + 1) == std::string::npos && src.size() - colon - 1 <= 9) {
      file = src.substr(0, colon);
      line = std::stoll(src.substr(colon + 1));
    }
    auto it = ids.find(file);
    if (it == ids.end()) {
      it = ids.emplace(file, static_cast<int32_t>(fs.files.size())).first;
      fs.files.push_back(file);
    }
    fs.file[static_cast<size_t>(fr)] = it->second;
    fs.line[static_cast<size_t>(fr)] = line;
  }
  return fs;
}

std::string FuncName(const Profile& p, int32_t func) {
  if (func < 0 || static_cast<size_t>(func) >= p.funcs.name.size()) return "[unknown]";
  return p.strings.Get(p.funcs.name[static_cast<size_t>(func)]);
}

std::string ModuleName(const Profile& p, int32_t mapping) {
  if (mapping < 0 || static_cast<size_t>(mapping) >= p.mappings.size()) return "";
  return BaseName(p.strings.Get(p.mappings.path[static_cast<size_t>(mapping)]));
}

bool IsKernelMapping(const Profile& p, int32_t mapping) {
  if (mapping < 0 || static_cast<size_t>(mapping) >= p.mappings.size()) return false;
  const size_t m = static_cast<size_t>(mapping);
  if (p.mappings.pid[m] == -1) return true;
  const std::string& path = p.strings.Get(p.mappings.path[m]);
  // gecko.py's test: kallsyms, /vmlinux, or a module (.ko)
  return path.find("kallsyms") != std::string::npos || path.find("/vmlinux") != std::string::npos ||
         (path.size() >= 3 && path.compare(path.size() - 3, 3, ".ko") == 0);
}

std::string ThreadName(const Profile& p, int32_t thread) {
  if (thread < 0 || static_cast<size_t>(thread) >= p.threads.size()) return "";
  int32_t n = p.threads.name[static_cast<size_t>(thread)];
  return n == kNone ? std::string() : p.strings.Get(n);
}

std::string ThreadLabel(const Profile& p, int32_t thread) {
  if (thread < 0 || static_cast<size_t>(thread) >= p.threads.size()) return "unknown thread";
  const size_t t = static_cast<size_t>(thread);
  std::string name = ThreadName(p, thread);
  std::string tid = std::to_string(p.threads.tid[t]);
  if (name.empty()) return "thread " + tid;
  return name + " (pid " + std::to_string(p.threads.pid[t]) + ", tid " + tid + ")";
}

std::vector<std::vector<uint32_t>> SamplesByThread(const Profile& p, int32_t event) {
  std::vector<std::vector<uint32_t>> out(p.threads.size() + 1);
  const SampleTable& s = p.samples;
  SampleCursor at(s);
  for (size_t i = 0; i < s.size(); ++i) {
    if (!EventPasses(event, at.event(i))) continue;
    out[LaneOfKey(at.thread(i), p.threads.size())].push_back(static_cast<uint32_t>(i));
  }
  for (auto& v : out)
    std::stable_sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) { return s.time[a] < s.time[b]; });
  return out;
}

void StackFrames(const Profile& p, int32_t stack, std::vector<int32_t>& out) {
  out.clear();
  for (int32_t k = stack; k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)])
    out.push_back(p.stacks.frame[static_cast<size_t>(k)]);
  std::reverse(out.begin(), out.end());
}

}  // namespace profscope::exporter
