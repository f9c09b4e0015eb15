#include "core/format/perf/perf_record_fields.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/format/perf/perf_features.h"
#include "core/format/perf/perf_records.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"
#include "core/format/perf/simpleperf/simpleperf_record_fields.h"

namespace profscope::perf {

namespace {

// ---------------------------------------------------------------------------
// Formatting helpers

std::string Sprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Sprintf(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(&out[0], out.size(), fmt, ap);
  va_end(ap);
  out.resize(static_cast<size_t>(n));
  return out;
}

using ull = unsigned long long;
using ll = long long;

// perf's "%#lx": "0" for zero, "0x1f" otherwise.
std::string AltHex(uint64_t v) { return Sprintf("%#llx", static_cast<ull>(v)); }

std::string Shorten(std::string s, size_t max) {
  if (s.size() > max) {
    s.resize(max);
    s += "...";
  }
  return s;
}

const char* CpumodeText(uint16_t misc) {
  switch (misc & kMiscCpumodeMask) {
    case 0: return "CPUMODE_UNKNOWN";
    case 1: return "KERNEL";
    case 2: return "USER";
    case 3: return "HYPERVISOR";
    case 4: return "GUEST_KERNEL";
    case 5: return "GUEST_USER";
    case 6: return "cpumode 6";
    default: return "cpumode 7";
  }
}

bool IsKernelType(uint32_t type) { return type >= kMmap && type < kKernelMax; }

// Decoded header.misc for a record type: "0x4002 USER|MMAP_BUILD_ID".
std::string MiscString(uint32_t type, uint16_t misc) {
  std::string names;
  auto add = [&](const std::string& n) {
    if (!names.empty()) names += '|';
    names += n;
  };
  uint16_t left = misc;
  if (IsKernelType(type) || type == kHeaderBuildId || (misc & kMiscCpumodeMask)) {
    add(CpumodeText(misc));
  }
  left &= static_cast<uint16_t>(~kMiscCpumodeMask);
  const bool is_mmap = type == kMmap || type == kMmap2;
  const bool is_switch = type == kSwitch || type == kSwitchCpuWide;
  if ((left & (1u << 12)) && is_mmap) { add("PROC_MAP_PARSE_TIMEOUT"); left &= ~(1u << 12); }
  if (left & (1u << 13)) {
    const char* n = is_mmap ? "MMAP_DATA" : type == kComm ? "COMM_EXEC"
                  : type == kFork ? "FORK_EXEC" : is_switch ? "SWITCH_OUT" : nullptr;
    if (n) { add(n); left &= ~(1u << 13); }
  }
  if (left & (1u << 14)) {
    const char* n = type == kSample ? "EXACT_IP" : is_switch ? "SWITCH_OUT_PREEMPT"
                  : type == kMmap2 ? "MMAP_BUILD_ID" : nullptr;
    if (n) { add(n); left &= ~(1u << 14); }
  }
  if (left & (1u << 15)) {
    const char* n = type == kLostSamples ? "LOST_SAMPLES_BPF"
                  : type == kHeaderBuildId ? "BUILD_ID_SIZE"
                  : IsKernelType(type) ? "EXT_RESERVED" : nullptr;
    if (n) { add(n); left &= ~(1u << 15); }
  }
  if (left) add("unknown " + Hex(left));
  return names.empty() ? Hex(misc) : Hex(misc) + " " + names;
}

// ---------------------------------------------------------------------------
// What a record's field view says when its bytes fall short: a field over
// the bytes that are there and one diagnostic naming the record.

class RecordProblems : public FieldProblems {
 public:
  std::string rec_name = "record";
  uint64_t rec_offset = 0;
  uint32_t declared = 0;
  Diagnostics* diags = nullptr;

