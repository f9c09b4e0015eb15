#include "core/format/perf/perf_markers.h"

#include <algorithm>
#include <cstdio>

#include "core/format/perf/perf_format.h"

namespace profscope::perf {

namespace {

// Appending to a reused buffer: no allocation once it has grown.
void AppendDec(std::string& s, uint64_t v) {
  char b[24];
  int n = std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
  s.append(b, static_cast<size_t>(n));
}
void AppendInt(std::string& s, int64_t v) {
  char b[24];
  int n = std::snprintf(b, sizeof b, "%lld", static_cast<long long>(v));
  s.append(b, static_cast<size_t>(n));
}
void AppendHex(std::string& s, uint64_t v) {
  char b[24];
  int n = std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  s.append(b, static_cast<size_t>(n));
}
// "START-END" in hex.
void AppendRange(std::string& s, uint64_t start, uint64_t end) {
  AppendHex(s, start);
  s += '-';
  AppendHex(s, end);
}

}  // namespace

PerfMarkers::PerfMarkers() {
  for (auto& k : kind_) k = kNone;
}

void PerfMarkers::Add(uint32_t type, uint64_t time, int32_t tid, int32_t cpu, int32_t row, Profile& p) {
  int32_t& kind = kind_[type];
  if (kind == kNone) kind = p.strings.Intern(RecordTypeName(type));
  // No allocation once the slots have grown.
  LabelSlot* c = label_cache_[type];
  const std::string& l = label_;
  int32_t lid;
  if (c[0].id != kNone && c[0].text == l) {
    lid = c[0].id;
  } else if (c[1].id != kNone && c[1].text == l) {
    lid = c[1].id;
    std::swap(c[0], c[1]);
  } else {
    lid = p.strings.Intern(l);
    std::swap(c[0], c[1]);
    c[0].text.assign(l);
    c[0].id = lid;
  }
  // The thread column holds the tid until Finish turns it into a row.
  p.markers.Add(time, kind, tid, cpu, lid, row);
  ++count_;
}

void PerfMarkers::Mmap(const RecordWhen& w, uint32_t type, const MmapRecord& m, int32_t row, Profile& p) {
  label_ = m.filename;
  label_ += ' ';
  AppendRange(label_, m.start, m.start + m.len < m.start ? ~uint64_t{0} : m.start + m.len);
  // kernel maps belong to no thread
  Add(type, w.time, m.pid == -1 || !m.fixed_ok ? kNoTid : m.tid, w.cpu, row, p);
}

void PerfMarkers::Comm(const RecordWhen& w, uint16_t misc, const CommRecord& c, int32_t row, Profile& p) {
  label_ = "comm ";
  label_ += c.comm;
  if (misc & kMiscMmapData) label_ += " (exec)";  // PERF_RECORD_MISC_COMM_EXEC
  Add(kComm, w.time, c.ids_ok ? c.tid : kNoTid, w.cpu, row, p);
}

void PerfMarkers::Task(const RecordWhen& w, uint32_t type, const TaskRecord& t, int32_t row, Profile& p) {
  label_ = type == kExit ? "exit " : "fork ";
  AppendInt(label_, t.tid);
  if (type == kFork) {
    label_ += " (parent ";
    AppendDec(label_, static_cast<uint32_t>(t.ptid));
    label_ += ')';
  }
  // the record's own time (same clock) when it has no sample_id
  Add(type, !w.time && t.ok ? t.time : w.time, t.ok ? t.tid : kNoTid, w.cpu, row, p);
}

void PerfMarkers::Lost(const RecordWhen& w, const LostRecord& l, int32_t row, Profile& p) {
  label_ = "lost ";
  AppendDec(label_, l.lost);
  label_ += " events";
  Add(kLost, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::LostSamples(const RecordWhen& w, const LostSamplesRecord& l, int32_t row, Profile& p) {
  label_ = "lost ";
  AppendDec(label_, l.lost);
  label_ += " samples";
  Add(kLostSamples, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::Throttle(const RecordWhen& w, uint32_t type, const ThrottleRecord& t, int32_t row, Profile& p) {
  label_ = type == kThrottle ? "throttle" : "unthrottle";
  Add(type, !w.time && t.time_ok ? t.time : w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::Switch(const RecordWhen& w, uint32_t type, uint16_t misc, const SwitchRecord& s, int32_t row,
                         Profile& p) {
  const bool switch_out = misc & kMiscSwitchOut;
  label_ = switch_out ? "switch out" : "switch in";
  if (type == kSwitchCpuWide && s.ok) {
    label_ += switch_out ? " to " : " from ";
    AppendInt(label_, s.next_prev_pid);
    label_ += '/';
    AppendInt(label_, s.next_prev_tid);
  }
  if (switch_out && (misc & kMiscSwitchOutPreempt)) label_ += " (preempt)";
  Add(type, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::Ksymbol(const RecordWhen& w, const KsymbolRecord& k, int32_t row, Profile& p) {
  label_ = (k.flags & 1) ? "ksymbol unregister " : "ksymbol ";
  label_ += k.name;
  label_ += ' ';
  AppendRange(label_, k.addr, k.addr + k.len);
  Add(kKsymbol, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::BpfEvent(const RecordWhen& w, const BpfEventRecord& b, int32_t row, Profile& p) {
  label_ = b.type == 1 ? "bpf prog load" : b.type == 2 ? "bpf prog unload" : "bpf event";
  if (b.type != 1 && b.type != 2) {
    label_ += " type ";
    AppendDec(label_, b.type);
  }
  label_ += " id ";
  AppendDec(label_, b.id);
  Add(kBpfEvent, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::Namespaces(const RecordWhen& w, const NamespacesRecord& n, int32_t row, Profile& p) {
  OfTask(kNamespaces, "namespaces ", n.pid, n.ids_ok ? n.tid : kNoTid, w, row, p);
}

void PerfMarkers::Cgroup(const RecordWhen& w, const CgroupRecord& c, int32_t row, Profile& p) {
  label_ = "cgroup ";
  label_ += c.path;
  Add(kCgroup, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::TextPoke(const RecordWhen& w, const TextPokeRecord& t, int32_t row, Profile& p) {
  label_ = "text poke ";
  AppendHex(label_, t.addr);
  label_ += " (";
  AppendDec(label_, t.old_len);
  label_ += " -> ";
  AppendDec(label_, t.new_len);
  label_ += " bytes)";
  Add(kTextPoke, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::Aux(const RecordWhen& w, const AuxRecord& a, int32_t row, Profile& p) {
  label_ = "aux ";
  AppendDec(label_, a.aux_size);
  label_ += " bytes at ";
  AppendHex(label_, a.aux_offset);
  if (a.flags & 1) label_ += " (truncated)";
  if (a.flags & 2) label_ += " (overwrite)";
  if (a.flags & 4) label_ += " (partial)";
  if (a.flags & 8) label_ += " (collision)";
  Add(kAux, w.time, w.tid, w.cpu, row, p);
}

void PerfMarkers::ItraceStart(const RecordWhen& w, const ItraceStartRecord& t, int32_t row, Profile& p) {
  OfTask(kItraceStart, "itrace start ", t.pid, t.ok ? t.tid : kNoTid, w, row, p);
}

void PerfMarkers::OfTask(uint32_t type, const char* what, int32_t pid, int32_t tid, const RecordWhen& w, int32_t row,
                         Profile& p) {
  label_ = what;
  AppendInt(label_, pid);
  label_ += '/';
  AppendInt(label_, tid);
  Add(type, w.time, tid, w.cpu, row, p);
}

void PerfMarkers::Finish(Profile& p, const ThreadTracker& threads) {
  // Thread rows by tid, the lookup samples use, now that every thread is known.
  // The perf records' markers come first (a jit side file's follow, with rows).
  MarkerTable& m = p.markers;
  size_t n = std::min(count_, m.size());
  for (size_t i = 0; i < n; ++i) {
    int32_t tid = m.thread[i];
    m.thread[i] = kNone;
    if (tid != kNoTid) m.thread[i] = threads.Find(tid);
  }
  count_ = 0;
}

}  // namespace profscope::perf
