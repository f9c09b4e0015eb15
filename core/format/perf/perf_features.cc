// Feature sections of perf.data (see perf_features.h).
//
// Layouts, from perf's tools/perf/util/header.c (write_*/process_*), with the
// tolerance perf itself shows for older writers:
//   perf_header_string  u32 len (incl. NUL and padding to 64), char[len]
//   BUILD_ID            build_id_event records until the section ends
//   NRCPUS              u32 nr_cpus_avail, u32 nr_cpus_online (the order perf
//                       writes and reads; perf.data-file-format.txt lists them
//                       the other way round)
//   CPU_TOPOLOGY        core lists, thread lists, then only if the section is
//                       longer: per-CPU {core_id, socket_id}, then die lists
//                       and per-CPU die_id
//   TRACING_DATA        trace-event-read.c: "\x17\x08\x44tracing", version,
//                       endianness, long size, page size, header_page,
//                       header_event, ftrace formats, event system formats,
//                       kallsyms, printk, saved_cmdlines (version >= 0.6)
// Every read is checked against the section; the first shortfall gives one
// diagnostic and stops the decode of that section, keeping what was decoded.
#include "core/format/perf/perf_features.h"

#include <cstdio>
#include <cstring>

#include "core/format/perf/perf_format.h"
#include "core/model/field_reader.h"
#include "core/trace/tracing_data.h"

namespace profscope::perf {
namespace {

std::string Plural(uint64_t n, const char* one, const char* many) {
  return Dec(n) + " " + (n == 1 ? one : many);
}

std::string Bytes(uint64_t n) { return Plural(n, "byte", "bytes"); }

const char* ClockName(int64_t id) {
  switch (id) {
    case 0: return "realtime";
    case 1: return "monotonic";
    case 2: return "process_cputime_id";
    case 3: return "thread_cputime_id";
    case 4: return "monotonic_raw";
    case 5: return "realtime_coarse";
    case 6: return "monotonic_coarse";
    case 7: return "boottime";
    case 8: return "realtime_alarm";
    case 9: return "boottime_alarm";
    case 11: return "tai";
    default: return "";
  }
}

// "1234.567890" (seconds with microseconds), as perf prints sample times;
// with `nanos`, "1234.567890123".
std::string NsAsSeconds(uint64_t ns, bool nanos = false) {
  char buf[48];
  if (nanos) {
    std::snprintf(buf, sizeof buf, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000ULL),
                  static_cast<unsigned long long>(ns % 1000000000ULL));
  } else {
    std::snprintf(buf, sizeof buf, "%llu.%06llu", static_cast<unsigned long long>(ns / 1000000000ULL),
                  static_cast<unsigned long long>((ns % 1000000000ULL) / 1000ULL));
  }
  return buf;
}

// The label of a feature's top-level field.
std::string FeatureLabel(uint32_t id) {
  if (id == kCpuDomainInfoFeatureId) return "CPU_DOMAIN_INFO";
  const char* n = FeatureName(id);
  if (n && *n) return n;
  return "FEATURE_" + Dec(id);
}

// A feature section's problems: the first shortfall gives one diagnostic
// naming the feature, the part and the absolute offset (later ones are not
// reported); the reader then stops where the short part starts.
class SectionProblems : public FieldProblems {
 public:
  SectionProblems(std::string feat, Diagnostics& diags) : feat_(std::move(feat)), diags_(diags) {}
  const std::string& feat() const { return feat_; }
  Diagnostics& diags() { return diags_; }
  bool StayAtShortfall() const override { return true; }
  void Short(FieldReader& r, std::string_view what, uint64_t n) override {
    Error(DiagCode::kBadFeature, r.abs_pos(), r.remaining(),
          feat_ + ": " + std::string(what) + " at " + Hex(r.abs_pos()) + " needs " + Bytes(n) + " but only " +
              Dec(r.remaining()) + " remain in the section");
  }
  // An error that ends the decode of the section (reported when it is the first).
  void Error(DiagCode code, uint64_t offset, uint64_t length, const std::string& msg) {
    if (!reported_) diags_.Error(code, offset, length, msg);
    reported_ = true;
  }
  // A problem worth telling that does not stop decoding.
  void Warn(DiagCode code, uint64_t offset, uint64_t length, const std::string& msg) {
    diags_.Warning(code, offset, length, msg);
  }
  bool reported() const { return reported_; }