  void Overrun(std::string_view member, uint64_t at, uint64_t need, size_t left) {
    if (!diags) return;
    diags->Error(DiagCode::kRecordFieldOverrun, at, left,
                 rec_name + " record at " + Hex(rec_offset) + ": " + std::string(member) + " needs " +
                     std::to_string(need) + " bytes at " + Hex(at) + " but only " +
                     std::to_string(left) + " are left in the record (header.size " +
                     std::to_string(declared) + ")");
  }
  void Short(FieldReader& r, std::string_view member, uint64_t need) override {
    size_t left = r.remaining();
    uint64_t at = r.abs_pos();
    if (left) r.Add(member, at, left, "truncated: " + std::to_string(left) + " of " + std::to_string(need) + " bytes");
    Overrun(member, at, need, left);
  }
  void Unterminated(std::string_view name, uint64_t at, uint64_t n) override {
    if (!diags) return;
    diags->Warning(DiagCode::kBadString, at, n,
                   rec_name + " record at " + Hex(rec_offset) + ": " + std::string(name) +
                       " has no NUL terminator within its " + std::to_string(n) + "-byte area");
  }
};

// ---------------------------------------------------------------------------
// Per record type

struct State {
  uint32_t type = 0;
  uint16_t misc = 0;
  const PerfEventAttr* attr = nullptr;
  ByteReader payload;
  SampleData sid;        // sample_id trailer values
  bool have_sid = false;
  std::string summary;
  Diagnostics* diags = nullptr;
  const FeatureContext* features = nullptr;
};

std::string Pid(uint32_t v) { return std::to_string(static_cast<int32_t>(v)); }

void DecMmap(FieldReader& c, State& s) {  // MMAP, MMAP2
  MmapRecord m;
  ParseMmap(c, s.type, s.misc, &m);
  const std::string pid = std::to_string(m.pid), tid = std::to_string(m.tid);
  if (s.type == kMmap) {
    s.summary = Sprintf("%s/%s: [%#llx(%#llx) @ %#llx]: %c %s", pid.c_str(), tid.c_str(), static_cast<ull>(m.start),
                        static_cast<ull>(m.len), static_cast<ull>(m.pgoff), (s.misc & kMiscMmapData) ? 'r' : 'x',
                        m.filename.c_str());
    return;
  }
  char perm[5] = {(m.prot & 1) ? 'r' : '-', (m.prot & 2) ? 'w' : '-', (m.prot & 4) ? 'x' : '-',
                  (m.flags & 1) ? 's' : 'p', 0};
  if (m.with_build_id) {
    s.summary = Sprintf("%s/%s: [%#llx(%#llx) @ %#llx <%s>]: %s %s", pid.c_str(), tid.c_str(),
                        static_cast<ull>(m.start), static_cast<ull>(m.len), static_cast<ull>(m.pgoff),
                        m.build_id.c_str(), perm, m.filename.c_str());
  } else {
    s.summary = Sprintf("%s/%s: [%#llx(%#llx) @ %#llx %02x:%02x %llu %llu]: %s %s", pid.c_str(), tid.c_str(),
                        static_cast<ull>(m.start), static_cast<ull>(m.len), static_cast<ull>(m.pgoff), m.maj, m.min,
                        static_cast<ull>(m.ino), static_cast<ull>(m.ino_generation), perm, m.filename.c_str());
  }
}

void DecLost(FieldReader& c, State& s) {
  LostRecord l;
  ParseLost(c, &l);
  s.summary = Sprintf("id:%llu: lost:%llu", static_cast<ull>(l.id), static_cast<ull>(l.lost));
}

void DecComm(FieldReader& c, State& s) {
  CommRecord r;
  ParseComm(c, &r);
  s.summary = Sprintf("%s%s:%d/%d", (s.misc & kMiscMmapData) ? "exec: " : "", r.comm.c_str(), r.pid, r.tid);
}

void DecTask(FieldReader& c, State& s) {  // EXIT, FORK
  TaskRecord t;
  ParseTask(c, &t);
  s.summary = Sprintf("(%d:%d):(%d:%d)", t.pid, t.tid, t.ppid, t.ptid);
}

void DecThrottle(FieldReader& c, State& s) {
  ThrottleRecord t;
  ParseThrottle(c, &t);
  s.summary = Sprintf("time %llu id %llu stream_id %llu", static_cast<ull>(t.time), static_cast<ull>(t.id),
                      static_cast<ull>(t.stream_id));
}

// struct read_format as the attr's read_format lays it out (kernel perf_output_read()).
uint64_t DecReadValues(FieldReader& c, uint64_t rf) {
  uint64_t first = 0;
  if (rf & kReadGroup) {
    uint64_t nr = 0;
    c.U64("nr", &nr);
    if (rf & kReadTotalTimeEnabled) c.U64("time_enabled", nullptr);
    if (rf & kReadTotalTimeRunning) c.U64("time_running", nullptr);
    uint64_t per = 8 + ((rf & kReadId) ? 8 : 0) + ((rf & kReadLost) ? 8 : 0);
    if (c.failed()) return 0;
    if (nr > c.remaining() / per) {
      c.Need(nr <= UINT64_MAX / per ? nr * per : UINT64_MAX, "values[" + std::to_string(nr) + "]");
      return 0;
    }
    FieldReader::Group arr(c, "values", std::to_string(nr) + " entries");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      uint64_t v = 0;
      std::string p = "[" + std::to_string(i) + "].";
      c.U64(p + "value", &v);
      if (i == 0) first = v;
      if (rf & kReadId) c.U64(p + "id", nullptr);
      if (rf & kReadLost) c.U64(p + "lost", nullptr);
    }
  } else {
    c.U64("value", &first);
    if (rf & kReadTotalTimeEnabled) c.U64("time_enabled", nullptr);
    if (rf & kReadTotalTimeRunning) c.U64("time_running", nullptr);
    if (rf & kReadId) c.U64("id", nullptr);
    if (rf & kReadLost) c.U64("lost", nullptr);
  }
  return first;
}

void DecRead(FieldReader& c, State& s) {
  uint32_t pid = 0, tid = 0;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  uint64_t value = 0;
  if (s.attr) {
    value = DecReadValues(c, s.attr->read_format);
  } else {
    c.U64("value", &value);
    c.Rest(" (read_format unknown: attr not known)");
  }
  s.summary = Pid(pid) + " " + Pid(tid) + " " + (s.attr ? EventName(*s.attr, "") : "?") + " " +
              std::to_string(value);
}

void DecAux(FieldReader& c, State& s) {
  AuxRecord a;
  ParseAux(c, &a);
  s.summary = Sprintf("offset: %#llx size: %#llx flags: %#llx [%s%s%s]", static_cast<ull>(a.aux_offset),
                      static_cast<ull>(a.aux_size), static_cast<ull>(a.flags), (a.flags & 1) ? "T" : "",
                      (a.flags & 2) ? "O" : "", (a.flags & 4) ? "P" : "");
}

void DecItraceStart(FieldReader& c, State& s) {
  ItraceStartRecord t;
  ParseItraceStart(c, &t);
  s.summary = Sprintf("pid: %u tid: %u", static_cast<uint32_t>(t.pid), static_cast<uint32_t>(t.tid));
}

void DecLostSamples(FieldReader& c, State& s) {
  LostSamplesRecord l;
  ParseLostSamples(c, &l);
  s.summary.clear();
  if (s.have_sid && (s.attr->sample_type & (kSampleId | kSampleIdentifier))) {
    s.summary = Sprintf("id:%llu: ", static_cast<ull>(s.sid.id));
  }
  s.summary += Sprintf("lost samples :%llu%s", static_cast<ull>(l.lost), (s.misc & 0x8000) ? " (BPF)" : "");
}

void DecSwitch(FieldReader& c, State& s) {
  bool out = s.misc & kMiscSwitchOut;
  const char* in_out = !out ? "IN" : (s.misc & (1u << 14)) ? "OUT preempt" : "OUT";
  SwitchRecord w;
  ParseSwitch(c, s.type, &w);
  s.summary = in_out;
  if (s.type == kSwitchCpuWide)
    s.summary += Sprintf("%s pid/tid: %d/%d", out ? " next" : " prev", w.next_prev_pid, w.next_prev_tid);
}

void DecNamespaces(FieldReader& c, State& s) {
  NamespacesRecord n;
  ParseNamespaces(c, &n);
  std::string list;
  for (size_t i = 0; i < n.links.size(); ++i)
    list += Sprintf("%s%llu/%s: %llu/%#llx", i ? ", " : "", static_cast<ull>(i), NamespaceName(i),
                    static_cast<ull>(n.links[i].dev), static_cast<ull>(n.links[i].ino));
  s.summary = Sprintf("%d/%d - nr_namespaces: %llu [", n.pid, n.tid, static_cast<ull>(n.nr_namespaces)) + list + "]";
}

void DecKsymbol(FieldReader& c, State& s) {
  KsymbolRecord k;
  ParseKsymbol(c, &k);
  s.summary = Sprintf("addr %llx len %u type %u flags 0x%x name %s", static_cast<ull>(k.addr), k.len, k.ksym_type,
                      k.flags, k.name.c_str());
}

void DecBpfEvent(FieldReader& c, State& s) {
  BpfEventRecord b;
  ParseBpfEvent(c, &b);
  s.summary = Sprintf("type %u, flags %u, id %u", b.type, b.flags, b.id);
}

void DecCgroup(FieldReader& c, State& s) {
  CgroupRecord g;
  ParseCgroup(c, &g);
  s.summary = Sprintf("cgroup: %llu %s", static_cast<ull>(g.id), g.path.c_str());
}

void DecTextPoke(FieldReader& c, State& s) {
  TextPokeRecord t;
  ParseTextPoke(c, &t);
  s.summary = Sprintf("%llx old len %u new len %u", static_cast<ull>(t.addr), t.old_len, t.new_len);
}

void DecAuxOutputHwId(FieldReader& c, State& s) {
  uint64_t id = 0;
  c.U64("hw_id", &id, Fmt::kHex);
  s.summary = "hw_id: " + AltHex(id);
}

// --- perf's own records ---

void DecHeaderAttr(FieldReader& c, State& s) {
  HeaderAttrRecord h;
  if (!ParseHeaderAttr(c, &h)) return;
  const size_t nids = h.ids.size();
  std::string ids;
  for (size_t i = 0; i < nids && i <= 8; ++i) ids += i == 8 ? ", ..." : (i ? ", " : "") + std::to_string(h.ids[i]);
  s.summary = EventName(h.attr, "") + ", attr size " + std::to_string(h.declared_size) + ", " + std::to_string(nids) +
              (nids == 1 ? " id" : " ids") + (nids ? ": " + ids : "");
}

void DecEventType(FieldReader& c, State& s) {
  uint64_t id = 0;
  std::string name;
  c.U64("event_id", &id);
  size_t area = c.remaining() < 64 ? c.remaining() : 64;
  c.Str("name", area, &name);
  s.summary = std::to_string(id) + ": " + name;
}

void DecTracingData(FieldReader& c, State& s) {
  uint32_t size = 0;
  if (c.U32("size", &size)) c.Last().value += " (tracing data follow the record)";
  s.summary = "size: " + std::to_string(size);
}

void DecBuildId(FieldReader& c, State& s) {
  uint32_t pid = 0;
  std::string bid, file;
  c.U32("pid", &pid, Fmt::kS32);
  if (c.Need(24, "build_id")) {
    const uint8_t* p = c.reader().cursor();
    if (s.misc & 0x8000) {  // PERF_RECORD_MISC_BUILD_ID_SIZE: data[20], size, 3 reserved
      size_t n = p[20] <= 20 ? p[20] : 20;
      bid = HexBytes(p, n);
      c.Blob("build_id", 20, bid.empty() ? "(empty)" : bid);
      c.U8("build_id_size", nullptr);
      c.U8("reserved1", nullptr);
      c.U16("reserved2", nullptr);
    } else {
      bid = HexBytes(p, 20);
      c.Blob("build_id", 24, bid);
    }
  }
  c.StrRest("filename", &file);
  s.summary = "pid " + Pid(pid) + " <" + bid + ">: " + file;
}

void DecIdIndex(FieldReader& c, State& s) {
  uint64_t nr = 0;
  c.U64("nr", &nr);
  if (c.failed()) return;
  s.summary = "nr: " + std::to_string(nr);
  if (nr > c.remaining() / 32) {
    c.Need(nr <= UINT64_MAX / 32 ? nr * 32 : UINT64_MAX, "entries[" + std::to_string(nr) + "]");
    return;
  }
  {
    FieldReader::Group arr(c, "entries", std::to_string(nr) + " entries");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      Field& e = *c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 32, "");
      std::vector<Field>* old = c.Target(&e.children);
      uint64_t id = 0, idx = 0, cpu = 0, tid = 0;
      c.U64("id", &id);
      c.U64("idx", &idx);
      c.U64("cpu", &cpu, Fmt::kS64);
      c.U64("tid", &tid, Fmt::kS64);
      c.Target(old);
      std::string v = Sprintf("id: %llu idx: %llu cpu: %lld tid: %lld", static_cast<ull>(id),
                              static_cast<ull>(idx), static_cast<ll>(cpu), static_cast<ll>(tid));
      c.Last().value = v;
      if (i < 4) s.summary += (i ? "; " : " [") + v;
    }
  }
  if (nr) s.summary += nr > 4 ? "; ...]" : "]";
  // Newer perf appends {machine_pid, vcpu} per entry (id_index_entry_2).
  if (nr && c.remaining() >= nr * 16) {
    FieldReader::Group arr(c, "entries_2", std::to_string(nr) + " entries");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      Field& e = *c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 16, "");
      std::vector<Field>* old = c.Target(&e.children);
      uint64_t mpid = 0, vcpu = 0;
      c.U64("machine_pid", &mpid, Fmt::kS64);
      c.U64("vcpu", &vcpu, Fmt::kS64);
      c.Target(old);
      c.Last().value = Sprintf("machine_pid: %lld vcpu: %lld", static_cast<ll>(mpid), static_cast<ll>(vcpu));
    }
  }
}

