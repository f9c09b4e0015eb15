#include "core/format/perf/perf_session.h"

#include <algorithm>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/simpleperf/simpleperf_features.h"

namespace profscope::perf {

bool RecordedBySimpleperf(const FeatureContext& f) {
  if (f.simpleperf.present) return true;
  if (f.cmdline_argv.empty()) return false;
  const std::string& a = f.cmdline_argv[0];
  size_t k = a.find_last_of('/');
  return a.compare(k == std::string::npos ? 0 : k + 1, 10, "simpleperf") == 0;
}

void PerfSession::AddAttr(const PerfEventAttr& attr, std::vector<uint64_t> ids, int32_t row) {
  int32_t idx = static_cast<int32_t>(attrs_.size());
  if (attrs_.empty()) id_pos_ = ComputeIdPos(attr.sample_type);
  for (uint64_t id : ids) id_to_attr_[id] = idx;
  attrs_.push_back(AttrInfo{attr, std::move(ids), {}, kNone, row});
}

const PerfSession::AttrInfo* PerfSession::AttrForRecord(ByteReader rec, uint32_t type) const {
  if (attrs_.empty()) return nullptr;
  if (attrs_.size() == 1) return &attrs_[0];
  uint64_t id;
  size_t psize = rec.size() - 8;
  if (type == kSample) {
    if (id_pos_.sample_pos < 0 || 8u * (id_pos_.sample_pos + 1) > psize) return &attrs_[0];
    id = rec.PeekU64(8 + 8 * static_cast<size_t>(id_pos_.sample_pos));
  } else {
    if (id_pos_.trailer_pos < 0 || !attrs_[0].attr.sample_id_all() || 8u * id_pos_.trailer_pos > psize)
      return &attrs_[0];
    id = rec.PeekU64(rec.size() - 8 * static_cast<size_t>(id_pos_.trailer_pos));
  }
  auto it = id_to_attr_.find(id);
  if (it == id_to_attr_.end()) return nullptr;
  return &attrs_[static_cast<size_t>(it->second)];
}

void PerfSession::FinishEvents(Profile& p) {
  // Names: EVENT_DESC (matched by ids, else by index), EVENT_UPDATE, the old
  // event_types section, else synthesized from the attr as perf does.
  for (size_t i = 0; i < attrs_.size(); ++i) {
    AttrInfo& a = attrs_[i];
    std::string given;
    for (const auto& d : features.event_desc) {
      bool match = false;
      for (uint64_t id : d.ids)
        if (std::find(a.ids.begin(), a.ids.end(), id) != a.ids.end()) { match = true; break; }
      if (match) { given = d.name; break; }
    }
    if (given.empty() && i < features.event_desc.size() && features.event_desc[i].ids.empty() == a.ids.empty())
      given = features.event_desc[i].name;
    if (given.empty()) {
      for (uint64_t id : a.ids) {
        auto it = update_names_.find(id);
        if (it != update_names_.end()) { given = it->second; break; }
      }
    }
    if (given.empty() && a.attr.type == kTypeTracepoint) {
      auto it = event_type_names_.find(a.attr.config);
      if (it != event_type_names_.end()) given = it->second;
      auto tp = features.tracepoint_ids.find(a.attr.config);
      if (given.empty() && tp != features.tracepoint_ids.end()) given = tp->second;
    }
    if (given.empty() && features.simpleperf.present)  // simpleperf's META_INFO event_type_info
      given = SimpleperfEventName(features.simpleperf, i, a.attr.type, a.attr.config);
    a.name = EventName(a.attr, given);
    if (a.event == kNone) {
      a.event = static_cast<int32_t>(p.events.size());
      p.events.name.push_back(p.strings.Intern(a.name));
      p.events.samples.push_back(0);
      // The time one sample stands for: a clock event's fixed period is ns (perf's
      // cpu-clock/task-clock, include/uapi/linux/perf_event.h PERF_COUNT_SW_CPU_CLOCK/TASK_CLOCK);
      // attr.freq asks for that many samples a second; other events: unknown (the page uses the
      // median gap between a thread's samples).
      const uint64_t pf = a.attr.sample_period_or_freq;
      const bool clock = a.attr.type == kTypeSoftware && (a.attr.config == 0 || a.attr.config == 1);
      if (pf != 0 && a.attr.freq()) {
        p.events.interval_ns.push_back(1e9 / static_cast<double>(pf));
        p.events.interval_from.push_back(IntervalSource::kFrequency);
      } else if (pf != 0 && clock) {
        p.events.interval_ns.push_back(static_cast<double>(pf));
        p.events.interval_from.push_back(IntervalSource::kPeriod);
      } else {
        p.events.interval_ns.push_back(0);
        p.events.interval_from.push_back(IntervalSource::kUnknown);
      }
    } else {
      p.events.name[static_cast<size_t>(a.event)] = p.strings.Intern(a.name);
    }
  }
  for (size_t i = 0; i < p.samples.size(); ++i) {
    int32_t e = p.samples.event[i];
    if (e >= 0 && static_cast<size_t>(e) < p.events.size()) ++p.events.samples[static_cast<size_t>(e)];
  }
}

}  // namespace profscope::perf