 private:
  std::string feat_;
  Diagnostics& diags_;
  bool reported_ = false;
};

SectionProblems& Problems(FieldReader& w) { return *static_cast<SectionProblems*>(w.problems()); }

// An error that ends the decode of this section.
void Fail(FieldReader& w, DiagCode code, uint64_t offset, uint64_t length, const std::string& msg) {
  Problems(w).Error(code, offset, length, msg);
  w.Stop();
}

// Checks that `count` items of at least `min_each` bytes can fit in what is
// left. Reports once when they cannot; decoding goes on (and stops at the
// first item that does not fit).
bool Plausible(FieldReader& w, uint64_t count, uint64_t min_each, uint64_t count_offset, const std::string& what) {
  if (!w.ok() || min_each == 0) return w.ok();
  if (count <= w.remaining() / min_each) return true;
  SectionProblems& p = Problems(w);
  if (!p.reported()) {
    const uint64_t end = w.reader().base() + w.reader().size();
    p.Error(DiagCode::kBadFeature, count_offset, end - count_offset,
            p.feat() + ": " + what + " count " + Dec(count) + " at " + Hex(count_offset) +
                " cannot fit: the remaining " + Bytes(w.remaining()) + " hold at most " +
                Dec(w.remaining() / min_each));
  }
  return false;
}

// n raw bytes as one field with `value` as given; `data` (optional) points at them.
bool Raw(FieldReader& w, Field& parent, const std::string& name, uint64_t n, std::string value,
         const uint8_t** data = nullptr) {
  if (!w.Need(n, name)) return false;
  uint64_t at = w.abs_pos();
  if (data) *data = w.cursor();
  w.reader().Skip(static_cast<size_t>(n));
  parent.children.push_back(Field{name, at, n, std::move(value), {}});
  return true;
}

// perf_header_string: u32 len, then len bytes holding NUL-padded text.
bool HeaderString(FieldReader& w, Field& parent, const std::string& name, std::string* out) {
  if (!w.Need(4, name + " string length")) return false;
  ByteReader& r = w.reader();
  const std::string& feat = Problems(w).feat();
  uint64_t at = w.abs_pos();
  uint32_t len = r.U32();
  Field f{name, at, 4, "", {}};
  f.children.push_back(Field{"len", at, 4, Dec(len), {}});
  if (len > r.remaining()) {
    size_t have = r.remaining();
    const char* p = reinterpret_cast<const char*>(r.cursor());
    std::string partial(p, strnlen(p, have));
    f.children.push_back(Field{"text", w.abs_pos(), have, QuoteString(partial), {}});
    f.size = 4 + have;
    f.value = QuoteString(partial) + " (truncated)";
    parent.children.push_back(std::move(f));
    r.Skip(have);  // the partial text is shown, so the cursor moves past it
    Fail(w, DiagCode::kBadString, at, 4 + have,
         feat + " " + name + " string at " + Hex(at) + " declares length " + Dec(len) +
             " but only " + Dec(have) + " bytes remain in the section");
    return false;
  }
  const char* p = reinterpret_cast<const char*>(r.cursor());
  size_t n = strnlen(p, len);
  std::string text(p, n);
  if (n == len && len > 0) {
    Problems(w).Warn(DiagCode::kBadString, at, 4 + uint64_t{len},
                     feat + " " + name + " string at " + Hex(at) + " is not NUL-terminated within its " +
                         Dec(len) + " bytes");
  }
  f.children.push_back(Field{"text", w.abs_pos(), len, QuoteString(text), {}});
  r.Skip(len);
  f.size = 4 + uint64_t{len};
  f.value = QuoteString(text);
  parent.children.push_back(std::move(f));
  *out = std::move(text);
  return true;
}

// A NUL-terminated string (TRACING_DATA); the field covers the NUL.
bool CString(FieldReader& w, Field& parent, const std::string& name, std::string* out) {
  if (!w.Need(1, name)) return false;
  uint64_t at = w.abs_pos();
  const char* p = reinterpret_cast<const char*>(w.cursor());
  size_t n = strnlen(p, w.remaining());
  if (n == w.remaining()) {
    Fail(w, DiagCode::kBadString, at, n,
         Problems(w).feat() + ": " + name + " string at " + Hex(at) +
             " has no terminating NUL before the end of the section (" + Bytes(n) + " left)");
    return false;
  }
  *out = std::string(p, n);
  w.reader().Skip(n + 1);
  parent.children.push_back(Field{name, at, n + 1, QuoteString(*out), {}});
  return true;
}

// Up to 32 bytes as hex, then "...".
std::string Preview(const uint8_t* p, uint64_t n) {
  size_t show = n < 32 ? static_cast<size_t>(n) : 32;
  std::string s = Bytes(n);
  if (n) s += ": " + HexBytes(p, show) + (n > show ? "..." : "");
  return s;
}

// The rest of the section as one opaque field.
void RestAsBlob(FieldReader& w, Field& parent, const std::string& name) {
  uint64_t n = w.remaining();
  if (n == 0) return;
  const uint8_t* p = w.cursor();
  Raw(w, parent, name, n, Preview(p, n));
}

// u32 nr, then nr perf_header_strings, as a field `name` with children.
bool StrList(FieldReader& w, Field& parent, const std::string& name, const std::string& item,
             std::vector<std::string>* out) {
  out->clear();
  Field list = w.Begin(name);
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  bool ok = w.U32(list, "nr", &nr);
  if (ok) Plausible(w, nr, 4, nr_at, name);
  std::string joined;
  for (uint32_t i = 0; ok && i < nr; ++i) {
    std::string s;
    if (!HeaderString(w, list, item + "[" + Dec(i) + "]", &s)) { ok = false; break; }
    if (!joined.empty()) joined += ", ";
    joined += s;
    out->push_back(std::move(s));
  }
  list.value = Dec(out->size()) + (ok ? "" : "/" + Dec(nr)) + ": " + joined;
  w.End(parent, std::move(list));
  return ok && w.ok();
}

// ---- string features ------------------------------------------------------------

void DecodeStringFeature(FieldReader& w, Field& top, const char* child, std::string* dst) {
  std::string s;
  if (HeaderString(w, top, child, &s)) {
    top.value = QuoteString(s);
    *dst = std::move(s);
  }
}

// ---- BUILD_ID -------------------------------------------------------------------

std::string MiscString(uint16_t misc) {
  static const char* const kModes[] = {"UNKNOWN", "KERNEL", "USER", "HYPERVISOR",
                                       "GUEST_KERNEL", "GUEST_USER", "6", "7"};
  std::string s = Hex(misc) + " (" + kModes[misc & 7];
  if (misc & 0x8000) s += "|BUILD_ID_SIZE";
  return s + ")";
}

void DecodeBuildId(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.build_ids.clear();
  // The pre-2.6.35 layout has no pid: perf detects it by the kernel's name
  // appearing 4 bytes early ("nel.kallsyms]" where the new layout reads the
  // filename).
  bool old_abi = false;
  {
    ByteReader& r = w.reader();
    if (r.remaining() >= 36 + 13 && std::memcmp(r.cursor() + 36, "nel.kallsyms]", 13) == 0) {
      old_abi = true;
      Problems(w).diags().Add(DiagCode::kBadFeature, Severity::kInfo, w.abs_pos(), 0,
                    "BUILD_ID at " + Hex(w.abs_pos()) +
                        " uses the old (pre-2.6.35) record layout without a pid field");
    }
  }
  const uint32_t min_size = old_abi ? 32 : 36;
  uint32_t i = 0;
  while (w.ok() && w.remaining() > 0) {
    Field rec = w.Begin("build_id[" + Dec(i) + "]");
    uint64_t at = w.abs_pos();
    if (!w.Need(8, "build_id_event header")) { w.End(top, std::move(rec)); break; }
    uint32_t type = 0;
    uint16_t misc = 0, size = 0;
    {
      Field h = w.Begin("header");
      w.U32(h, "type", &type);
      ByteReader& r = w.reader();
      uint64_t m_at = w.abs_pos();
      misc = r.U16();
      h.children.push_back(Field{"misc", m_at, 2, MiscString(misc), {}});
      size = r.U16();
      h.children.push_back(Field{"size", m_at + 2, 2, Dec(size), {}});
      h.value = "type " + Dec(type) + ", misc " + MiscString(misc) + ", size " + Dec(size);
      w.End(rec, std::move(h));
    }
    if (size < min_size) {
      w.End(top, std::move(rec));
      Fail(w, DiagCode::kBadFeature, at, 8,
             "BUILD_ID: record at " + Hex(at) + " declares size " + Dec(size) + ", below the " +
                 Dec(min_size) + "-byte minimum of a build_id_event");
      break;
    }
    if (size - 8u > w.remaining()) {
      w.End(top, std::move(rec));
      Fail(w, DiagCode::kBadFeature, at, 8 + w.remaining(),
             "BUILD_ID: record at " + Hex(at) + " declares size " + Dec(size) + " but only " +
                 Dec(w.remaining() + 8) + " bytes remain in the section");
      break;
    }
    int32_t pid = -1;
    if (old_abi) {
      pid = ((misc & 7) == 4 || (misc & 7) == 5) ? 0 : -1;  // perf's HOST/DEFAULT_GUEST_KERNEL_ID
    } else {
      w.I32(rec, "pid", &pid);
    }
    const uint8_t* bid = nullptr;
    uint64_t bid_at = w.abs_pos();
    if (!Raw(w, rec, "build_id", 24, "", &bid)) { w.End(top, std::move(rec)); break; }
    size_t bid_len = 20;
    if (misc & 0x8000) {
      bid_len = bid[20] > 20 ? 20 : bid[20];
    }
    std::string hex = HexBytes(bid, bid_len);
    Field& area = rec.children.back();
    area.value = hex;
    area.children.push_back(Field{"data", bid_at, 20, hex, {}});
    if (misc & 0x8000) {
      area.children.push_back(Field{"size", bid_at + 20, 1, Dec(bid[20]), {}});
      area.children.push_back(Field{"reserved", bid_at + 21, 3, "", {}});
    }
    if ((misc & 0x8000) && bid[20] > 20) {
      Problems(w).Warn(DiagCode::kBadFeature, bid_at + 20, 1,
             "BUILD_ID: record at " + Hex(at) + " declares a build id of " + Dec(bid[20]) +
                 " bytes; only 20 are stored");
    }
    uint32_t name_len = size - min_size;
    std::string filename;
    {
      const char* p = reinterpret_cast<const char*>(w.cursor());
      filename.assign(p, strnlen(p, name_len));
      Raw(w, rec, "filename", name_len, QuoteString(filename));
    }
    rec.value = hex + " " + filename;
    w.End(top, std::move(rec));
    ctx.build_ids.push_back(FeatureContext::BuildId{pid, hex, filename, misc});
    ++i;
  }
  top.value = Plural(ctx.build_ids.size(), "build id", "build ids");
}

// ---- NRCPUS, TOTAL_MEM, CMDLINE ---------------------------------------------------

void DecodeNrCpus(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint32_t avail = 0, online = 0;
  if (!w.U32(top, "nr_cpus_available", &avail)) return;
  ctx.nr_cpus_available = avail;
  if (!w.U32(top, "nr_cpus_online", &online)) return;
  ctx.nr_cpus_online = online;
  top.value = "online " + Dec(online) + ", available " + Dec(avail);
}

void DecodeTotalMem(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint64_t kb = 0;
  if (!w.U64(top, "total_mem_kb", &kb)) return;
  ctx.total_mem = kb;
  top.value = Dec(kb) + " kB";
}

void DecodeCmdline(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.cmdline_argv.clear();
  ctx.cmdline.clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  Plausible(w, nr, 4, nr_at, "argument");
  for (uint32_t i = 0; i < nr; ++i) {
    std::string s;
    if (!HeaderString(w, top, "argv[" + Dec(i) + "]", &s)) break;
    if (i) ctx.cmdline += ' ';
    ctx.cmdline += s;
    ctx.cmdline_argv.push_back(std::move(s));
  }
  top.value = QuoteString(ctx.cmdline);
}

// ---- EVENT_DESC -------------------------------------------------------------------

void DecodeEventDesc(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.event_desc.clear();
  uint32_t nr = 0, attr_size = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  uint64_t sz_at = w.abs_pos();
  if (!w.U32(top, "attr_size", &attr_size)) return;
  if (attr_size < kAttrVer0Size) {
    Fail(w, DiagCode::kBadFeature, sz_at, 4,
           "EVENT_DESC: attr_size " + Dec(attr_size) + " at " + Hex(sz_at) +
               " is below the smallest perf_event_attr (" + Dec(kAttrVer0Size) + " bytes)");
    return;
  }
  Plausible(w, nr, uint64_t{attr_size} + 8, nr_at, "event");
  std::string names;
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field ev = w.Begin("event[" + Dec(i) + "]");
    FeatureContext::EventDesc desc;
    if (!w.Need(attr_size, "attr of event " + Dec(i))) { w.End(top, std::move(ev)); break; }
    {
      Field attr = w.Begin("attr");
      FieldList af;
      ByteReader sub = w.reader().Sub(attr_size);
      ParseAttr(sub, &desc.attr, &af);
      attr.children = std::move(af.items());
      attr.value = "type " + Dec(desc.attr.type) + ", config " + Hex(desc.attr.config);
      w.End(ev, std::move(attr));
    }
    uint32_t nr_ids = 0;
    uint64_t nr_ids_at = w.abs_pos();
    bool ok = w.U32(ev, "nr_ids", &nr_ids) && HeaderString(w, ev, "name", &desc.name);
    if (ok) {
      Plausible(w, nr_ids, 8, nr_ids_at, "id");
      Field ids = w.Begin("ids");
      std::string shown;
      for (uint32_t j = 0; j < nr_ids; ++j) {
        uint64_t id = 0;
        if (!w.U64(ids, "id[" + Dec(j) + "]", &id)) { ok = false; break; }
        desc.ids.push_back(id);
        if (j < 64) shown += (j ? ", " : "") + Dec(id);
        else if (j == 64) shown += ", ...";
      }
      ids.value = "{ " + shown + " }";
      w.End(ev, std::move(ids));
    }
    ev.value = QuoteString(desc.name);
    w.End(top, std::move(ev));
    if (!names.empty()) names += ", ";
    names += desc.name;
    ctx.event_desc.push_back(std::move(desc));
    if (!ok) break;
  }
  top.value = Plural(ctx.event_desc.size(), "event", "events") + ": " + names;
}