const char* AuxtraceTypeName(uint32_t t) {
  static const char* const names[] = {"UNKNOWN", "INTEL_PT", "INTEL_BTS", "CS_ETM",
                                      "ARM_SPE", "S390_CPUMSF", "HISI_PTT", "VPA_DTL"};
  return t < 8 ? names[t] : nullptr;
}

void DecAuxtraceInfo(FieldReader& c, State& s) {
  uint32_t t = 0;
  if (c.U32("type", &t) && AuxtraceTypeName(t)) c.Last().value += std::string(" ") + AuxtraceTypeName(t);
  c.U32("reserved", nullptr);
  if (!c.failed()) {
    uint64_t n = c.remaining() / 8;
    FieldReader::Group arr(c, "priv", std::to_string(n) + " u64");
    for (uint64_t i = 0; i < n; ++i) c.U64("[" + std::to_string(i) + "]", nullptr, Fmt::kHex);
  }
  s.summary = "type: " + std::to_string(t);
}

void DecAuxtrace(FieldReader& c, State& s) {
  uint64_t size = 0, off = 0, ref = 0;
  uint32_t idx = 0, tid = 0, cpu = 0;
  if (c.U64("size", &size, Fmt::kHex)) c.Last().value += " (" + std::to_string(size) + " bytes of trace data follow the record)";
  c.U64("offset", &off, Fmt::kHex);
  c.U64("reference", &ref, Fmt::kHex);
  c.U32("idx", &idx);
  c.U32("tid", &tid, Fmt::kS32);
  c.U32("cpu", &cpu, Fmt::kS32);
  c.U32("reserved", nullptr);
  s.summary = Sprintf("size: %#llx offset: %#llx ref: %#llx idx: %u tid: %d cpu: %d",
                      static_cast<ull>(size), static_cast<ull>(off), static_cast<ull>(ref), idx,
                      static_cast<int32_t>(tid), static_cast<int32_t>(cpu));
}

