#include "core/api/export/pprof_writer.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <protozero/pbf_writer.hpp>

#if defined(PROFSCOPE_HAVE_ZLIB)
#include <zlib.h>
#endif

#include "core/io/keyed_hash.h"

namespace profscope::exporter {

namespace {

// Field numbers of google/pprof proto/profile.proto.
namespace pb {
enum Profile : protozero::pbf_tag_type {
  kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5, kStringTable = 6,
  kDurationNanos = 10, kPeriodType = 11, kPeriod = 12, kComment = 13,
};
enum ValueType : protozero::pbf_tag_type { kType = 1, kUnit = 2 };
enum Sample : protozero::pbf_tag_type { kLocationId = 1, kValue = 2, kLabel = 3 };
enum Label : protozero::pbf_tag_type { kKey = 1, kStr = 2, kNum = 3 };
enum Mapping : protozero::pbf_tag_type {
  kMapId = 1, kMemoryStart = 2, kMemoryLimit = 3, kFileOffset = 4, kMapFilename = 5, kBuildId = 6,
  kHasFunctions = 7, kHasFilenames = 8, kHasLineNumbers = 9,
};
enum Location : protozero::pbf_tag_type { kLocId = 1, kMappingId = 2, kAddress = 3, kLine = 4 };
enum Line : protozero::pbf_tag_type { kFunctionId = 1, kLineNumber = 2 };
enum Function : protozero::pbf_tag_type { kFuncId = 1, kName = 2, kSystemName = 3, kFilename = 4 };
}  // namespace pb

class Strings {
 public:
  Strings() { Id(""); }  // string_table[0] must be ""
  int64_t Id(const std::string& s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    int64_t id = static_cast<int64_t>(all_.size());
    ids_.emplace(s, id);
    all_.push_back(s);
    return id;
  }
  const std::vector<std::string>& all() const { return all_; }

 private:
  std::unordered_map<std::string, int64_t, KeyedStringHash> ids_;
  std::vector<std::string> all_;
};

// gzip (RFC 1952) with a fixed header: mtime 0, OS 255 ("unknown"), so both builds write the same bytes.
bool Gzip(const std::string& in, std::string* out, std::string* error) {
#if defined(PROFSCOPE_HAVE_ZLIB)
  z_stream zs{};
  if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    *error = "zlib: deflateInit2 failed";
    return false;
  }
  gz_header h{};
  h.time = 0;
  h.os = 255;
  deflateSetHeader(&zs, &h);
  out->resize(deflateBound(&zs, static_cast<uLong>(in.size())) + 64);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&zs, Z_FINISH);
  size_t n = out->size() - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    *error = "zlib: deflate did not finish";
    return false;
  }
  out->resize(n);
  return true;
#else
  (void)in;
  (void)out;
  *error = "this build has no zlib: pprof files are gzip-compressed";
  return false;
#endif
}

bool IsClock(const std::string& name) {
  std::string base = name.substr(0, name.find(':'));
  return base == "cpu-clock" || base == "task-clock";
}

}  // namespace