// ---- CPU_TOPOLOGY -----------------------------------------------------------------

// Whether `n` CPUs explain the bytes after the thread lists: n {core,socket}
// pairs, then nothing or a die list and n die ids.
bool CpuCountFits(ByteReader r, uint64_t n) {
  if (n > r.remaining() / 8) return false;
  r.Skip(static_cast<size_t>(n * 8));
  if (r.at_end()) return true;
  uint32_t nr = r.U32();
  if (!r.ok() || nr > r.remaining() / 4) return false;
  for (uint32_t i = 0; i < nr; ++i) {
    uint32_t len = r.U32();
    if (!r.ok() || len > r.remaining()) return false;
    r.Skip(len);
  }
  return r.remaining() == n * 4;
}

void DecodeCpuTopology(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.cpus.clear();
  ctx.sibling_dies.clear();
  ctx.has_die_ids = false;
  if (!StrList(w, top, "sibling_sockets", "cpus", &ctx.sibling_sockets)) return;
  if (!StrList(w, top, "sibling_threads", "cpus", &ctx.sibling_threads)) return;
  top.value = Dec(ctx.sibling_sockets.size()) + " socket lists, " +
              Dec(ctx.sibling_threads.size()) + " thread lists";
  // Older perf ends here (no core/socket ids); perf reads on only when the
  // section is longer.
  if (w.remaining() == 0) {
    top.value += "; no per-CPU ids (older perf)";
    return;
  }
  uint64_t n = ctx.nr_cpus_available;
  if (n == 0) {
    // NRCPUS missing or zero: find the CPU count that explains the rest.
    for (uint64_t c = 1; c <= w.remaining() / 8; ++c) {
      if (CpuCountFits(w.reader(), c)) { n = c; break; }
    }
    if (n == 0) n = w.remaining() / 8;
    Problems(w).Warn(DiagCode::kBadFeature, w.abs_pos(), w.remaining(),
           "CPU_TOPOLOGY: the number of CPUs is not known from NRCPUS; assuming " + Dec(n) +
               " from the section's length");
  }
  uint64_t ids_at = w.abs_pos();
  Plausible(w, n, 8, ids_at, "per-CPU core/socket id");
  Field ids = w.Begin("cpu_ids");
  for (uint64_t i = 0; i < n && w.ok(); ++i) {
    Field c = w.Begin("cpu[" + Dec(i) + "]");
    FeatureContext::CpuTopo t;
    if (w.U32(c, "core_id", &t.core_id) && w.U32(c, "socket_id", &t.socket_id)) {
      c.value = "core " + Dec(t.core_id) + ", socket " + Dec(t.socket_id);
      ctx.cpus.push_back(t);
    }
    w.End(ids, std::move(c));
  }
  ids.value = Plural(ctx.cpus.size(), "CPU", "CPUs");
  w.End(top, std::move(ids));
  if (!w.ok()) return;
  top.value += ", " + Plural(ctx.cpus.size(), "CPU", "CPUs");
  // Die information came later still.
  if (w.remaining() == 0) return;
  if (!StrList(w, top, "sibling_dies", "cpus", &ctx.sibling_dies)) return;
  Field dies = w.Begin("die_ids");
  uint64_t got = 0;
  for (uint64_t i = 0; i < n && w.ok(); ++i) {
    uint32_t die = 0;
    if (!w.U32(dies, "die_id[" + Dec(i) + "]", &die)) break;
    if (i < ctx.cpus.size()) ctx.cpus[static_cast<size_t>(i)].die_id = die;
    ++got;
  }
  dies.value = Dec(got) + " die ids";
  w.End(top, std::move(dies));
  ctx.has_die_ids = w.ok();
  top.value += ", " + Dec(ctx.sibling_dies.size()) + " die lists";
}