void DecAuxtraceError(FieldReader& c, State& s) {
  uint32_t etype = 0, code = 0, cpu = 0, pid = 0, tid = 0, fmt = 0, mpid = 0, vcpu = 0;
  uint64_t ip = 0, time = 0;
  std::string msg;
  if (c.U32("type", &etype) && etype == 1) c.Last().value += " ITRACE";
  c.U32("code", &code);
  c.U32("cpu", &cpu, Fmt::kS32);
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  c.U32("fmt", &fmt);
  c.U64("ip", &ip, Fmt::kHex);
  if (fmt >= 1) c.U64("time", &time);  // fmt 0: msg starts where time is
  if (!c.failed()) c.Str("msg", c.remaining() < 64 ? c.remaining() : 64, &msg);
  if (fmt >= 2 && !c.failed()) {
    c.U32("machine_pid", &mpid, Fmt::kS32);
    c.U32("vcpu", &vcpu, Fmt::kS32);
  }
  s.summary = Sprintf("%s error type %u", etype == 1 ? "instruction trace" : "unknown AUX", etype);
  if (fmt && time) {
    s.summary += Sprintf(" time %llu.%09llu", static_cast<ull>(time / 1000000000ULL),
                         static_cast<ull>(time % 1000000000ULL));
  }
  if (fmt >= 2 && mpid) s.summary += Sprintf(" machine_pid %d vcpu %d", static_cast<int32_t>(mpid), static_cast<int32_t>(vcpu));
  s.summary += Sprintf(" cpu %d pid %d tid %d ip %#llx code %u: %s", static_cast<int32_t>(cpu),
                       static_cast<int32_t>(pid), static_cast<int32_t>(tid), static_cast<ull>(ip),
                       code, msg.c_str());
}

