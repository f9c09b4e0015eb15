#include "core/format/perf/simpleperf/simpleperf_record_fields.h"

#include <cstring>

#include "core/format/perf/simpleperf/simpleperf_format.h"
#include "core/model/field_reader.h"

namespace profscope::perf {

namespace {

// What a simpleperf record's field view says when its bytes fall short: a
// field over the bytes that are there and one diagnostic naming the record.
class SpProblems : public FieldProblems {
 public:
  SpProblems(Diagnostics* diags, std::string rec_name, uint64_t rec_off)
      : diags_(diags), rec_name_(std::move(rec_name)), rec_off_(rec_off) {}
  void Short(FieldReader& r, std::string_view name, uint64_t n) override {
    uint64_t at = r.abs_pos();
    size_t have = r.remaining();
    r.Add(name, at, have, "truncated: needs " + Dec(n) + " bytes, " + Dec(have) + " left");
    if (diags_) {
      diags_->Error(DiagCode::kRecordFieldOverrun, at, have,
                    rec_name_ + " record at " + Hex(rec_off_) + ": " + std::string(name) + " needs " + Dec(n) +
                        " bytes but only " + Dec(have) + " remain in the record");
    }
  }
  void NoNul(const char* name, uint64_t at, size_t left) {
    if (diags_) {
      diags_->Error(DiagCode::kBadString, at, left,
                    rec_name_ + " record at " + Hex(rec_off_) + ": " + name + " has no terminating NUL");
    }
  }