// ---- NUMA_TOPOLOGY, PMU_MAPPINGS, GROUP_DESC, HYBRID_TOPOLOGY -------------------

void DecodeNumaTopology(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.numa_nodes.clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  Plausible(w, nr, 24, nr_at, "node");
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("node[" + Dec(i) + "]");
    FeatureContext::NumaNode n{};
    bool ok = w.U32(f, "node", &n.node) && w.U64(f, "mem_total_kb", &n.mem_total_kb) &&
              w.U64(f, "mem_free_kb", &n.mem_free_kb) && HeaderString(w, f, "cpus", &n.cpus);
    f.value = "node" + Dec(n.node) + ": total " + Dec(n.mem_total_kb) + " kB, free " +
              Dec(n.mem_free_kb) + " kB, cpus " + n.cpus;
    w.End(top, std::move(f));
    if (ok) ctx.numa_nodes.push_back(std::move(n));
  }
  top.value = Plural(ctx.numa_nodes.size(), "node", "nodes");
}

void DecodePmuMappings(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.pmu_mappings.clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  Plausible(w, nr, 8, nr_at, "PMU");
  std::string all;
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("pmu[" + Dec(i) + "]");
    uint32_t type = 0;
    std::string name;
    bool ok = w.U32(f, "type", &type) && HeaderString(w, f, "name", &name);
    f.value = name + " = " + Dec(type);
    w.End(top, std::move(f));
    if (!ok) break;
    if (!all.empty()) all += ", ";
    all += name + " = " + Dec(type);
    ctx.pmu_mappings.emplace_back(type, std::move(name));
  }
  top.value = all;
}

void DecodeGroupDesc(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.groups.clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  Plausible(w, nr, 12, nr_at, "group");
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("group[" + Dec(i) + "]");
    FeatureContext::GroupDesc g{};
    bool ok = HeaderString(w, f, "name", &g.name) && w.U32(f, "leader_idx", &g.leader_idx) &&
              w.U32(f, "nr_members", &g.nr_members);
    f.value = g.name + ": leader " + Dec(g.leader_idx) + ", " + Dec(g.nr_members) + " members";
    w.End(top, std::move(f));
    if (ok) ctx.groups.push_back(std::move(g));
  }
  top.value = Plural(ctx.groups.size(), "group", "groups");
}

void DecodeHybridTopology(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.hybrid_nodes.clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  Plausible(w, nr, 8, nr_at, "hybrid node");
  std::string all;
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("node[" + Dec(i) + "]");
    FeatureContext::HybridNode n;
    bool ok = HeaderString(w, f, "pmu_name", &n.pmu) && HeaderString(w, f, "cpus", &n.cpus);
    f.value = n.pmu + ": " + n.cpus;
    w.End(top, std::move(f));
    if (!ok) break;
    if (!all.empty()) all += "; ";
    all += n.pmu + ": " + n.cpus;
    ctx.hybrid_nodes.push_back(std::move(n));
  }
  top.value = all;
}

// ---- AUXTRACE -----------------------------------------------------------------------

void DecodeAuxtrace(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.auxtrace_index.clear();
  ctx.has_auxtrace = true;
  uint64_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U64(top, "nr", &nr)) return;
  Plausible(w, nr, 16, nr_at, "index entry");
  for (uint64_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("entry[" + Dec(i) + "]");
    FeatureContext::AuxtraceIndexEntry e{};
    bool ok = w.U64(f, "file_offset", &e.file_offset, Fmt::kHex) && w.U64(f, "size", &e.size);
    f.value = Hex(e.file_offset) + ", " + Bytes(e.size);
    w.End(top, std::move(f));
    if (ok) ctx.auxtrace_index.push_back(e);
  }
  top.value = Plural(ctx.auxtrace_index.size(), "index entry", "index entries");
}

// ---- CACHE ----------------------------------------------------------------------------

void DecodeCache(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.caches.clear();
  uint32_t version = 0, nr = 0;
  uint64_t v_at = w.abs_pos();
  if (!w.U32(top, "version", &version)) return;
  if (version != 1) {
    Problems(w).Warn(DiagCode::kBadFeature, v_at, 4,
           "CACHE: version " + Dec(version) + " at " + Hex(v_at) +
               " is not the known version 1; the rest is kept undecoded");
    RestAsBlob(w, top, "data");
    top.value = "version " + Dec(version) + " (not decoded)";
    return;
  }
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr", &nr)) return;
  Plausible(w, nr, 28, nr_at, "cache level");
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("cache[" + Dec(i) + "]");
    FeatureContext::Cache c{};
    bool ok = w.U32(f, "level", &c.level) && w.U32(f, "line_size", &c.line_size) &&
              w.U32(f, "sets", &c.sets) && w.U32(f, "ways", &c.ways) &&
              HeaderString(w, f, "type", &c.type) && HeaderString(w, f, "size", &c.size) && HeaderString(w, f, "map", &c.map);
    f.value = "L" + Dec(c.level) + " " + c.type + " " + c.size + " [" + c.map + "]";
    w.End(top, std::move(f));
    if (ok) ctx.caches.push_back(std::move(c));
  }
  top.value = Plural(ctx.caches.size(), "cache", "caches");
}

// ---- SAMPLE_TIME, CLOCKID, CLOCK_DATA, DIR_FORMAT, COMPRESSED ---------------------

void DecodeSampleTime(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint64_t first = 0, last = 0;
  if (!w.U64(top, "first_sample_time", &first) || !w.U64(top, "last_sample_time", &last)) return;
  top.children[0].value += " (" + NsAsSeconds(first) + ")";
  top.children[1].value += " (" + NsAsSeconds(last) + ")";
  ctx.sample_time_first = first;
  ctx.sample_time_last = last;
  ctx.has_sample_time = true;
  char dur[48];
  std::snprintf(dur, sizeof dur, "%.3f ms", last >= first ? (last - first) / 1e6 : 0.0);
  top.value = "first " + NsAsSeconds(first) + ", last " + NsAsSeconds(last) + ", duration " + dur;
}

void DecodeClockId(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint64_t res = 0;
  if (!w.U64(top, "clockid_res_ns", &res)) return;
  ctx.clock_ns_res = res;
  top.value = "resolution " + Dec(res) + " ns";
}