void DecThreadMap(FieldReader& c, State& s) {
  uint64_t nr = 0;
  c.U64("nr", &nr);
  if (c.failed()) return;
  if (nr > c.remaining() / 24) {
    c.Need(nr <= UINT64_MAX / 24 ? nr * 24 : UINT64_MAX, "entries[" + std::to_string(nr) + "]");
    return;
  }
  std::string list;
  {
    FieldReader::Group arr(c, "entries", std::to_string(nr) + " threads");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      Field& e = *c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 24, "");
      std::vector<Field>* old = c.Target(&e.children);
      uint64_t pid = 0;
      std::string comm;
      c.U64("pid", &pid, Fmt::kS32);
      c.Str("comm", 16, &comm);
      c.Target(old);
      c.Last().value = Pid(static_cast<uint32_t>(pid)) + " " + QuoteString(comm);
      if (i < 16) list += (i ? ", " : "") + Pid(static_cast<uint32_t>(pid));
      else if (i == 16) list += ", ...";
    }
  }
  s.summary = "nr: " + std::to_string(nr) + (nr > 1 ? " threads: " : " thread: ") + list;
}

// perf_record_cpu_map_data (packed): u16 type, then the encoding. Returns the CPUs.
void DecCpuMap(FieldReader& c, State& s) {
  std::vector<int> cpus = ParseCpuMapData(c);
  s.summary = CpuListString(cpus);
}

