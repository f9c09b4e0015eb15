#include "core/format/perf/perf_record_fields.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/format/perf/perf_features.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "core/format/perf/simpleperf_format.h"
#include "core/format/perf/simpleperf_record_fields.h"

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

std::string HexBytes(const uint8_t* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

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

std::string ProtString(uint32_t prot) {
  std::string s = Hex(prot) + " ";
  s += (prot & 1) ? 'r' : '-';
  s += (prot & 2) ? 'w' : '-';
  s += (prot & 4) ? 'x' : '-';
  return s;
}

std::string MapFlagsString(uint32_t flags) {
  std::string names;
  auto add = [&](const char* n) {
    if (!names.empty()) names += '|';
    names += n;
  };
  uint32_t left = flags;
  if (left & 0x01) { add("MAP_SHARED"); left &= ~0x01u; }
  if (left & 0x02) { add("MAP_PRIVATE"); left &= ~0x02u; }
  if (left & 0x20) { add("MAP_ANONYMOUS"); left &= ~0x20u; }
  if (left & 0x800) { add("MAP_DENYWRITE"); left &= ~0x800u; }
  if (left & 0x1000) { add("MAP_EXECUTABLE"); left &= ~0x1000u; }
  if (left & 0x40000) { add("MAP_HUGETLB"); left &= ~0x40000u; }
  if (left) add(Hex(left).c_str());
  return names.empty() ? Hex(flags) : Hex(flags) + " " + names;
}

// perf's cpu_map__snprint(): runs of consecutive CPUs as "a-b", comma separated.
std::string CpuListString(const std::vector<int>& cpus) {
  std::string out;
  size_t i = 0;
  while (i < cpus.size()) {
    size_t j = i;
    while (j + 1 < cpus.size() && static_cast<long>(cpus[j + 1]) - cpus[i] == static_cast<long>(j + 1 - i)) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? std::to_string(cpus[i]) : std::to_string(cpus[i]) + "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Cursor that appends one Field per member and reports members that overrun.

struct Ctx {
  std::string rec_name = "record";
  uint64_t rec_offset = 0;
  uint32_t declared = 0;
  Diagnostics* diags = nullptr;

  void Overrun(const std::string& member, uint64_t at, uint64_t need, size_t left) {
    if (!diags) return;
    diags->Error(DiagCode::kRecordFieldOverrun, at, left,
                 rec_name + " record at " + Hex(rec_offset) + ": " + member + " needs " +
                     std::to_string(need) + " bytes at " + Hex(at) + " but only " +
                     std::to_string(left) + " are left in the record (header.size " +
                     std::to_string(declared) + ")");
  }
};

enum class Fmt { kDec, kHex, kS32, kS64 };

std::string FormatNum(uint64_t v, Fmt f) {
  switch (f) {
    case Fmt::kHex: return Hex(v);
    case Fmt::kS32: return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(v)));
    case Fmt::kS64: return std::to_string(static_cast<int64_t>(v));
    default: return std::to_string(v);
  }
}

class Cur {
 public:
  Cur(ByteReader r, std::vector<Field>* out, Ctx* ctx) : r_(r), out_(out), ctx_(ctx) {}

  ByteReader& reader() { return r_; }
  size_t remaining() const { return r_.remaining(); }
  uint64_t abs_pos() const { return r_.abs_pos(); }
  bool failed() const { return failed_; }
  std::vector<Field>* out() { return out_; }
  // Redirects the fields (e.g. into a parent's children); returns the previous target.
  std::vector<Field>* Target(std::vector<Field>* t) {
    std::vector<Field>* old = out_;
    out_ = t;
    return old;
  }
  Field& Last() { return out_->back(); }
  Field& Add(std::string name, uint64_t at, uint64_t size, std::string value) {
    out_->push_back(Field{std::move(name), at, size, std::move(value), {}});
    return out_->back();
  }

  // True when n more bytes are there for `member`; otherwise records the
  // overrun (a field over the bytes left + one diagnostic) and fails.
  bool Need(uint64_t n, const std::string& member) {
    if (failed_) return false;
    if (n <= r_.remaining()) return true;
    failed_ = true;
    size_t left = r_.remaining();
    uint64_t at = r_.abs_pos();
    if (left) {
      Add(member, at, left,
          "truncated: " + std::to_string(left) + " of " + std::to_string(n) + " bytes");
    }
    ctx_->Overrun(member, at, n, left);
    r_.Skip(left);
    return false;
  }
  // Stops decoding (a count or size that cannot be right) without a field.
  void Stop() { failed_ = true; }

  bool U8(const std::string& name, uint8_t* v, Fmt f = Fmt::kDec) {
    if (!Need(1, name)) return false;
    uint64_t at = r_.abs_pos();
    uint8_t x = r_.U8();
    if (v) *v = x;
    Add(name, at, 1, FormatNum(x, f));
    return true;
  }
  bool U16(const std::string& name, uint16_t* v, Fmt f = Fmt::kDec) {
    if (!Need(2, name)) return false;
    uint64_t at = r_.abs_pos();
    uint16_t x = r_.U16();
    if (v) *v = x;
    Add(name, at, 2, FormatNum(x, f));
    return true;
  }
  bool U32(const std::string& name, uint32_t* v, Fmt f = Fmt::kDec) {
    if (!Need(4, name)) return false;
    uint64_t at = r_.abs_pos();
    uint32_t x = r_.U32();
    if (v) *v = x;
    Add(name, at, 4, FormatNum(x, f));
    return true;
  }
  bool U64(const std::string& name, uint64_t* v, Fmt f = Fmt::kDec) {
    if (!Need(8, name)) return false;
    uint64_t at = r_.abs_pos();
    uint64_t x = r_.U64();
    if (v) *v = x;
    Add(name, at, 8, FormatNum(x, f));
    return true;
  }
  // A NUL-terminated string in an area of `area` bytes (the field covers the area).
  bool Str(const std::string& name, uint64_t area, std::string* v) {
    if (!Need(area ? area : 1, name)) return false;
    uint64_t at = r_.abs_pos();
    const char* p = reinterpret_cast<const char*>(r_.cursor());
    size_t n = static_cast<size_t>(area);
    size_t len = strnlen(p, n);
    std::string s(p, len);
    r_.Skip(n);
    if (len == n && ctx_->diags) {
      ctx_->diags->Warning(DiagCode::kBadString, at, n,
                           ctx_->rec_name + " record at " + Hex(ctx_->rec_offset) + ": " + name +
                               " has no NUL terminator within its " + std::to_string(n) +
                               "-byte area");
    }
    Add(name, at, n, QuoteString(s));
    if (v) *v = std::move(s);
    return true;
  }
  // The rest of the cursor as a string area.
  bool StrRest(const std::string& name, std::string* v) { return Str(name, r_.remaining(), v); }
  // n raw bytes; `value` defaults to "<n> bytes".
  bool Blob(const std::string& name, uint64_t n, std::string value = {},
            const uint8_t** data = nullptr) {
    if (!Need(n, name)) return false;
    uint64_t at = r_.abs_pos();
    if (data) *data = r_.cursor();
    r_.Skip(static_cast<size_t>(n));
    Add(name, at, n, value.empty() ? std::to_string(n) + " bytes" : std::move(value));
    return true;
  }
  // Bytes no member describes.
  void Rest(const char* note = nullptr) {
    if (failed_ || r_.remaining() == 0) return;
    size_t n = r_.remaining();
    const uint8_t* p = r_.cursor();
    bool zero = true;
    for (size_t i = 0; i < n && zero; ++i) zero = p[i] == 0;
    std::string value = std::to_string(n) + " bytes";
    if (note) value += note;
    Add(zero ? "padding" : "unparsed", r_.abs_pos(), n, value);
    r_.Skip(n);
  }

 private:
  ByteReader r_;
  std::vector<Field>* out_;
  Ctx* ctx_;
  bool failed_ = false;
};

// Helper to build an array parent: children go into the parent while alive.
class ArrayScope {
 public:
  ArrayScope(Cur& c, std::string name, std::string value) : c_(c) {
    start_ = c.abs_pos();
    Field& f = c.Add(std::move(name), start_, 0, std::move(value));
    parent_ = c.out();
    index_ = parent_->size() - 1;
    old_ = c.Target(&f.children);
  }
  ~ArrayScope() {
    c_.Target(old_);
    Field& f = (*parent_)[index_];
    f.size = c_.abs_pos() - start_;
  }
  Field& parent() { return (*parent_)[index_]; }

 private:
  Cur& c_;
  std::vector<Field>* parent_;
  std::vector<Field>* old_;
  size_t index_;
  uint64_t start_;
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

void DecMmap(Cur& c, State& s) {
  uint32_t pid = 0, tid = 0;
  uint64_t start = 0, len = 0, pgoff = 0;
  std::string file;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  c.U64("start", &start, Fmt::kHex);
  c.U64("len", &len, Fmt::kHex);
  c.U64("pgoff", &pgoff, Fmt::kHex);
  c.StrRest("filename", &file);
  s.summary = Sprintf("%s/%s: [%#llx(%#llx) @ %#llx]: %c %s", Pid(pid).c_str(), Pid(tid).c_str(),
                      static_cast<ull>(start), static_cast<ull>(len), static_cast<ull>(pgoff),
                      (s.misc & kMiscMmapData) ? 'r' : 'x', file.c_str());
}

void DecMmap2(Cur& c, State& s) {
  uint32_t pid = 0, tid = 0, maj = 0, min = 0, prot = 0, flags = 0;
  uint64_t start = 0, len = 0, pgoff = 0, ino = 0, gen = 0;
  std::string file, bid;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  c.U64("start", &start, Fmt::kHex);
  c.U64("len", &len, Fmt::kHex);
  c.U64("pgoff", &pgoff, Fmt::kHex);
  const bool with_build_id = s.misc & kMiscMmapBuildId;
  if (with_build_id) {
    uint8_t bsize = 0;
    c.U8("build_id_size", &bsize);
    c.U8("reserved1", nullptr);
    c.U16("reserved2", nullptr);
    if (c.Need(20, "build_id")) {
      size_t n = bsize <= 20 ? bsize : 20;
      bid = HexBytes(c.reader().cursor(), n);
      c.Blob("build_id", 20, bid.empty() ? "(empty)" : bid);
      if (bsize > 20) c.Last().value += " (build_id_size " + std::to_string(bsize) + " > 20)";
    }
  } else {
    c.U32("maj", &maj);
    c.U32("min", &min);
    c.U64("ino", &ino);
    c.U64("ino_generation", &gen);
  }
  if (c.U32("prot", &prot)) c.Last().value = ProtString(prot);
  if (c.U32("flags", &flags)) c.Last().value = MapFlagsString(flags);
  c.StrRest("filename", &file);
  char perm[5] = {(prot & 1) ? 'r' : '-', (prot & 2) ? 'w' : '-', (prot & 4) ? 'x' : '-',
                  (flags & 1) ? 's' : 'p', 0};
  if (with_build_id) {
    s.summary = Sprintf("%s/%s: [%#llx(%#llx) @ %#llx <%s>]: %s %s", Pid(pid).c_str(),
                        Pid(tid).c_str(), static_cast<ull>(start), static_cast<ull>(len),
                        static_cast<ull>(pgoff), bid.c_str(), perm, file.c_str());
  } else {
    s.summary = Sprintf("%s/%s: [%#llx(%#llx) @ %#llx %02x:%02x %llu %llu]: %s %s",
                        Pid(pid).c_str(), Pid(tid).c_str(), static_cast<ull>(start),
                        static_cast<ull>(len), static_cast<ull>(pgoff), maj, min,
                        static_cast<ull>(ino), static_cast<ull>(gen), perm, file.c_str());
  }
}

void DecLost(Cur& c, State& s) {
  uint64_t id = 0, lost = 0;
  c.U64("id", &id);
  c.U64("lost", &lost);
  s.summary = Sprintf("id:%llu: lost:%llu", static_cast<ull>(id), static_cast<ull>(lost));
}

void DecComm(Cur& c, State& s) {
  uint32_t pid = 0, tid = 0;
  std::string comm;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  c.StrRest("comm", &comm);
  s.summary = Sprintf("%s%s:%s/%s", (s.misc & kMiscMmapData) ? "exec: " : "", comm.c_str(),
                      Pid(pid).c_str(), Pid(tid).c_str());
}

void DecTask(Cur& c, State& s) {  // EXIT, FORK
  uint32_t pid = 0, ppid = 0, tid = 0, ptid = 0;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("ppid", &ppid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  c.U32("ptid", &ptid, Fmt::kS32);
  c.U64("time", nullptr);
  s.summary = "(" + Pid(pid) + ":" + Pid(tid) + "):(" + Pid(ppid) + ":" + Pid(ptid) + ")";
}

void DecThrottle(Cur& c, State& s) {
  uint64_t time = 0, id = 0, stream = 0;
  c.U64("time", &time);
  c.U64("id", &id);
  c.U64("stream_id", &stream);
  s.summary = Sprintf("time %llu id %llu stream_id %llu", static_cast<ull>(time),
                      static_cast<ull>(id), static_cast<ull>(stream));
}

// struct read_format as the attr's read_format lays it out (kernel perf_output_read()).
uint64_t DecReadValues(Cur& c, uint64_t rf) {
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
    ArrayScope arr(c, "values", std::to_string(nr) + " entries");
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

void DecRead(Cur& c, State& s) {
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

void DecAux(Cur& c, State& s) {
  uint64_t off = 0, size = 0, flags = 0;
  c.U64("aux_offset", &off, Fmt::kHex);
  c.U64("aux_size", &size, Fmt::kHex);
  if (c.U64("flags", &flags, Fmt::kHex)) {
    std::string names;
    auto add = [&](const char* n) { names += names.empty() ? n : std::string("|") + n; };
    if (flags & 1) add("TRUNCATED");
    if (flags & 2) add("OVERWRITE");
    if (flags & 4) add("PARTIAL");
    if (flags & 8) add("COLLISION");
    if (flags & 0xff00) add(("PMU_FORMAT_TYPE " + Hex((flags >> 8) & 0xff)).c_str());
    if (!names.empty()) c.Last().value += " " + names;
  }
  s.summary = Sprintf("offset: %#llx size: %#llx flags: %#llx [%s%s%s]", static_cast<ull>(off),
                      static_cast<ull>(size), static_cast<ull>(flags), (flags & 1) ? "T" : "",
                      (flags & 2) ? "O" : "", (flags & 4) ? "P" : "");
}

void DecItraceStart(Cur& c, State& s) {
  uint32_t pid = 0, tid = 0;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  s.summary = Sprintf("pid: %u tid: %u", pid, tid);
}

void DecLostSamples(Cur& c, State& s) {
  uint64_t lost = 0;
  c.U64("lost", &lost);
  s.summary.clear();
  if (s.have_sid && (s.attr->sample_type & (kSampleId | kSampleIdentifier))) {
    s.summary = Sprintf("id:%llu: ", static_cast<ull>(s.sid.id));
  }
  s.summary += Sprintf("lost samples :%llu%s", static_cast<ull>(lost),
                       (s.misc & 0x8000) ? " (BPF)" : "");
}

void DecSwitch(Cur& c, State& s) {
  bool out = s.misc & kMiscSwitchOut;
  const char* in_out = !out ? "IN" : (s.misc & (1u << 14)) ? "OUT preempt" : "OUT";
  if (s.type == kSwitch) {
    s.summary = in_out;
    return;
  }
  uint32_t pid = 0, tid = 0;
  c.U32("next_prev_pid", &pid, Fmt::kS32);
  c.U32("next_prev_tid", &tid, Fmt::kS32);
  s.summary = std::string(in_out) + (out ? " next" : " prev") + " pid/tid: " + Pid(pid) + "/" +
              Pid(tid);
}

const char* NsName(uint64_t i) {
  static const char* const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
  return i < 7 ? names[i] : "UNKNOWN";
}

void DecNamespaces(Cur& c, State& s) {
  uint32_t pid = 0, tid = 0;
  uint64_t nr = 0;
  c.U32("pid", &pid, Fmt::kS32);
  c.U32("tid", &tid, Fmt::kS32);
  c.U64("nr_namespaces", &nr);
  std::string list;
  if (!c.failed()) {
    if (nr > c.remaining() / 16) {
      c.Need(nr <= UINT64_MAX / 16 ? nr * 16 : UINT64_MAX, "link_info[" + std::to_string(nr) + "]");
    } else {
      ArrayScope arr(c, "link_info", std::to_string(nr) + " namespaces");
      for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
        uint64_t at = c.abs_pos();
        Field& e = c.Add("[" + std::to_string(i) + "] " + NsName(i), at, 16, "");
        std::vector<Field>* old = c.Target(&e.children);
        uint64_t dev = 0, ino = 0;
        c.U64("dev", &dev);
        c.U64("ino", &ino, Fmt::kHex);
        c.Target(old);
        c.Last().value = Sprintf("dev %llu ino %#llx", static_cast<ull>(dev), static_cast<ull>(ino));
        list += Sprintf("%s%llu/%s: %llu/%#llx", i ? ", " : "", static_cast<ull>(i), NsName(i),
                        static_cast<ull>(dev), static_cast<ull>(ino));
      }
    }
  }
  s.summary = Pid(pid) + "/" + Pid(tid) + " - nr_namespaces: " + std::to_string(nr) + " [" + list + "]";
}

void DecKsymbol(Cur& c, State& s) {
  uint64_t addr = 0;
  uint32_t len = 0;
  uint16_t ktype = 0, flags = 0;
  std::string name;
  c.U64("addr", &addr, Fmt::kHex);
  c.U32("len", &len);
  if (c.U16("ksym_type", &ktype)) {
    static const char* const names[] = {"UNKNOWN", "BPF", "OOL"};
    if (ktype < 3) c.Last().value += std::string(" ") + names[ktype];
  }
  if (c.U16("flags", &flags, Fmt::kHex) && (flags & 1)) c.Last().value += " UNREGISTER";
  c.StrRest("name", &name);
  s.summary = Sprintf("addr %llx len %u type %u flags 0x%x name %s", static_cast<ull>(addr), len,
                      ktype, flags, name.c_str());
}

void DecBpfEvent(Cur& c, State& s) {
  uint16_t btype = 0, flags = 0;
  uint32_t id = 0;
  if (c.U16("type", &btype)) {
    static const char* const names[] = {"UNKNOWN", "PROG_LOAD", "PROG_UNLOAD"};
    if (btype < 3) c.Last().value += std::string(" ") + names[btype];
  }
  c.U16("flags", &flags, Fmt::kHex);
  c.U32("id", &id);
  if (c.Need(8, "tag")) c.Blob("tag", 8, HexBytes(c.reader().cursor(), 8));
  s.summary = Sprintf("type %u, flags %u, id %u", btype, flags, id);
}

void DecCgroup(Cur& c, State& s) {
  uint64_t id = 0;
  std::string path;
  c.U64("id", &id);
  c.StrRest("path", &path);
  s.summary = Sprintf("cgroup: %llu %s", static_cast<ull>(id), path.c_str());
}

void DecTextPoke(Cur& c, State& s) {
  uint64_t addr = 0;
  uint16_t old_len = 0, new_len = 0;
  c.U64("addr", &addr, Fmt::kHex);
  c.U16("old_len", &old_len);
  c.U16("new_len", &new_len);
  if (!c.failed() && c.Need(old_len, "old_bytes")) {
    c.Blob("old_bytes", old_len, old_len ? HexBytes(c.reader().cursor(), old_len) : "(none)");
  }
  if (!c.failed() && c.Need(new_len, "new_bytes")) {
    c.Blob("new_bytes", new_len, new_len ? HexBytes(c.reader().cursor(), new_len) : "(none)");
  }
  s.summary = Sprintf("%llx old len %u new len %u", static_cast<ull>(addr), old_len, new_len);
}

void DecAuxOutputHwId(Cur& c, State& s) {
  uint64_t id = 0;
  c.U64("hw_id", &id, Fmt::kHex);
  s.summary = "hw_id: " + AltHex(id);
}

// --- perf's own records ---

void DecHeaderAttr(Cur& c, State& s) {
  ByteReader& r = c.reader();
  if (!c.Need(kAttrVer0Size, "attr")) return;
  uint32_t asize = r.PeekU32(r.pos() + 4);
  uint64_t take = asize ? asize : kAttrVer0Size;  // size 0 means PERF_ATTR_SIZE_VER0
  if (take < kAttrVer0Size) take = kAttrVer0Size;
  if (!c.Need(take, "attr")) return;
  PerfEventAttr a;
  FieldList af;
  ByteReader ar = r.Sub(static_cast<size_t>(take));
  ParseAttr(ar, &a, &af);
  std::string name = EventName(a, "");
  Field& f = c.Add("attr", ar.base(), take, name + ", size " + std::to_string(asize));
  f.children = std::move(af.items());
  uint64_t nids = c.remaining() / 8;
  std::string ids;
  {
    ArrayScope arr(c, "ids", std::to_string(nids) + " ids");
    for (uint64_t i = 0; i < nids; ++i) {
      uint64_t id = 0;
      c.U64("[" + std::to_string(i) + "]", &id);
      if (i < 8) ids += (i ? ", " : "") + std::to_string(id);
      else if (i == 8) ids += ", ...";
    }
  }
  s.summary = name + ", attr size " + std::to_string(asize) + ", " + std::to_string(nids) +
              (nids == 1 ? " id" : " ids") + (nids ? ": " + ids : "");
}

void DecEventType(Cur& c, State& s) {
  uint64_t id = 0;
  std::string name;
  c.U64("event_id", &id);
  size_t area = c.remaining() < 64 ? c.remaining() : 64;
  c.Str("name", area, &name);
  s.summary = std::to_string(id) + ": " + name;
}

void DecTracingData(Cur& c, State& s) {
  uint32_t size = 0;
  if (c.U32("size", &size)) c.Last().value += " (tracing data follow the record)";
  s.summary = "size: " + std::to_string(size);
}

void DecBuildId(Cur& c, State& s) {
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

void DecIdIndex(Cur& c, State& s) {
  uint64_t nr = 0;
  c.U64("nr", &nr);
  if (c.failed()) return;
  s.summary = "nr: " + std::to_string(nr);
  if (nr > c.remaining() / 32) {
    c.Need(nr <= UINT64_MAX / 32 ? nr * 32 : UINT64_MAX, "entries[" + std::to_string(nr) + "]");
    return;
  }
  {
    ArrayScope arr(c, "entries", std::to_string(nr) + " entries");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      Field& e = c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 32, "");
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
    ArrayScope arr(c, "entries_2", std::to_string(nr) + " entries");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      Field& e = c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 16, "");
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

void DecAuxtraceInfo(Cur& c, State& s) {
  uint32_t t = 0;
  if (c.U32("type", &t) && AuxtraceTypeName(t)) c.Last().value += std::string(" ") + AuxtraceTypeName(t);
  c.U32("reserved", nullptr);
  if (!c.failed()) {
    uint64_t n = c.remaining() / 8;
    ArrayScope arr(c, "priv", std::to_string(n) + " u64");
    for (uint64_t i = 0; i < n; ++i) c.U64("[" + std::to_string(i) + "]", nullptr, Fmt::kHex);
  }
  s.summary = "type: " + std::to_string(t);
}

void DecAuxtrace(Cur& c, State& s) {
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

void DecAuxtraceError(Cur& c, State& s) {
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

void DecThreadMap(Cur& c, State& s) {
  uint64_t nr = 0;
  c.U64("nr", &nr);
  if (c.failed()) return;
  if (nr > c.remaining() / 24) {
    c.Need(nr <= UINT64_MAX / 24 ? nr * 24 : UINT64_MAX, "entries[" + std::to_string(nr) + "]");
    return;
  }
  std::string list;
  {
    ArrayScope arr(c, "entries", std::to_string(nr) + " threads");
    for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
      Field& e = c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 24, "");
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
std::vector<int> DecCpuMapData(Cur& c) {
  std::vector<int> cpus;
  uint16_t type = 0;
  if (!c.U16("type", &type)) return cpus;
  static const char* const names[] = {"CPUS", "MASK", "RANGE_CPUS"};
  if (type < 3) c.Last().value += std::string(" ") + names[type];
  if (type == 0) {
    uint16_t nr = 0;
    c.U16("nr", &nr);
    if (c.failed()) return cpus;
    if (!c.Need(2ull * nr, "cpu[" + std::to_string(nr) + "]")) return cpus;
    ArrayScope arr(c, "cpu", std::to_string(nr) + " CPUs");
    for (uint16_t i = 0; i < nr; ++i) {
      uint16_t v = 0;
      c.U16("[" + std::to_string(i) + "]", &v);
      int cpu = v == 0xffff ? -1 : v;
      if (cpu < 0) c.Last().value = "-1 (any)";
      cpus.push_back(cpu);
    }
  } else if (type == 1) {
    uint16_t nr = 0, long_size = 0;
    c.U16("nr", &nr);
    c.U16("long_size", &long_size);
    if (c.failed()) return cpus;
    if (long_size != 4 && long_size != 8) {
      c.Last().value += " (unsupported; 4 or 8 expected)";
      c.Rest();
      return cpus;
    }
    if (long_size == 8) c.Blob("pad", 4, "4 bytes");
    if (!c.Need(static_cast<uint64_t>(long_size) * nr, "mask[" + std::to_string(nr) + "]")) return cpus;
    ArrayScope arr(c, "mask", std::to_string(nr) + " x " + std::to_string(long_size * 8) + " bits");
    for (uint16_t i = 0; i < nr; ++i) {
      uint64_t m = 0;
      if (long_size == 4) {
        uint32_t m32 = 0;
        c.U32("[" + std::to_string(i) + "]", &m32, Fmt::kHex);
        m = m32;
      } else {
        c.U64("[" + std::to_string(i) + "]", &m, Fmt::kHex);
      }
      for (int b = 0; b < long_size * 8; ++b) {
        if (m & (1ULL << b)) cpus.push_back(i * long_size * 8 + b);
      }
    }
  } else if (type == 2) {
    uint8_t any = 0;
    uint16_t first = 0, last = 0;
    c.U8("any_cpu", &any);
    c.U8("pad", nullptr);
    c.U16("start_cpu", &first);
    c.U16("end_cpu", &last);
    if (c.failed()) return cpus;
    if (any) cpus.push_back(-1);
    for (int i = first; i <= last; ++i) cpus.push_back(i);
  } else {
    c.Rest(" (unknown cpu map encoding)");
  }
  return cpus;
}

void DecCpuMap(Cur& c, State& s) {
  std::vector<int> cpus = DecCpuMapData(c);
  s.summary = CpuListString(cpus);
}

void DecStatConfig(Cur& c, State& s) {
  uint64_t nr = 0;
  c.U64("nr", &nr);
  if (c.failed()) return;
  if (nr > c.remaining() / 16) {
    c.Need(nr <= UINT64_MAX / 16 ? nr * 16 : UINT64_MAX, "data[" + std::to_string(nr) + "]");
    return;
  }
  static const char* const tags[] = {"aggr_mode", "interval", "scale", "aggr_level"};
  ArrayScope arr(c, "data", std::to_string(nr) + " entries");
  for (uint64_t i = 0; i < nr && !c.failed(); ++i) {
    Field& e = c.Add("[" + std::to_string(i) + "]", c.abs_pos(), 16, "");
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

void DecStat(Cur& c, State& s) {
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

void DecStatRound(Cur& c, State& s) {
  uint64_t type = 0, time = 0;
  if (c.U64("type", &type)) c.Last().value += type == 1 ? " FINAL" : type == 0 ? " INTERVAL" : "";
  c.U64("time", &time);
  s.summary = Sprintf("time %llu, type %s", static_cast<ull>(time), type == 1 ? "FINAL" : "INTERVAL");
}

void DecEventUpdate(Cur& c, State& s) {
  uint64_t type = 0, id = 0;
  static const char* const names[] = {"UNIT", "SCALE", "NAME", "CPUS"};
  if (c.U64("type", &type) && type < 4) c.Last().value += std::string(" ") + names[type];
  c.U64("id", &id);
  if (c.failed()) return;
  s.summary = "id: " + std::to_string(id);
  std::string str;
  switch (type) {
    case 0:
      c.StrRest("unit", &str);
      s.summary += " unit: " + str;
      break;
    case 1: {
      uint64_t bits = 0;
      if (c.U64("scale", &bits)) {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        c.Last().value = Sprintf("%f", d);
        s.summary += " scale: " + c.Last().value;
      }
      break;
    }
    case 2:
      c.StrRest("name", &str);
      s.summary += " name: " + str;
      break;
    case 3: {
      std::vector<Field>* old = nullptr;
      uint64_t at = c.abs_pos();
      Field& f = c.Add("cpus", at, 0, "");
      size_t idx = c.out()->size() - 1;
      std::vector<Field>* parent = c.out();
      old = c.Target(&f.children);
      std::vector<int> cpus = DecCpuMapData(c);
      c.Target(old);
      (*parent)[idx].size = c.abs_pos() - at;
      (*parent)[idx].value = CpuListString(cpus);
      s.summary += " cpus: " + CpuListString(cpus);
      break;
    }
    default:
      c.Rest(" (unknown update type)");
  }
}

void DecTimeConv(Cur& c, State& s) {
  uint64_t shift = 0, mult = 0, zero = 0;
  c.U64("time_shift", &shift);
  c.U64("time_mult", &mult);
  c.U64("time_zero", &zero);
  s.summary = Sprintf("time_shift %llu time_mult %llu time_zero %llu", static_cast<ull>(shift),
                      static_cast<ull>(mult), static_cast<ull>(zero));
  if (c.failed() || c.remaining() == 0) return;  // the short form (perf before 5.10)
  uint64_t cycles = 0, mask = 0;
  uint8_t cz = 0, cs = 0;
  c.U64("time_cycles", &cycles);
  c.U64("time_mask", &mask, Fmt::kHex);
  c.U8("cap_user_time_zero", &cz);
  c.U8("cap_user_time_short", &cs);
  if (c.Need(6, "reserved")) c.Blob("reserved", 6, "6 bytes");
  s.summary += Sprintf(" time_cycles %llu time_mask %#llx cap_user_time_zero %u cap_user_time_short %u",
                       static_cast<ull>(cycles), static_cast<ull>(mask), cz, cs);
}

void DecHeaderFeature(Cur& c, State& s) {
  uint64_t feat = 0;
  if (!c.U64("feat_id", &feat)) return;
  std::vector<Field>& out = *c.out();
  const size_t id_field = out.size() - 1;
  // The rest of the record is the feature section's bytes (possibly empty:
  // BRANCH_STACK, STAT, and the end-of-features marker carry none).
  ByteReader& r = c.reader();
  ByteReader body = r.Sub(r.remaining());
  FeatureContext fctx = s.features ? *s.features : FeatureContext{};
  Diagnostics local;
  FieldList fl;
  DecodeFeature(feat <= UINT32_MAX ? static_cast<uint32_t>(feat) : UINT32_MAX, body, fctx, fl,
                s.diags ? *s.diags : local);
  if (!fl.items().empty()) {
    const Field& top = fl.items().front();
    out[id_field].value += " " + top.name;
    s.summary = top.value.empty() ? top.name : top.name + ": " + Shorten(top.value, 120);
  } else {
    s.summary = "feature " + std::to_string(feat);
  }
  for (Field& f : fl.items()) out.push_back(std::move(f));
}

void DecCompressed(Cur& c, State& s) {
  size_t n = c.remaining();
  c.Blob("data", n, std::to_string(n) + " bytes of compressed records (zstd)");
  s.summary = std::to_string(n) + " bytes";
}

void DecCompressed2(Cur& c, State& s) {
  uint64_t size = 0;
  c.U64("data_size", &size);
  s.summary = "data_size: " + std::to_string(size);
  if (c.failed()) return;
  c.Blob("data", size, std::to_string(size) + " bytes of compressed records (zstd)");
}

void Dispatch(Cur& c, State& s) {
  switch (s.type) {
    case kMmap: DecMmap(c, s); break;
    case kLost: DecLost(c, s); break;
    case kComm: DecComm(c, s); break;
    case kExit:
    case kFork: DecTask(c, s); break;
    case kThrottle:
    case kUnthrottle: DecThrottle(c, s); break;
    case kRead: DecRead(c, s); break;
    case kMmap2: DecMmap2(c, s); break;
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
    case kCompressed: DecCompressed(c, s); break;
    case kCompressed2: DecCompressed2(c, s); break;
    default: break;
  }
}

void Decode(ByteReader rec, const PerfEventAttr* attr, std::vector<Field>& out, Diagnostics* diags,
            const FeatureContext* features, std::string* summary) {
  Ctx ctx;
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
    Cur hc(rec.Slice(0, have_hdr), &hdr.children, &ctx);
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
      Cur c(s.payload, &out, &ctx);
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
    Cur c(s.payload, &out, &ctx);
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

  Cur c(body, &out, &ctx);
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
