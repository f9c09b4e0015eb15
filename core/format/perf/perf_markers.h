// Timeline markers of perf records (Profile::markers): one per MMAP, COMM,
// EXIT, FORK, LOST, THROTTLE, SWITCH, KSYMBOL, BPF_EVENT, NAMESPACES, CGROUP,
// TEXT_POKE, AUX, ITRACE_START ... record, with the time, thread and cpu of
// its sample_id trailer (when the attr has one), kind = perf's record name
// and a one-line label made from the record's parse struct (perf_records.h).
#pragma once

#include <cstdint>
#include <string>

#include "core/format/perf/perf_records.h"
#include "core/model/profile.h"
#include "core/model/thread_tracker.h"

namespace profscope::perf {

inline constexpr int32_t kNoTid = INT32_MIN;

// Where and when a record happened, from its sample_id trailer: time 0, tid
// kNoTid and cpu kNone where the trailer does not say.
struct RecordWhen {
  uint64_t time = 0;
  int32_t tid = kNoTid;
  int32_t cpu = kNone;
};

class PerfMarkers {
 public:
  PerfMarkers();
  // One per record kind; `row` is the record's row (kNone for INIT_MAP's).
  void Mmap(const RecordWhen& w, uint32_t type, const MmapRecord& m, int32_t row, Profile& p);
  void Comm(const RecordWhen& w, uint16_t misc, const CommRecord& c, int32_t row, Profile& p);
  void Task(const RecordWhen& w, uint32_t type, const TaskRecord& t, int32_t row, Profile& p);
  void Lost(const RecordWhen& w, const LostRecord& l, int32_t row, Profile& p);
  void LostSamples(const RecordWhen& w, const LostSamplesRecord& l, int32_t row, Profile& p);
  void Throttle(const RecordWhen& w, uint32_t type, const ThrottleRecord& t, int32_t row, Profile& p);
  void Switch(const RecordWhen& w, uint32_t type, uint16_t misc, const SwitchRecord& s, int32_t row, Profile& p);
  void Ksymbol(const RecordWhen& w, const KsymbolRecord& k, int32_t row, Profile& p);
  void BpfEvent(const RecordWhen& w, const BpfEventRecord& b, int32_t row, Profile& p);
  void Namespaces(const RecordWhen& w, const NamespacesRecord& n, int32_t row, Profile& p);
  void Cgroup(const RecordWhen& w, const CgroupRecord& c, int32_t row, Profile& p);
  void TextPoke(const RecordWhen& w, const TextPokeRecord& t, int32_t row, Profile& p);
  void Aux(const RecordWhen& w, const AuxRecord& a, int32_t row, Profile& p);
  void ItraceStart(const RecordWhen& w, const ItraceStartRecord& t, int32_t row, Profile& p);

  // The markers hold tids until every thread is known: now each gets its thread row.
  void Finish(Profile& p, const ThreadTracker& threads);

 private:
  static constexpr size_t kKinds = 32;  // record types 0..31
  void Add(uint32_t type, uint64_t time, int32_t tid, int32_t cpu, int32_t row, Profile& p);
  // A marker labelled "WHAT PID/TID" on that task (tid kNoTid when unknown).
  void OfTask(uint32_t type, const char* what, int32_t pid, int32_t tid, const RecordWhen& w, int32_t row, Profile& p);

  int32_t kind_[kKinds];  // interned record name per type
  // Labels repeat (SWITCH in/out, THROTTLE, a COMM per thread): the last two
  // of each type are kept to skip hashing them again.
  struct LabelSlot {
    std::string text;
    int32_t id = kNone;
  };
  LabelSlot label_cache_[kKinds][2];
  std::string label_;  // the label being made
  size_t count_ = 0;   // markers made (their thread column holds a tid until Finish)
};

}  // namespace profscope::perf