void DecStatConfig(FieldReader& c, State& s) {
  uint64_t nr = 0;
  c.U64("nr", &nr);
  if (c.failed()) return;
  if (nr > c.remaining() / 16) {
    c.Need(nr <= UINT64_MAX / 16 ? nr * 16 : UINT64_MAX, "data[" + std::to_string(nr) + "]");
    return;
  }
  static const char* const tags[] = {"aggr_mode", "interval", "scale", "aggr_level"};
  FieldReader::Group arr(c, "data", std::to_string(nr) + " entries");
  for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
    Field& e = *c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 16, "");
    std::vector<Field>* old = c.Target(&e.children);
    uint64_t tag = 0, val = 0;
    if (c.U64("tag", &tag) && tag < 4) c.Last().value += std::string(" ") + tags[tag];
    c.U64("val", &val);
    c.Target(old);
    std::string v = (tag < 4 ? std::string(tags[tag]) : "tag " + std::to_string(tag)) + " " +
                    std::to_string(val);
    c.Last().value = v;
    s.summary += (i ? ", " : "") + v;
  }
}

void DecStat(FieldReader& c, State& s) {
  uint64_t id = 0, val = 0, ena = 0, run = 0;
  uint32_t cpu = 0, thread = 0;
  c.U64("id", &id);
  c.U32("cpu", &cpu, Fmt::kS32);
  c.U32("thread", &thread, Fmt::kS32);
  c.U64("val", &val);
  c.U64("ena", &ena);
  c.U64("run", &run);
  s.summary = Sprintf("id %llu, cpu %d, thread %d, value %llu, enabled %llu, running %llu",
                      static_cast<ull>(id), static_cast<int32_t>(cpu), static_cast<int32_t>(thread),
                      static_cast<ull>(val), static_cast<ull>(ena), static_cast<ull>(run));
}

void DecStatRound(FieldReader& c, State& s) {
  uint64_t type = 0, time = 0;
  if (c.U64("type", &type)) c.Last().value += type == 1 ? " FINAL" : type == 0 ? " INTERVAL" : "";
  c.U64("time", &time);
  s.summary = Sprintf("time %llu, type %s", static_cast<ull>(time), type == 1 ? "FINAL" : "INTERVAL");
}

void DecEventUpdate(FieldReader& c, State& s) {
  EventUpdateRecord e;
  ParseEventUpdate(c, &e);
  if (!e.id_ok) return;
  s.summary = "id: " + std::to_string(e.id);
  switch (e.type) {
    case 0: s.summary += " unit: " + e.text; break;
    case 1: if (e.scale_ok) s.summary += Sprintf(" scale: %f", e.scale); break;
    case 2: s.summary += " name: " + e.text; break;
    case 3: s.summary += " cpus: " + CpuListString(e.cpus); break;
    default: break;
  }
}

void DecTimeConv(FieldReader& c, State& s) {
  TimeConvRecord t;
  ParseTimeConv(c, &t);
  s.summary = Sprintf("time_shift %llu time_mult %llu time_zero %llu", static_cast<ull>(t.time_shift),
                      static_cast<ull>(t.time_mult), static_cast<ull>(t.time_zero));
  if (t.extended)
    s.summary += Sprintf(" time_cycles %llu time_mask %#llx cap_user_time_zero %u cap_user_time_short %u",
                         static_cast<ull>(t.time_cycles), static_cast<ull>(t.time_mask), t.cap_user_time_zero,
                         t.cap_user_time_short);
}

void DecHeaderFeature(FieldReader& c, State& s) {
  HeaderFeatureRecord h;
  if (!ParseHeaderFeature(c, &h)) return;
  std::vector<Field>& out = *c.target();
  const size_t id_field = out.size() - 1;
  // The rest of the record is the feature section's bytes (possibly empty:
  // BRANCH_STACK, STAT, and the end-of-features marker carry none).
  FeatureContext fctx = s.features ? *s.features : FeatureContext{};
  Diagnostics local;
  FieldList fl;
  DecodeFeature(h.feature, h.body, fctx, fl, s.diags ? *s.diags : local);
  if (!fl.items().empty()) {
    const Field& top = fl.items().front();
    out[id_field].value += " " + top.name;
    s.summary = top.value.empty() ? top.name : top.name + ": " + Shorten(top.value, 120);
  } else {
    s.summary = "feature " + std::to_string(h.raw_id);
  }
  for (Field& f : fl.items()) out.push_back(std::move(f));
}

