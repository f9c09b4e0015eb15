#include "core/api/export/speedscope_writer.h"

#include <map>
#include <tuple>

namespace profscope::exporter {

Output WriteSpeedscope(const DecodeResult& res, const Options& opts) {
  // speedscope's file format: src/lib/file-format-spec.ts (FileFormat.File)
  // and https://www.speedscope.app/file-format-schema.json.
  Output out;
  const Profile& p = res.profile;
  int32_t want = kNone;
  if (!FindEvent(p, opts.event, &want)) {
    out.error = "no event named " + opts.event;
    return out;
  }
  std::vector<uint64_t> w;
  std::string unit;
  if (!SampleWeights(res, opts.weight, &w, &unit, &out.error)) return out;
  const FrameSources src = SourcesOf(p);

  // shared.frames: one per (name, file, line), in order of first use.
  std::map<std::tuple<int32_t, int32_t, int64_t>, int32_t> frame_ids;
  std::vector<int32_t> frame_of(p.frames.address.size(), kNone);
  std::string frames;
  auto frame_index = [&](int32_t fr) {
    int32_t& cached = frame_of[static_cast<size_t>(fr)];
    if (cached != kNone) return cached;
    int32_t func = p.frames.func[static_cast<size_t>(fr)];
    int32_t name = func >= 0 ? p.funcs.name[static_cast<size_t>(func)] : kNone;
    auto key = std::make_tuple(name, src.file[static_cast<size_t>(fr)], src.line[static_cast<size_t>(fr)]);
    auto it = frame_ids.find(key);
    if (it == frame_ids.end()) {
      it = frame_ids.emplace(key, static_cast<int32_t>(frame_ids.size())).first;
      if (it->second) frames += ',';
      frames += "{\"name\":";
      AppendQuoted(frames, FuncName(p, func));
      if (std::get<1>(key) != kNone) {
        frames += ",\"file\":";
        AppendQuoted(frames, src.files[static_cast<size_t>(std::get<1>(key))]);
        if (std::get<2>(key) > 0) {
          frames += ",\"line\":";
          AppendInt(frames, std::get<2>(key));
        }
      }
      frames += '}';
    }
    cached = it->second;
    return cached;
  };

  // One sampled profile per thread (and per event when several are kept), samples in time order.
  std::vector<int32_t> events;
  if (want != kNone) events.push_back(want);
  else
    for (size_t e = 0; e < p.events.size(); ++e)
      if (p.events.samples[e]) events.push_back(static_cast<int32_t>(e));
  if (events.empty()) events.push_back(kNone);
  std::string profiles;
  size_t nprof = 0, active = 0;
  uint64_t active_total = 0;
  std::vector<int32_t> chain;
  for (int32_t ev : events) {
    auto by_thread = SamplesByThread(p, ev);
    for (size_t t = 0; t < by_thread.size(); ++t) {
      const auto& rows = by_thread[t];
      if (rows.empty()) continue;
      std::string samples, weights;
      uint64_t total = 0;
      size_t n = 0;
      for (uint32_t i : rows) {
        if (w[i] == 0) continue;  // speedscope drops zero weights anyway
        if (n++) {
          samples += ',';
          weights += ',';
        }
        StackFrames(p, p.samples.stack[i], chain);
        samples += '[';
        for (size_t k = 0; k < chain.size(); ++k) {
          if (k) samples += ',';
          AppendNum(samples, static_cast<uint64_t>(frame_index(chain[k])));
        }
        samples += ']';
        AppendNum(weights, w[i]);
        total += w[i];
      }
      if (!n) continue;
      std::string name = t < p.threads.size() ? ThreadLabel(p, static_cast<int32_t>(t)) : "unknown thread";
      if (events.size() > 1 && ev != kNone) name += " - " + p.strings.Get(p.events.name[static_cast<size_t>(ev)]);
      if (total > active_total) {
        active_total = total;
        active = nprof;
      }
      if (nprof++) profiles += ',';
      profiles += "{\"type\":\"sampled\",\"name\":";
      AppendQuoted(profiles, name);
      profiles += ",\"unit\":\"" + unit + "\",\"startValue\":0,\"endValue\":";
      AppendNum(profiles, total);
      profiles += ",\"samples\":[" + samples + "],\"weights\":[" + weights + "]}";
    }
  }
  if (!nprof) {
    out.error = "no samples to export";
    return out;
  }
  std::string& o = out.bytes;
  o = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"profscope\",\"name\":";
  AppendQuoted(o, "profscope: " + res.format + " (" + WeightName(opts.weight) + ")");
  o += ",\"activeProfileIndex\":";
  AppendNum(o, active);  // the heaviest thread first
  o += ",\"shared\":{\"frames\":[" + frames + "]},\"profiles\":[" + profiles + "]}\n";
  return out;
}

}  // namespace profscope::exporter
