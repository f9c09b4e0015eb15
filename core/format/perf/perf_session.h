// What a perf.data recording says about itself, gathered while it is read:
// byte order and mode, the attrs (events) with their ids, where a record's
// id sits (perf's id_pos), the feature sections, the names events get
// (EVENT_DESC, EVENT_UPDATE, the old event_types section) and TIME_CONV.
// Perfetto keeps the same in its perf_session.cc; perf in its evlist.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_features.h"
#include "core/format/perf/perf_jit.h"
#include "core/format/perf/perf_sample.h"
#include "core/io/keyed_hash.h"
#include "core/model/profile.h"

namespace profscope::perf {

// True when the file was written by Android's simpleperf: it has simpleperf
// features or records, or (older files, which have neither) its CMDLINE
// starts with a simpleperf binary ("/data/local/tmp/simpleperf", "simpleperf_ndk64").
bool RecordedBySimpleperf(const FeatureContext& f);

class PerfSession {
 public:
  struct AttrInfo {
    PerfEventAttr attr;
    std::vector<uint64_t> ids;
    std::string name;
    int32_t event = kNone;  // event table row
    int32_t row = kNone;    // record row
  };

  ByteOrder order = ByteOrder::kLittle;
  bool pipe = false;
  uint64_t attr_size = 0;     // file mode: bytes per attrs-section entry
  FeatureContext features;
  TimeConv time_conv;         // PERF_RECORD_TIME_CONV (TSC -> perf time, for ARCH_TIMESTAMP jit dumps)

  // An attr (attrs section or HEADER_ATTR) and the ids of its events.
  void AddAttr(const PerfEventAttr& attr, std::vector<uint64_t> ids, int32_t row);
  const std::vector<AttrInfo>& attrs() const { return attrs_; }
  // The attr a record (header included) belongs to: the only one, else the
  // one its sample id names (perf's id_pos); nullptr when the id matches none.
  const AttrInfo* AttrForRecord(ByteReader rec, uint32_t type) const;
  // The attr of an event id (a PERF_SAMPLE_READ value's), nullptr when none has it.
  const AttrInfo* AttrForId(uint64_t id) const {
    auto it = id_to_attr_.find(id);
    return it == id_to_attr_.end() ? nullptr : &attrs_[static_cast<size_t>(it->second)];
  }
  // The attr a SAMPLE names, as an index into attrs() (the sample table's event column until FinishEvents).
  int32_t AttrIndex(const AttrInfo* a) const { return static_cast<int32_t>(a - attrs_.data()); }

  // Names an event from the old event_types section (config -> name) or an EVENT_UPDATE NAME (id -> name).
  void NameEventType(uint64_t config, std::string name) { event_type_names_[config] = std::move(name); }
  void NameEventId(uint64_t id, std::string name) { update_names_[id] = std::move(name); }
  // Names every attr (EVENT_DESC, EVENT_UPDATE, event_types, tracepoint
  // formats, simpleperf's META_INFO, else synthesized as perf does), gives
  // each an event row (= its attr index, the samples' event column) and
  // counts each event's samples.
  void FinishEvents(Profile& p);

 private:
  std::vector<AttrInfo> attrs_;
  std::unordered_map<uint64_t, int32_t, KeyedIntHash> id_to_attr_;
  IdPos id_pos_;
  std::unordered_map<uint64_t, std::string, KeyedIntHash> event_type_names_;
  std::unordered_map<uint64_t, std::string, KeyedIntHash> update_names_;
};

}  // namespace profscope::perf