void DecodeClockData(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint32_t version = 0, clockid = 0;
  uint64_t tod = 0, ref = 0;
  uint64_t v_at = w.abs_pos();
  if (!w.U32(top, "version", &version)) return;
  if (version != 1) {
    Problems(w).Warn(DiagCode::kBadFeature, v_at, 4,
           "CLOCK_DATA: version " + Dec(version) + " at " + Hex(v_at) +
               " is not the known version 1; the rest is kept undecoded");
    RestAsBlob(w, top, "data");
    top.value = "version " + Dec(version) + " (not decoded)";
    return;
  }
  if (!w.U32(top, "clockid", &clockid)) return;
  const char* cn = ClockName(static_cast<int32_t>(clockid));
  if (*cn) top.children.back().value += std::string(" (") + cn + ")";
  if (!w.U64(top, "tod_ns", &tod)) return;
  top.children.back().value += " (" + NsAsSeconds(tod) + " s since the epoch)";
  if (!w.U64(top, "clockid_ns", &ref)) return;
  top.children.back().value += " (" + NsAsSeconds(ref, true) + ")";
  ctx.clockid = static_cast<int32_t>(clockid);
  ctx.clock_tod_ns = tod;
  ctx.clock_clockid_ns = ref;
  ctx.has_clock_data = true;
  top.value = std::string("clock ") + (*cn ? cn : Dec(clockid).c_str()) + ", reference " +
              NsAsSeconds(tod) + " (TOD) = " + NsAsSeconds(ref, true);
}

void DecodeDirFormat(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint64_t v = 0;
  if (!w.U64(top, "version", &v)) return;
  ctx.dir_format_version = v;
  top.value = "directory data version " + Dec(v);
}

void DecodeCompressed(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint32_t ver = 0, type = 0, level = 0, ratio = 0, mmap_len = 0;
  if (!w.U32(top, "version", &ver)) return;
  if (!w.U32(top, "type", &type)) return;
  top.children.back().value += type == 1 ? " (zstd)" : type == 0 ? " (none)" : " (unknown)";
  if (!w.U32(top, "level", &level) || !w.U32(top, "ratio", &ratio) ||
      !w.U32(top, "mmap_len", &mmap_len))
    return;
  ctx.has_compressed = true;
  ctx.comp_ver = ver;
  ctx.comp_type = type;
  ctx.comp_level = level;
  ctx.comp_ratio = ratio;
  ctx.comp_mmap_len = mmap_len;
  top.value = std::string(type == 1 ? "zstd" : type == 0 ? "none" : "unknown type " + Dec(type)) +
              ", level " + Dec(level) + ", ratio " + Dec(ratio);
}

// ---- MEM_TOPOLOGY -------------------------------------------------------------------

// "0-23,32-199" for the set bits.
std::string BitmapRanges(const std::vector<uint64_t>& words, uint64_t nbits) {
  std::string s;
  uint64_t limit = uint64_t{words.size()} * 64;
  if (nbits < limit) limit = nbits;
  auto bit = [&](uint64_t b) { return (words[static_cast<size_t>(b / 64)] >> (b % 64)) & 1; };
  uint64_t i = 0;
  while (i < limit) {
    if (!bit(i)) { ++i; continue; }
    uint64_t j = i;
    while (j + 1 < limit && bit(j + 1)) ++j;
    if (!s.empty()) s += ',';
    s += Dec(i);
    if (j > i) s += "-" + Dec(j);
    i = j + 1;
  }
  return s;
}

void DecodeMemTopology(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.memory_nodes.clear();
  uint64_t version = 0, bsize = 0, nr = 0;
  uint64_t v_at = w.abs_pos();
  if (!w.U64(top, "version", &version)) return;
  if (version != 1) {
    Problems(w).Warn(DiagCode::kBadFeature, v_at, 8,
           "MEM_TOPOLOGY: version " + Dec(version) + " at " + Hex(v_at) +
               " is not the known version 1; the rest is kept undecoded");
    RestAsBlob(w, top, "data");
    top.value = "version " + Dec(version) + " (not decoded)";
    return;
  }
  if (!w.U64(top, "block_size", &bsize, Fmt::kHex)) return;
  ctx.memory_block_size = bsize;
  uint64_t nr_at = w.abs_pos();
  if (!w.U64(top, "nr", &nr)) return;
  Plausible(w, nr, 24, nr_at, "memory node");
  for (uint64_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("node[" + Dec(i) + "]");
    FeatureContext::MemNode n{};
    uint64_t nbits = 0;
    bool ok = w.U64(f, "node", &n.node) && w.U64(f, "size", &n.size_bits);
    if (ok) {
      Field bm = w.Begin("bitmap");
      uint64_t nb_at = w.abs_pos();
      ok = w.U64(bm, "nbits", &nbits);
      uint64_t nwords = nbits / 64 + (nbits % 64 ? 1 : 0);
      // nwords <= 2^58 + 1, so nwords * 8 cannot overflow.
      if (ok && !w.Need(nwords * 8, "bitmap of " + Dec(nbits) + " bits (declared at " + Hex(nb_at) + ")")) {
        ok = false;
      }
      std::vector<uint64_t> words;
      for (uint64_t k = 0; ok && k < nwords; ++k) {
        uint64_t word = 0;
        if (!w.U64(bm, "word[" + Dec(k) + "]", &word, Fmt::kHex)) { ok = false; break; }
        words.push_back(word);
      }
      if (ok) {
        n.blocks = BitmapRanges(words, nbits);
        uint64_t set = 0;
        for (uint64_t word : words) set += static_cast<uint64_t>(__builtin_popcountll(word));
        bm.value = n.blocks;
        f.value = "node " + Dec(n.node) + ": " + Dec(set) + " blocks (" + Dec(set * bsize) +
                  " bytes): " + n.blocks;
      }
      w.End(f, std::move(bm));
    }
    w.End(top, std::move(f));
    if (ok) ctx.memory_nodes.push_back(std::move(n));
  }
  top.value = Plural(ctx.memory_nodes.size(), "node", "nodes") + ", block size " + Hex(bsize);
}

// ---- BPF_PROG_INFO, BPF_BTF -----------------------------------------------------------

void DecodeBpfProgInfo(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint32_t count = 0;
  uint64_t c_at = w.abs_pos();
  if (!w.U32(top, "count", &count)) return;
  ctx.bpf_prog_count = 0;
  Plausible(w, count, 16, c_at, "bpf_prog_info");
  for (uint32_t i = 0; i < count && w.ok(); ++i) {
    Field f = w.Begin("prog[" + Dec(i) + "]");
    uint32_t info_len = 0, data_len = 0;
    uint64_t arrays = 0;
    bool ok = w.U32(f, "info_len", &info_len) && w.U32(f, "data_len", &data_len) &&
              w.U64(f, "arrays", &arrays, Fmt::kHex);
    const uint8_t* info = nullptr;
    uint64_t info_at = w.abs_pos();
    if (ok) ok = Raw(w, f, "info", info_len, Bytes(info_len), &info);
    if (ok) {
      // The leading fields of struct bpf_prog_info, as far as info_len covers.
      Field& inf = f.children.back();
      ByteReader ir(info, info_len, info_at, w.reader().order());
      auto u32_at = [&](size_t off, const char* name) {
        if (off + 4 > info_len) return;
        inf.children.push_back(Field{name, info_at + off, 4, Dec(ir.PeekU32(off)), {}});
      };
      auto u64_at = [&](size_t off, const char* name) {
        if (off + 8 > info_len) return;
        inf.children.push_back(Field{name, info_at + off, 8, Dec(ir.PeekU64(off)), {}});
      };
      u32_at(0, "type");
      u32_at(4, "id");
      if (info_len >= 16) inf.children.push_back(Field{"tag", info_at + 8, 8, HexBytes(info + 8, 8), {}});
      u32_at(16, "jited_prog_len");
      u32_at(20, "xlated_prog_len");
      u64_at(40, "load_time");
      u32_at(48, "created_by_uid");
      u32_at(52, "nr_map_ids");
      std::string name;
      if (info_len >= 80) {
        const char* p = reinterpret_cast<const char*>(info + 64);
        name.assign(p, strnlen(p, 16));
        inf.children.push_back(Field{"name", info_at + 64, 16, QuoteString(name), {}});
      }
      u32_at(128, "btf_id");
      std::string id = info_len >= 8 ? Dec(ir.PeekU32(4)) : "?";
      inf.value = Bytes(info_len) + ": id " + id + (name.empty() ? "" : " " + name);
      f.value = "prog id " + id + (name.empty() ? "" : " " + QuoteString(name));
      const uint8_t* data = nullptr;
      ok = Raw(w, f, "data", data_len, Bytes(data_len), &data);
    }
    w.End(top, std::move(f));
    if (ok) ++ctx.bpf_prog_count;
  }
  top.value = Plural(ctx.bpf_prog_count, "program", "programs");
}