Output WritePprof(const DecodeResult& res, const Options& opts) {
  Output out;
  const Profile& p = res.profile;
  const SampleTable& s = p.samples;
  if (opts.weight != Weight::kSamples) {
    out.error = "pprof files carry every value column (samples, period, time) at once: leave --weight out";
    return out;
  }
  int32_t want = kNone;
  if (!FindEvent(p, opts.event, &want)) {
    out.error = "no event named " + opts.event;
    return out;
  }
  const TimeBase tb(res);
  Strings str;

  // Value columns: the sample count first, then per event its period (perf), or
  // cpu time (gperftools), or self time (XRay).
  struct Column { std::string type, unit; int32_t event; };  // event kNone = every event
  std::vector<Column> cols;
  std::vector<uint64_t> extra;  // per sample: the value of the format's second column
  const bool xray = res.samples_are_calls /* traced calls */, gperf = res.format == "gperftools", perf = res.format == "perf.data";
  cols.push_back({xray ? "calls" : "samples", "count", kNone});
  std::vector<int32_t> event_col(p.events.size(), -1);
  if (perf) {
    std::vector<bool> used(p.events.size(), false);
    for (size_t i = 0; i < s.size(); ++i)
      if (s.event[i] >= 0 && static_cast<size_t>(s.event[i]) < used.size() && EventPasses(want, s.event[i]))
        used[static_cast<size_t>(s.event[i])] = true;
    for (size_t e = 0; e < p.events.size(); ++e) {
      if (!used[e]) continue;
      const std::string& n = p.strings.Get(p.events.name[e]);
      event_col[e] = static_cast<int32_t>(cols.size());
      cols.push_back({n, IsClock(n) ? "nanoseconds" : "count", static_cast<int32_t>(e)});
    }
  } else if (gperf || xray) {
    std::string unit, err;
    SampleWeights(res, Weight::kTime, &extra, &unit, &err);
    cols.push_back({gperf ? "cpu" : "wall", "nanoseconds", kNone});
  }

  // Samples aggregated by (stack, thread), in order of first appearance.
  std::map<std::pair<int32_t, int32_t>, size_t> agg_index;
  struct Agg { int32_t stack, thread; std::vector<uint64_t> values; };  // saturating sums
  std::vector<Agg> aggs;
  SampleCursor at(s);
  for (size_t i = 0; i < s.size(); ++i) {
    const int32_t e = at.event(i);
    if (!EventPasses(want, e)) continue;
    auto key = std::make_pair(at.stack(i), at.thread(i));
    auto it = agg_index.find(key);
    if (it == agg_index.end()) {
      it = agg_index.emplace(key, aggs.size()).first;
      aggs.push_back(Agg{key.first, key.second, std::vector<uint64_t>(cols.size(), 0)});
    }
    Agg& a = aggs[it->second];
    a.values[0] = SatAdd(a.values[0], s.Count(i));
    if (perf) {
      if (e >= 0 && static_cast<size_t>(e) < event_col.size() && event_col[static_cast<size_t>(e)] > 0) {
        uint64_t& v = a.values[static_cast<size_t>(event_col[static_cast<size_t>(e)])];
        v = SatAdd(v, at.weight(i));
      }
    } else if (!extra.empty()) {
      a.values[1] = SatAdd(a.values[1], extra[i]);
    }
  }

  // Locations (one per frame used), mappings and functions, ids in order of first use.
  const FrameSources src = SourcesOf(p);
  std::vector<uint64_t> loc_id(p.frames.address.size(), 0), map_id(p.mappings.size(), 0);
  std::vector<int32_t> loc_frames, map_rows;
  std::map<std::pair<int32_t, int32_t>, uint64_t> func_ids;  // (name string, file) -> id
  std::vector<std::pair<int32_t, int32_t>> func_keys;
  std::vector<bool> map_has_files(p.mappings.size(), false);
  std::string samples_buf;
  {
    protozero::pbf_writer pw(samples_buf);
    std::vector<uint64_t> ids;
    for (const Agg& a : aggs) {
      ids.clear();
      for (int32_t k = a.stack; k != kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) {  // leaf first
        const int32_t fr = p.stacks.frame[static_cast<size_t>(k)];
        uint64_t& lid = loc_id[static_cast<size_t>(fr)];
        if (!lid) {
          lid = loc_frames.size() + 1;
          loc_frames.push_back(fr);
          const int32_t m = p.frames.mapping[static_cast<size_t>(fr)];
          if (m >= 0 && static_cast<size_t>(m) < p.mappings.size() && !map_id[static_cast<size_t>(m)]) {
            map_id[static_cast<size_t>(m)] = map_rows.size() + 1;
            map_rows.push_back(m);
          }
          if (m >= 0 && static_cast<size_t>(m) < p.mappings.size() && src.file[static_cast<size_t>(fr)] != kNone)
            map_has_files[static_cast<size_t>(m)] = true;
          const int32_t f = p.frames.func[static_cast<size_t>(fr)];
          auto key = std::make_pair(f >= 0 ? p.funcs.name[static_cast<size_t>(f)] : kNone, src.file[static_cast<size_t>(fr)]);
          if (!func_ids.count(key)) {
            func_ids.emplace(key, func_keys.size() + 1);
            func_keys.push_back(key);
          }
        }
        ids.push_back(lid);
      }
      protozero::pbf_writer sw(pw, pb::kSample);
      sw.add_packed_uint64(pb::kLocationId, ids.begin(), ids.end());
      std::vector<int64_t> values(a.values.size());
      for (size_t k = 0; k < values.size(); ++k) values[k] = ToI64(a.values[k]);
      sw.add_packed_int64(pb::kValue, values.begin(), values.end());
      if (a.thread >= 0 && static_cast<size_t>(a.thread) < p.threads.size()) {
        const size_t t = static_cast<size_t>(a.thread);
        {
          protozero::pbf_writer lw(sw, pb::kLabel);
          lw.add_int64(pb::kKey, str.Id("pid"));
          lw.add_int64(pb::kNum, p.threads.pid[t]);
        }
        {
          protozero::pbf_writer lw(sw, pb::kLabel);
          lw.add_int64(pb::kKey, str.Id("tid"));
          lw.add_int64(pb::kNum, p.threads.tid[t]);
        }
        std::string name = ThreadName(p, a.thread);
        if (!name.empty()) {
          protozero::pbf_writer lw(sw, pb::kLabel);
          lw.add_int64(pb::kKey, str.Id("thread"));
          lw.add_int64(pb::kStr, str.Id(name));
        }
      }
    }
  }

  // mapping[0] is "the main binary" to pprof: the mapping named like the process
  // (the comm of the thread whose tid is its pid) with the most samples' leaves.
  {
    std::vector<uint64_t> leaf_hits(p.mappings.size(), 0);
    for (const Agg& a : aggs)
      if (a.stack != kNone) {
        const int32_t m = p.frames.mapping[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(a.stack)])];
        if (m >= 0 && static_cast<size_t>(m) < leaf_hits.size()) leaf_hits[static_cast<size_t>(m)] = SatAdd(leaf_hits[static_cast<size_t>(m)], a.values[0]);
      }
    std::map<int32_t, std::string> comm;  // pid -> process name
    for (size_t t = 0; t < p.threads.size(); ++t)
      if (p.threads.tid[t] == p.threads.pid[t]) comm[p.threads.pid[t]] = ThreadName(p, static_cast<int32_t>(t));
    size_t best = map_rows.size();
    for (size_t k = 0; k < map_rows.size(); ++k) {
      const size_t m = static_cast<size_t>(map_rows[k]);
      auto it = comm.find(p.mappings.pid[m]);
      const std::string base = BaseName(p.strings.Get(p.mappings.path[m]));
      // comm is the file name cut to 15 bytes (TASK_COMM_LEN)
      if (it == comm.end() || it->second.empty() || base.compare(0, it->second.size(), it->second) != 0) continue;
      if (best == map_rows.size() || leaf_hits[m] > leaf_hits[static_cast<size_t>(map_rows[best])]) best = k;
    }
    if (best < map_rows.size() && best > 0) {
      std::rotate(map_rows.begin(), map_rows.begin() + static_cast<ptrdiff_t>(best), map_rows.begin() + static_cast<ptrdiff_t>(best) + 1);
      for (size_t k = 0; k < map_rows.size(); ++k) map_id[static_cast<size_t>(map_rows[k])] = k + 1;
    }
  }
  std::string body;
  {
    protozero::pbf_writer w2(body);
    for (const Column& c : cols) {
      protozero::pbf_writer vt(w2, pb::kSampleType);
      vt.add_int64(pb::kType, str.Id(c.type));
      vt.add_int64(pb::kUnit, str.Id(c.unit));
    }
  }
  body += samples_buf;
  {
    protozero::pbf_writer w2(body);
    for (size_t k = 0; k < map_rows.size(); ++k) {
      const size_t m = static_cast<size_t>(map_rows[k]);
      protozero::pbf_writer mw(w2, pb::kMapping);
      mw.add_uint64(pb::kMapId, k + 1);
      mw.add_uint64(pb::kMemoryStart, p.mappings.start[m]);
      mw.add_uint64(pb::kMemoryLimit, p.mappings.end[m]);
      mw.add_uint64(pb::kFileOffset, p.mappings.pgoff[m]);
      mw.add_int64(pb::kMapFilename, str.Id(p.strings.Get(p.mappings.path[m])));
      if (p.mappings.build_id[m] != kNone) mw.add_int64(pb::kBuildId, str.Id(p.strings.Get(p.mappings.build_id[m])));
      mw.add_bool(pb::kHasFunctions, true);  // every frame carries a name: no re-symbolization
      if (map_has_files[m]) {
        mw.add_bool(pb::kHasFilenames, true);
        mw.add_bool(pb::kHasLineNumbers, true);
      }
    }
    for (size_t k = 0; k < loc_frames.size(); ++k) {
      const size_t fr = static_cast<size_t>(loc_frames[k]);
      protozero::pbf_writer lw(w2, pb::kLocation);
      lw.add_uint64(pb::kLocId, k + 1);
      const int32_t m = p.frames.mapping[fr];
      if (m >= 0 && static_cast<size_t>(m) < p.mappings.size()) lw.add_uint64(pb::kMappingId, map_id[static_cast<size_t>(m)]);
      lw.add_uint64(pb::kAddress, p.frames.address[fr]);
      const int32_t f = p.frames.func[fr];
      auto key = std::make_pair(f >= 0 ? p.funcs.name[static_cast<size_t>(f)] : kNone, src.file[fr]);
      protozero::pbf_writer ln(lw, pb::kLine);
      ln.add_uint64(pb::kFunctionId, func_ids.at(key));
      if (src.line[fr] > 0) ln.add_int64(pb::kLineNumber, src.line[fr]);
    }
    for (size_t k = 0; k < func_keys.size(); ++k) {
      protozero::pbf_writer fw(w2, pb::kFunction);
      fw.add_uint64(pb::kFuncId, k + 1);
      const int64_t name = str.Id(func_keys[k].first == kNone ? std::string("[unknown]") : p.strings.Get(func_keys[k].first));
      fw.add_int64(pb::kName, name);
      fw.add_int64(pb::kSystemName, name);
      if (func_keys[k].second != kNone) fw.add_int64(pb::kFilename, str.Id(src.files[static_cast<size_t>(func_keys[k].second)]));
    }
    const int64_t comment = str.Id("profscope export of a " + res.format + " profile");
    uint64_t duration = 0;
    if (res.time_end > res.time_start) duration = tb.ToNs(res.time_end - res.time_start);
    if (gperf && s.size() && s.Count(0)) {
      protozero::pbf_writer pt(w2, pb::kPeriodType);
      pt.add_int64(pb::kType, str.Id("cpu"));
      pt.add_int64(pb::kUnit, str.Id("nanoseconds"));
    }
    // every string is interned by now: write the table
    for (const std::string& x : str.all()) w2.add_string(pb::kStringTable, x);
    if (duration) w2.add_int64(pb::kDurationNanos, ToI64(duration));
    if (gperf && s.size() && s.Count(0))
      w2.add_int64(pb::kPeriod, ToI64(WeightToU64(static_cast<double>(s.weight[0]) * 1000.0 / static_cast<double>(s.Count(0)))));
    w2.add_int64(pb::kComment, comment);
  }
  if (!Gzip(body, &out.bytes, &out.error)) out.bytes.clear();
  return out;
}

}  // namespace profscope::exporter