void DecCompressed(FieldReader& c, State& s) {  // COMPRESSED, COMPRESSED2
  CompressedRecord z;
  ParseCompressed(c, s.type, &z);
  s.summary = s.type == kCompressed ? std::to_string(z.data_len) + " bytes" : "data_size: " + std::to_string(z.data_size);
}

void Dispatch(FieldReader& c, State& s) {
  switch (s.type) {
    case kMmap:
    case kMmap2: DecMmap(c, s); break;
    case kLost: DecLost(c, s); break;
    case kComm: DecComm(c, s); break;
    case kExit:
    case kFork: DecTask(c, s); break;
    case kThrottle:
    case kUnthrottle: DecThrottle(c, s); break;
    case kRead: DecRead(c, s); break;
    case kAux: DecAux(c, s); break;
    case kItraceStart: DecItraceStart(c, s); break;
    case kLostSamples: DecLostSamples(c, s); break;
    case kSwitch:
    case kSwitchCpuWide: DecSwitch(c, s); break;
    case kNamespaces: DecNamespaces(c, s); break;
    case kKsymbol: DecKsymbol(c, s); break;
    case kBpfEvent: DecBpfEvent(c, s); break;
    case kCgroup: DecCgroup(c, s); break;
    case kTextPoke: DecTextPoke(c, s); break;
    case kAuxOutputHwId: DecAuxOutputHwId(c, s); break;
    case kHeaderAttr: DecHeaderAttr(c, s); break;
    case kHeaderEventType: DecEventType(c, s); break;
    case kHeaderTracingData: DecTracingData(c, s); break;
    case kHeaderBuildId: DecBuildId(c, s); break;
    case kFinishedRound:
    case kFinishedInit: break;
    case kIdIndex: DecIdIndex(c, s); break;
    case kAuxtraceInfo: DecAuxtraceInfo(c, s); break;
    case kAuxtrace: DecAuxtrace(c, s); break;
    case kAuxtraceError: DecAuxtraceError(c, s); break;
    case kThreadMap: DecThreadMap(c, s); break;
    case kCpuMap: DecCpuMap(c, s); break;
    case kStatConfig: DecStatConfig(c, s); break;
    case kStat: DecStat(c, s); break;
    case kStatRound: DecStatRound(c, s); break;
    case kEventUpdate: DecEventUpdate(c, s); break;
    case kTimeConv: DecTimeConv(c, s); break;
    case kHeaderFeature: DecHeaderFeature(c, s); break;
    case kCompressed:
    case kCompressed2: DecCompressed(c, s); break;
    default: break;
  }
}