void DecodeBpfBtf(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint32_t count = 0;
  uint64_t c_at = w.abs_pos();
  if (!w.U32(top, "count", &count)) return;
  ctx.bpf_btf_count = 0;
  Plausible(w, count, 8, c_at, "BTF");
  for (uint32_t i = 0; i < count && w.ok(); ++i) {
    Field f = w.Begin("btf[" + Dec(i) + "]");
    uint32_t id = 0, size = 0;
    bool ok = w.U32(f, "id", &id) && w.U32(f, "data_size", &size);
    if (ok && w.Need(size, "BTF data of id " + Dec(id))) {
      const uint8_t* data = w.cursor();
      Raw(w, f, "data", size, Preview(data, size));
    } else {
      ok = false;
    }
    f.value = "btf id " + Dec(id) + ", " + Bytes(size);
    w.End(top, std::move(f));
    if (ok) ++ctx.bpf_btf_count;
  }
  top.value = Plural(ctx.bpf_btf_count, "BTF blob", "BTF blobs");
}

// ---- CPU_PMU_CAPS, PMU_CAPS ---------------------------------------------------------

// u32 nr_caps, then {name, value} string pairs.
bool CapsList(FieldReader& w, Field& parent, std::vector<std::string>* caps) {
  caps->clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(parent, "nr_caps", &nr)) return false;
  Plausible(w, nr, 8, nr_at, "capability");
  for (uint32_t i = 0; i < nr; ++i) {
    Field f = w.Begin("cap[" + Dec(i) + "]");
    std::string name, value;
    bool ok = HeaderString(w, f, "name", &name) && HeaderString(w, f, "value", &value);
    f.value = name + "=" + value;
    w.End(parent, std::move(f));
    if (!ok) return false;
    caps->push_back(name + "=" + value);
  }
  return true;
}

std::string JoinCaps(const std::vector<std::string>& caps) {
  std::string s;
  for (const auto& c : caps) s += (s.empty() ? "" : ", ") + c;
  return s;
}

void DecodeCpuPmuCaps(FieldReader& w, Field& top, FeatureContext& ctx) {
  CapsList(w, top, &ctx.cpu_pmu_caps);
  top.value = ctx.cpu_pmu_caps.empty() ? "no capabilities" : JoinCaps(ctx.cpu_pmu_caps);
}

void DecodePmuCaps(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.pmu_caps.clear();
  uint32_t nr = 0;
  uint64_t nr_at = w.abs_pos();
  if (!w.U32(top, "nr_pmu", &nr)) return;
  Plausible(w, nr, 8, nr_at, "PMU");
  std::string all;
  for (uint32_t i = 0; i < nr && w.ok(); ++i) {
    Field f = w.Begin("pmu[" + Dec(i) + "]");
    FeatureContext::PmuCaps p;
    bool ok = CapsList(w, f, &p.caps) && HeaderString(w, f, "pmu_name", &p.pmu);
    f.value = p.pmu + ": " + JoinCaps(p.caps);
    w.End(top, std::move(f));
    if (!ok) break;
    all += (all.empty() ? "" : "; ") + p.pmu + ": " + JoinCaps(p.caps);
    ctx.pmu_caps.push_back(std::move(p));
  }
  top.value = all.empty() ? "no PMU capabilities" : all;
}

// ---- CPU_DOMAIN_INFO (bit 32, newest perf) --------------------------------------------

void DecodeCpuDomainInfo(FieldReader& w, Field& top, FeatureContext& ctx) {
  uint32_t version = 0, max_domains = 0;
  if (!w.U32(top, "schedstat_version", &version) || !w.U32(top, "max_sched_domains", &max_domains))
    return;
  // perf reads nr_cpus_online entries; without NRCPUS read to the end.
  uint64_t n = ctx.nr_cpus_online;
  uint64_t got = 0;
  for (uint64_t i = 0; w.ok() && (n ? i < n : w.remaining() > 0); ++i) {
    Field f = w.Begin("cpu[" + Dec(i) + "]");
    uint32_t cpu = 0, nr_domains = 0;
    bool ok = w.U32(f, "cpu", &cpu) && w.U32(f, "nr_domains", &nr_domains);
    if (ok) Plausible(w, nr_domains, 12, f.offset + 4, "domain");
    for (uint32_t j = 0; ok && j < nr_domains; ++j) {
      Field d = w.Begin("domain[" + Dec(j) + "]");
      uint32_t domain = 0;
      std::string dname, mask, list;
      ok = w.U32(d, "domain", &domain) && (version < 17 || HeaderString(w, d, "name", &dname)) &&
           HeaderString(w, d, "cpumask", &mask) && HeaderString(w, d, "cpulist", &list);
      d.value = (dname.empty() ? "" : dname + " ") + list;
      w.End(f, std::move(d));
    }
    f.value = "cpu " + Dec(cpu) + ", " + Dec(nr_domains) + " domains";
    w.End(top, std::move(f));
    if (ok) ++got;
  }
  top.value = "schedstat version " + Dec(version) + ", " + Plural(got, "CPU", "CPUs");
}

// ---- TRACING_DATA -------------------------------------------------------------------

// Value of "key: value" at a line start in a format text, or "".
std::string FormatKey(const char* p, size_t n, const char* key) {
  size_t klen = std::strlen(key);
  size_t i = 0;
  while (i < n) {
    size_t eol = i;
    while (eol < n && p[eol] != '\n') ++eol;
    if (eol - i >= klen && std::memcmp(p + i, key, klen) == 0) {
      size_t b = i + klen;
      while (b < eol && p[b] == ' ') ++b;
      size_t e = eol;
      while (e > b && (p[e - 1] == ' ' || p[e - 1] == '\r')) --e;
      return std::string(p + b, e - b);
    }
    i = eol + 1;
  }
  return "";
}

// atof(version) >= 0.6, without locale.
bool TracingVersionAtLeast06(const std::string& v) {
  size_t i = 0;
  uint64_t major = 0;
  while (i < v.size() && v[i] >= '0' && v[i] <= '9' && major < 1000000) major = major * 10 + (v[i++] - '0');
  if (major > 0) return true;
  if (i >= v.size() || v[i] != '.') return false;
  ++i;
  // Compare the fraction digit by digit with ".6".
  if (i >= v.size() || v[i] < '0' || v[i] > '9') return false;
  return v[i] >= '6';
}