 private:
  Diagnostics* diags_;
  std::string rec_name_;
  uint64_t rec_off_;
};

// A NUL-terminated string padded to a multiple of `align` bytes (counted
// from the string's start), as simpleperf writes names.
bool PaddedString(FieldReader& c, SpProblems& problems, const char* name, size_t align, std::string* s) {
  if (c.failed()) return false;
  ByteReader& r = c.reader();
  uint64_t at = r.abs_pos();
  const char* p = reinterpret_cast<const char*>(r.cursor());
  size_t left = r.remaining();
  size_t len = strnlen(p, left);
  if (len == left) {
    c.Add(name, at, left, "truncated: no NUL in the " + Dec(left) + " bytes left");
    problems.NoNul(name, at, left);
    r.Skip(left);
    c.Stop();
    return false;
  }
  *s = std::string(p, len);
  size_t area = (len + 1 + align - 1) / align * align;
  if (area > left) area = left;
  r.Skip(area);
  c.Add(name, at, area, QuoteString(*s));
  return true;
}

std::string Printable(const uint8_t* p, size_t n, size_t max) {
  std::string s;
  for (size_t i = 0; i < n && i < max; ++i) s += (p[i] >= 32 && p[i] < 127) ? static_cast<char>(p[i]) : '.';
  if (n > max) s += "...";
  return s;
}

const char* StopReasonName(uint64_t v) {
  static const char* const names[] = {"UNKNOWN_REASON", "EXCEED_MAX_FRAMES_LIMIT", "ACCESS_REG_FAILED",
                                      "ACCESS_STACK_FAILED", "ACCESS_MEM_FAILED", "FIND_PROC_INFO_FAILED",
                                      "EXECUTE_DWARF_INSTRUCTION_FAILED", "DIFFERENT_ARCH", "MAP_MISSING",
                                      "INTERNAL_ERROR", "DWARF_INVALID", "DWARF_UNSUPPORTED",
                                      "MAX_FRAMES_EXCEEDED", "REPEATED_FRAME", "INVALID_ELF"};
  return v < sizeof(names) / sizeof(*names) ? names[v] : "";
}

// SIMPLEPERF_CALLCHAIN: pid, tid, chain_type, time, ip_nr, then ip_nr ips and ip_nr sps.
bool ParseCallchain(FieldReader& c, SimpleperfCallchain* out) {
  c.U32("pid", &out->pid);
  c.U32("tid", &out->tid);
  if (c.U64("chain_type", &out->chain_type) && c.fielding()) {
    const char* cn = SimpleperfChainTypeName(out->chain_type);
    if (*cn) c.target()->back().value += std::string(" (") + cn + ")";
  }
  c.U64("time", &out->time);
  uint64_t nr = 0;
  if (!c.U64("ip_nr", &nr)) return false;
  out->nr_read = true;
  if (!c.fielding() && nr > c.remaining() / 16) return false;  // both arrays must fit
  for (std::vector<uint64_t>* v : {&out->ips, &out->sps}) {
    const char* what = v == &out->ips ? "ips" : "sps";
    FieldReader::Group arr(c, what, Dec(nr) + " entries");
    for (uint64_t k = 0; k < nr && !c.failed(); ++k) {
      uint64_t x = 0;
      if (c.U64(c.fielding() ? std::string(what, 2) + "[" + Dec(k) + "]" : std::string(), &x, Fmt::kHex)) v->push_back(x);
    }
    if (v == &out->ips) out->ips_read = true;
    if (c.failed()) return false;
  }
  return true;
}

}  // namespace

void SimpleperfRecordFields(ByteReader rec, std::vector<Field>& out, Diagnostics* diags, std::string* summary) {
  rec.Seek(0);
  uint32_t type = rec.size() >= 4 ? rec.PeekU32(0) : 0;
  const char* n = SimpleperfRecordTypeName(type);
  std::string name = *n ? n : "record type " + Dec(type);
  uint64_t declared = 0;
  {
    Field hdr{"header", rec.base(), rec.size() < 8 ? rec.size() : 8, "", {}};
    SpProblems hp(diags, name, rec.base());
    FieldReader h(rec.Slice(0, hdr.size), &hdr.children, &hp);
    uint32_t t = 0, hi = 0, lo = 0;
    if (h.U32("type", &t)) hdr.children.back().value += std::string(" (") + (*n ? n : "unknown") + ")";
    if (h.Need(2, "size_hi")) {
      uint64_t at = h.reader().abs_pos();
      hi = h.reader().U16();
      hdr.children.push_back(Field{"size_hi", at, 2, Dec(hi) + " (high 16 bits of the 32-bit record size)", {}});
    }
    if (h.Need(2, "size_lo")) {
      uint64_t at = h.reader().abs_pos();
      lo = h.reader().U16();
      hdr.children.push_back(Field{"size_lo", at, 2, Dec(lo) + " (low 16 bits)", {}});
    }
    declared = (static_cast<uint64_t>(hi) << 16) | lo;
    hdr.value = name + ", size " + Dec(declared);
    out.push_back(std::move(hdr));
    if (h.failed()) return;
  }
  size_t extent = rec.size();
  if (declared < 8) {
    if (diags) diags->Error(DiagCode::kRecordTooSmall, rec.base(), 8,
                            name + " record at " + Hex(rec.base()) + " declares size " + Dec(declared) +
                                ", below the 8-byte header");
    extent = 8;
  } else if (declared < extent) {
    extent = static_cast<size_t>(declared);
  } else if (declared > extent && diags) {
    diags->Error(DiagCode::kRecordTruncated, rec.base(), rec.size(),
                 name + " record at " + Hex(rec.base()) + " declares " + Dec(declared) + " bytes but only " +
                     Dec(rec.size()) + " are available");
  }
  SpProblems problems(diags, name, rec.base());
  FieldReader c(rec.Slice(8, extent - 8), &out, &problems);
  std::string sum;
  switch (type) {
    case kSpKernelSymbol:
    case kSpTracingData: {
      uint32_t size = 0;
      const bool ks = type == kSpKernelSymbol;
      if (!c.U32(ks ? "kallsyms_size" : "data_size", &size)) break;
      if (!c.Need(size, ks ? "kallsyms" : "data")) break;
      const uint8_t* p = c.reader().cursor();
      if (ks) {
        size_t lines = 0;
        for (size_t i = 0; i < size; ++i) lines += p[i] == '\n';
        c.Blob("kallsyms", size, Dec(size) + " bytes, " + Dec(lines) + " lines: " + QuoteString(Printable(p, size, 60)));
        sum = "kallsyms: " + Dec(size) + " bytes, " + Dec(lines) + " lines";
      } else {
        c.Blob("data", size, Dec(size) + " bytes of tracing data (the TRACING_DATA feature's layout)");
        sum = "tracing data: " + Dec(size) + " bytes";
      }
      break;
    }
    case kSpDso: {
      uint64_t dtype = 0, id = 0, minv = 0;
      std::string s;
      if (c.U64("dso_type", &dtype)) {
        const char* dn = SimpleperfDsoTypeName(dtype);
        if (*dn) c.target()->back().value += std::string(" (") + dn + ")";
      }
      c.U64("dso_id", &id);
      c.U64("min_vaddr", &minv, Fmt::kHex);
      PaddedString(c, problems, "dso_name", 8, &s);
      sum = "dso_id " + Dec(id) + " " + s + " min_vaddr " + Hex(minv);
      break;
    }
    case kSpSymbol: {
      uint64_t addr = 0, len = 0, id = 0;
      std::string s;
      c.U64("addr", &addr, Fmt::kHex);
      c.U64("len", &len, Fmt::kHex);
      c.U64("dso_id", &id);
      PaddedString(c, problems, "name", 8, &s);
      sum = s + " " + Hex(addr) + " len " + Hex(len) + " dso_id " + Dec(id);
      break;
    }
    case kSpSplit:
      c.Blob("data", c.remaining(), Dec(c.remaining()) + " bytes of a record split into parts (joined at SPLIT_END)");
      sum = Dec(extent - 8) + " bytes of a split record";
      break;
    case kSpSplitEnd:
      sum = "end of a split record";
      break;
    case kSpEventId: {
      uint64_t count = 0;
      if (!c.U64("count", &count)) break;
      {
        FieldReader::Group arr(c, "entries", Dec(count) + " pairs");
        for (uint64_t k = 0; k < count && !c.failed(); ++k) {
          uint64_t a = 0, id = 0;
          if (!c.U64("attr_id[" + Dec(k) + "]", &a)) break;
          c.U64("event_id[" + Dec(k) + "]", &id);
        }
      }
      if (c.failed()) return;
      sum = "count " + Dec(count);
      break;
    }
    case kSpCallchain: {
      SimpleperfCallchain cc;
      if (!ParseCallchain(c, &cc) && !cc.ips_read) {
        if (cc.nr_read) return;
        break;
      }
      if (c.failed()) return;
      const char* cn = SimpleperfChainTypeName(cc.chain_type);
      sum = Dec(cc.pid) + "/" + Dec(cc.tid) + " " + (*cn ? cn : Dec(cc.chain_type).c_str()) + " time " + Dec(cc.time) +
            " ip_nr " + Dec(cc.ips.size());
      break;
    }
    case kSpUnwindingResult: {
      uint64_t time = 0, used = 0, reason = 0, info = 0, ss = 0, se = 0;
      c.U64("time", &time);
      c.U64("used_time", &used);
      if (c.U64("stop_reason", &reason)) {
        const char* rn = StopReasonName(reason);
        if (*rn) c.target()->back().value += std::string(" (") + rn + ")";
      }
      c.U64("stop_info", &info, Fmt::kHex);
      c.U64("stack_start", &ss, Fmt::kHex);
      c.U64("stack_end", &se, Fmt::kHex);
      if (c.remaining()) c.Blob("extra", c.remaining(), Dec(c.remaining()) + " bytes (registers / callchain of newer versions)");
      sum = "time " + Dec(time) + " used_time " + Dec(used) + " stop_reason " + Dec(reason);
      break;
    }
    case kSpDebug: {
      uint64_t time = 0;
      std::string s;
      c.U64("time", &time);
      PaddedString(c, problems, "message", 8, &s);
      sum = "time " + Dec(time) + " " + s;
      break;
    }
    default:
      if (c.remaining()) c.Blob("payload", c.remaining(), Dec(c.remaining()) + " bytes (unknown simpleperf record type)");
      sum = Dec(extent - 8) + " bytes of unknown record type " + Dec(type);
      break;
  }
  c.Rest();
  if (summary) *summary = std::move(sum);
}

bool ParseSimpleperfCallchain(ByteReader rec, SimpleperfCallchain* out) {
  if (rec.size() < 8 || rec.PeekU32(0) != kSpCallchain) return false;
  FieldReader r(rec.Slice(8, rec.size() - 8));
  return ParseCallchain(r, out);
}

}  // namespace profscope::perf