void Decode(ByteReader rec, const PerfEventAttr* attr, std::vector<Field>& out, Diagnostics* diags,
            const FeatureContext* features, std::string* summary) {
  RecordProblems ctx;
  ctx.diags = diags;
  ctx.rec_offset = rec.base();
  rec.Seek(0);
  if (rec.size() >= 4 && IsSimpleperfType(rec.PeekU32(0))) {  // simpleperf's own records, 32-bit size
    SimpleperfRecordFields(rec, out, diags, summary);
    return;
  }

  // --- header ---
  const size_t have_hdr = rec.size() < kEventHeaderSize ? rec.size() : kEventHeaderSize;
  uint32_t type = 0;
  uint16_t misc = 0, size = 0;
  if (rec.size() >= 4) {
    type = rec.PeekU32(0);
    const char* n = RecordTypeName(type);
    ctx.rec_name = *n ? n : "record type " + std::to_string(type);
  }
  if (rec.size() >= 8) ctx.declared = rec.PeekU16(6);
  {
    Field hdr{"header", rec.base(), have_hdr, "", {}};
    FieldReader hc(rec.Slice(0, have_hdr), &hdr.children, &ctx);
    if (hc.U32("type", &type)) {
      const char* n = RecordTypeName(type);
      hc.Last().value += std::string(" (") + (*n ? n : "unknown") + ")";
    }
    if (hc.U16("misc", &misc)) hc.Last().value = MiscString(type, misc);
    hc.U16("size", &size);
    const char* n = RecordTypeName(type);
    hdr.value = (*n ? std::string(n) : "type " + std::to_string(type));
    if (have_hdr >= 6) hdr.value += ", misc " + MiscString(type, misc);
    if (have_hdr >= 8) hdr.value += ", size " + std::to_string(size);
    out.push_back(std::move(hdr));
    if (hc.failed()) return;
  }

  // --- record extent: never past header.size, never past the slice ---
  size_t extent = rec.size();
  if (size < kEventHeaderSize) {
    if (diags) {
      diags->Error(DiagCode::kRecordTooSmall, rec.base(), kEventHeaderSize,
                   ctx.rec_name + " record at " + Hex(rec.base()) + " declares size " +
                       std::to_string(size) + ", below the 8-byte header");
    }
    extent = kEventHeaderSize;
  } else if (size < extent) {
    extent = size;
  } else if (size > extent) {
    if (diags) {
      diags->Error(DiagCode::kRecordTruncated, rec.base(), rec.size(),
                   ctx.rec_name + " record at " + Hex(rec.base()) + " declares " +
                       std::to_string(size) + " bytes but only " + std::to_string(rec.size()) +
                       " are available");
    }
  }

  State s;
  s.type = type;
  s.misc = misc;
  s.attr = attr;
  s.diags = diags;
  s.features = features;
  s.payload = rec.Slice(kEventHeaderSize, extent - kEventHeaderSize);

  if (type == kSample) {
    if (!attr) {
      FieldReader c(s.payload, &out, &ctx);
      c.Blob("payload", s.payload.size(),
             std::to_string(s.payload.size()) + " bytes (sample_type unknown: no attr)");
      if (summary) *summary = std::to_string(s.payload.size()) + " bytes (no attr)";
      return;
    }
    FieldList fl;
    SampleData sd;
    ParseSample(s.payload, *attr, &sd, &fl, diags);
    for (Field& f : fl.items()) out.push_back(std::move(f));
    if (summary) {
      const uint64_t st = attr->sample_type;
      int32_t pid = (st & kSampleTid) ? static_cast<int32_t>(sd.pid) : -1;
      int32_t tid = (st & kSampleTid) ? static_cast<int32_t>(sd.tid) : -1;
      uint64_t period = (st & kSamplePeriod) ? sd.period : attr->sample_period_or_freq;
      *summary = Sprintf("%d/%d: %#llx period: %llu", pid, tid, static_cast<ull>(sd.ip),
                         static_cast<ull>(period));
      if (st & kSampleAddr) *summary += " addr: " + AltHex(sd.addr);
    }
    return;
  }

  if (!IsKernelType(type) && (type < kHeaderAttr || type >= kUserMax)) {
    FieldReader c(s.payload, &out, &ctx);
    if (s.payload.size()) c.Blob("payload", s.payload.size(), std::to_string(s.payload.size()) + " bytes (unknown record type)");
    if (summary) *summary = std::to_string(s.payload.size()) + " bytes of unknown record type " + std::to_string(type);
    return;
  }

  // --- kernel records: the sample_id trailer sits at the end of the payload ---
  ByteReader body = s.payload;
  bool trailer = false;
  if (IsKernelType(type) && attr && attr->sample_id_all()) {
    uint32_t idsz = SampleIdSize(attr->sample_type);
    if (idsz && s.payload.size() >= idsz) {
      body = s.payload.Slice(0, s.payload.size() - idsz);
      trailer = true;
    } else if (idsz) {
      ctx.Overrun("sample_id", s.payload.base(), idsz, s.payload.size());
    }
  }
  if (trailer) {
    s.have_sid = ParseSampleId(s.payload, *attr, &s.sid, nullptr);
  }

  FieldReader c(body, &out, &ctx);
  Dispatch(c, s);
  if (IsKernelType(type) && !attr && c.remaining() >= 8) {
    c.Rest(" (sample_id trailer? attr not known)");
  } else {
    c.Rest();
  }
  if (trailer) {
    FieldList tf;
    SampleData sd;
    ParseSampleId(s.payload, *attr, &sd, &tf);
    for (Field& f : tf.items()) out.push_back(std::move(f));
  }
  if (summary) *summary = std::move(s.summary);
}

}  // namespace

void DecodeRecordFields(ByteReader rec, const PerfEventAttr* attr, FieldList& out,
                        Diagnostics* diags, const FeatureContext* features) {
  Decode(rec, attr, out.items(), diags, features, nullptr);
}

std::string RecordSummary(ByteReader rec, const PerfEventAttr* attr) {
  std::vector<Field> scratch;
  std::string summary;
  Decode(rec, attr, scratch, nullptr, nullptr, &summary);
  return summary;
}

}  // namespace profscope::perf