// A u64 size then that many bytes: the size field and the text as children of `name`.
bool SizedText(FieldReader& w, Field& parent, const std::string& name, bool size64, std::string* text,
               const char** data = nullptr, uint64_t* len = nullptr) {
  Field f = w.Begin(name);
  uint64_t size = 0;
  bool ok;
  if (size64) {
    ok = w.U64(f, "size", &size);
  } else {
    uint32_t s32 = 0;
    ok = w.U32(f, "size", &s32);
    size = s32;
  }
  const uint8_t* p = w.cursor();
  if (ok && size) ok = Raw(w, f, "text", size, Bytes(size), &p);
  else if (ok) ok = w.Need(0, name);
  if (ok) {
    if (data) *data = reinterpret_cast<const char*>(p);
    if (len) *len = size;
    if (text) *text = std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(size));
    f.value = Bytes(size);
  }
  w.End(parent, std::move(f));
  return ok;
}

// A text of `n` bytes just read (it ends at the reader's position) that libtraceevent, perf's parser,
// cannot survive (trace::LibraryHazard): profscope shows its samples by their fields instead.
void WarnLibraryHazard(FieldReader& w, const void* text, uint64_t n, const std::string& what) {
  const trace::TextHazard h = trace::LibraryHazard(std::string_view(static_cast<const char*>(text), static_cast<size_t>(n)));
  if (!h) return;
  uint64_t at = w.abs_pos() - n + h.at;
  Problems(w).Warn(DiagCode::kBadFeature, at, n - h.at,
                   "TRACING_DATA: " + what + " has " + h.what + " at " + Hex(at) +
                       " (libtraceevent, which perf uses, would never end, overflow its stack or crash on it): "
                       "its samples are shown by their fields, not by its print fmt");
}

void DecodeTracingData(FieldReader& w, Field& top, FeatureContext& ctx) {
  ctx.tracepoint_formats.clear();
  ctx.tracing_version.clear();
  ctx.has_tracing_data = false;
  static const uint8_t kMagic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
  const uint8_t* magic = nullptr;
  uint64_t m_at = w.abs_pos();
  if (!Raw(w, top, "magic", 10, "", &magic)) return;
  if (std::memcmp(magic, kMagic, 10) != 0) {
    top.children.back().value = HexBytes(magic, 10);
    RestAsBlob(w, top, "data");
    Fail(w, DiagCode::kBadFeature, m_at, 10,
           "TRACING_DATA at " + Hex(m_at) + " does not start with the \"\\x17\\x08\\x44tracing\" magic");
    return;
  }
  top.children.back().value = QuoteString(std::string(reinterpret_cast<const char*>(magic), 10));
  std::string version;
  if (!CString(w, top, "version", &version)) return;
  ctx.tracing_version = version;
  uint8_t big = 0, long_size = 0;
  if (!w.U8(top, "big_endian", &big)) return;
  top.children.back().value += big ? " (big endian)" : " (little endian)";
  w.SetOrder(big ? ByteOrder::kBig : ByteOrder::kLittle);
  uint64_t ls_at = w.abs_pos();
  if (!w.U8(top, "long_size", &long_size)) return;
  if (long_size != 4 && long_size != 8) {
    Problems(w).Warn(DiagCode::kBadFeature, ls_at, 1,
           "TRACING_DATA: long size " + Dec(long_size) + " at " + Hex(ls_at) + " is neither 4 nor 8");
  }
  uint32_t page_size = 0;
  uint64_t ps_at = w.abs_pos();
  if (!w.U32(top, "page_size", &page_size)) return;
  if (page_size == 0) {
    Fail(w, DiagCode::kBadFeature, ps_at, 4, "TRACING_DATA: page size at " + Hex(ps_at) + " is 0");
    return;
  }
  // header_page / header_event: a NUL-terminated tag, u64 size, text.
  struct Hdr { const char* tag; size_t len; const char* name; };
  static const Hdr kHdrs[] = {{"header_page", 12, "header_page"}, {"header_event", 13, "header_event"}};
  for (const Hdr& h : kHdrs) {
    Field f = w.Begin(h.name);
    const uint8_t* tag = nullptr;
    uint64_t t_at = w.abs_pos();
    bool ok = Raw(w, f, "tag", h.len, "", &tag);
    if (ok && std::memcmp(tag, h.tag, h.len) != 0) {
      f.children.back().value = HexBytes(tag, h.len);
      w.End(top, std::move(f));
      Fail(w, DiagCode::kBadFeature, t_at, h.len,
             std::string("TRACING_DATA: expected the \"") + h.tag + "\" tag at " + Hex(t_at));
      return;
    }
    if (ok) f.children.back().value = QuoteString(h.tag);
    uint64_t size = 0;
    if (ok) ok = w.U64(f, "size", &size);
    const uint8_t* text = nullptr;
    if (ok) ok = Raw(w, f, "text", size, Bytes(size), &text);
    if (ok) f.value = Bytes(size);
    w.End(top, std::move(f));
    if (!ok) return;
    if (std::strcmp(h.name, "header_page") == 0) WarnLibraryHazard(w, text, size, "header_page");  // (libtraceevent parses it)
  }
  // ftrace format files.
  {
    Field list = w.Begin("ftrace_formats");
    uint32_t count = 0;
    uint64_t c_at = w.abs_pos();
    bool ok = w.U32(list, "count", &count);
    if (ok) Plausible(w, count, 8, c_at, "ftrace format");
    for (uint32_t i = 0; ok && i < count; ++i) {
      const char* p = nullptr;
      uint64_t n = 0;
      ok = SizedText(w, list, "format[" + Dec(i) + "]", true, nullptr, &p, &n);
      if (ok) {
        std::string name = FormatKey(p, static_cast<size_t>(n), "name:");
        list.children.back().value = "ftrace:" + name + ", " + Bytes(n);
        ctx.tracepoint_formats.push_back("ftrace:" + name);
        WarnLibraryHazard(w, p, n, "the format of ftrace:" + name);
      }
    }
    list.value = Plural(count, "format", "formats");
    w.End(top, std::move(list));
    if (!ok) return;
  }
  // Event systems, each with its format files.
  {
    Field list = w.Begin("event_systems");
    uint32_t systems = 0;
    uint64_t s_at = w.abs_pos();
    bool ok = w.U32(list, "count", &systems);
    if (ok) Plausible(w, systems, 5, s_at, "event system");
    for (uint32_t i = 0; ok && i < systems; ++i) {
      Field sys = w.Begin("system[" + Dec(i) + "]");
      std::string name;
      uint32_t count = 0;
      uint64_t c_at = 0;
      ok = CString(w, sys, "name", &name);
      if (ok) { c_at = w.abs_pos(); ok = w.U32(sys, "count", &count); }
      if (ok) Plausible(w, count, 8, c_at, name + " format");
      for (uint32_t j = 0; ok && j < count; ++j) {
        const char* p = nullptr;
        uint64_t n = 0;
        ok = SizedText(w, sys, "format[" + Dec(j) + "]", true, nullptr, &p, &n);
        if (ok) {
          std::string ev = FormatKey(p, static_cast<size_t>(n), "name:");
          std::string id = FormatKey(p, static_cast<size_t>(n), "ID:");
          sys.children.back().value = name + ":" + ev + (id.empty() ? "" : " (ID " + id + ")") +
                                      ", " + Bytes(n);
          ctx.tracepoint_formats.push_back(name + ":" + ev);
          WarnLibraryHazard(w, p, n, "the format of " + name + ":" + ev);
          if (!id.empty()) ctx.tracepoint_ids[std::strtoull(id.c_str(), nullptr, 10)] = name + ":" + ev;
        }
      }
      sys.value = name + ", " + Plural(count, "format", "formats");
      w.End(list, std::move(sys));
    }
    list.value = Plural(systems, "system", "systems");
    w.End(top, std::move(list));
    if (!ok) return;
  }
  if (!SizedText(w, top, "kallsyms", false, nullptr)) return;
  if (!SizedText(w, top, "printk", false, nullptr)) return;
  if (TracingVersionAtLeast06(version)) {
    if (!SizedText(w, top, "saved_cmdlines", true, nullptr)) return;
  }
  ctx.has_tracing_data = true;
  top.value = "version " + version + ", " + Plural(ctx.tracepoint_formats.size(), "format", "formats");
}

// ---- trailing bytes ---------------------------------------------------------------------

void CheckTrailing(FieldReader& w, Field& top) {
  if (!w.ok() || w.remaining() == 0) return;
  uint64_t at = w.abs_pos();
  uint64_t n = w.remaining();
  const uint8_t* p = w.cursor();
  bool zeros = true;
  for (uint64_t i = 0; i < n; ++i) zeros = zeros && p[i] == 0;
  if (zeros && n < 8) {
    // Pipe-mode HEADER_FEATURE records are padded to 8 bytes (perf 6.12+).
    Raw(w, top, "padding", n, Bytes(n));
    return;
  }
  Raw(w, top, "unparsed", n, Preview(p, n));
  Problems(w).Warn(DiagCode::kBadFeature, at, n,
         Problems(w).feat() + ": " + Bytes(n) + " at " + Hex(at) + " after the end of the decoded data " +
             (zeros ? "(all zero)" : "are not understood"));
}

}  // namespace

void DecodeFeature(uint32_t feature_id, ByteReader r, FeatureContext& ctx, FieldList& out,
                   Diagnostics& diags) {
  // Reading starts at the slice start whatever the caller's cursor was.
  ByteReader section(r.data(), r.size(), r.base(), r.order());
  Field top{FeatureLabel(feature_id), r.base(), r.size(), "", {}};
  SectionProblems problems(top.name, diags);
  FieldReader w(section, nullptr, &problems);
  bool check_trailing = true;
  switch (feature_id) {
    case kFeatTracingData: DecodeTracingData(w, top, ctx); break;
    case kFeatBuildId: DecodeBuildId(w, top, ctx); break;
    case kFeatHostname: DecodeStringFeature(w, top, "hostname", &ctx.hostname); break;
    case kFeatOsRelease: DecodeStringFeature(w, top, "os_release", &ctx.os_release); break;
    case kFeatVersion: DecodeStringFeature(w, top, "version", &ctx.version); break;
    case kFeatArch: DecodeStringFeature(w, top, "arch", &ctx.arch); break;
    case kFeatNrCpus: DecodeNrCpus(w, top, ctx); break;
    case kFeatCpuDesc: DecodeStringFeature(w, top, "cpudesc", &ctx.cpudesc); break;
    case kFeatCpuId: DecodeStringFeature(w, top, "cpuid", &ctx.cpuid); break;
    case kFeatTotalMem: DecodeTotalMem(w, top, ctx); break;
    case kFeatCmdline: DecodeCmdline(w, top, ctx); break;
    case kFeatEventDesc: DecodeEventDesc(w, top, ctx); break;
    case kFeatCpuTopology: DecodeCpuTopology(w, top, ctx); break;
    case kFeatNumaTopology: DecodeNumaTopology(w, top, ctx); break;
    case kFeatBranchStack:
      ctx.has_branch_stack = true;
      top.value = "samples have branch stacks (no payload)";
      break;
    case kFeatPmuMappings: DecodePmuMappings(w, top, ctx); break;
    case kFeatGroupDesc: DecodeGroupDesc(w, top, ctx); break;
    case kFeatAuxtrace: {
      std::vector<std::pair<uint64_t, uint64_t>> sp;
      if (SimpleperfAuxtraceIndex(section, top, &sp)) {  // simpleperf: (offset, size) pairs, no count
        ctx.has_auxtrace = true;
        ctx.auxtrace_index.clear();
        for (const auto& e : sp) ctx.auxtrace_index.push_back({e.first, e.second});
        check_trailing = false;
        break;
      }
      DecodeAuxtrace(w, top, ctx);
      break;
    }
    case kFeatStat:
      ctx.has_stat = true;
      top.value = "perf stat record data (no payload)";
      break;
    case kFeatCache: DecodeCache(w, top, ctx); break;
    case kFeatSampleTime: DecodeSampleTime(w, top, ctx); break;
    case kFeatMemTopology: DecodeMemTopology(w, top, ctx); break;
    case kFeatClockId: DecodeClockId(w, top, ctx); break;
    case kFeatDirFormat: DecodeDirFormat(w, top, ctx); break;
    case kFeatBpfProgInfo: DecodeBpfProgInfo(w, top, ctx); break;
    case kFeatBpfBtf: DecodeBpfBtf(w, top, ctx); break;
    case kFeatCompressed: DecodeCompressed(w, top, ctx); break;
    case kFeatCpuPmuCaps: DecodeCpuPmuCaps(w, top, ctx); break;
    case kFeatClockData: DecodeClockData(w, top, ctx); break;
    case kFeatHybridTopology: DecodeHybridTopology(w, top, ctx); break;
    case kFeatPmuCaps: DecodePmuCaps(w, top, ctx); break;
    case kCpuDomainInfoFeatureId:
      if (r.size() == 0) {
        // perf 6.x (HEADER_LAST_FEATURE == 32) ends the pipe-mode features
        // with an empty HEADER_FEATURE record of this id.
        top.name = "LAST_FEATURE";
        top.value = "end of the feature records (pipe mode)";
      } else {
        DecodeCpuDomainInfo(w, top, ctx);
      }
      break;
    default: {
      check_trailing = false;
      if (feature_id >= 128 && DecodeSimpleperfFeature(feature_id, section, ctx.simpleperf, top, diags)) break;
      const char* name = FeatureName(feature_id);
      bool known = name && *name;  // simpleperf's 128+: decoded elsewhere
      if (!known) {
        ctx.unknown_features.push_back(feature_id);
        diags.Warning(DiagCode::kUnknownFeature, r.base(), r.size(),
                      "feature bit " + Dec(feature_id) + " (section at " + Hex(r.base()) + ", " +
                          Bytes(r.size()) + ") is not known; kept as an opaque blob");
      }
      top.value = Preview(r.data(), r.size());
      if (r.size()) top.children.push_back(Field{"data", r.base(), r.size(), Bytes(r.size()), {}});
      break;
    }
  }
  if (check_trailing) CheckTrailing(w, top);
  out.items().push_back(std::move(top));
}

}  // namespace profscope::perf
