#include "core/format/perf/simpleperf_record_fields.h"

#include <cstring>

#include "core/format/perf/simpleperf_format.h"

namespace profscope::perf {

namespace {

std::string Dec(uint64_t v) { return std::to_string(v); }

// Walks the payload and appends fields with absolute offsets; stops at the
// first member that does not fit.
class Walker {
 public:
  Walker(ByteReader r, std::vector<Field>* out, Diagnostics* diags, std::string rec_name, uint64_t rec_off)
      : r_(r), out_(out), diags_(diags), rec_name_(std::move(rec_name)), rec_off_(rec_off) {}
  bool failed() const { return failed_; }
  size_t remaining() const { return r_.remaining(); }
  std::vector<Field>* out() { return out_; }
  ByteReader& reader() { return r_; }

  bool Need(const char* name, size_t n) {
    if (failed_) return false;
    if (r_.Has(n)) return true;
    uint64_t at = r_.abs_pos();
    size_t have = r_.remaining();
    out_->push_back(Field{name, at, have, "truncated: needs " + Dec(n) + " bytes, " + Dec(have) + " left", {}});
    if (diags_) {
      diags_->Error(DiagCode::kRecordFieldOverrun, at, have,
                    rec_name_ + " record at " + Hex(rec_off_) + ": " + name + " needs " + Dec(n) +
                        " bytes but only " + Dec(have) + " remain in the record");
    }
    r_.Skip(have);
    failed_ = true;
    return false;
  }
  bool U32(const char* name, uint32_t* v, bool hex = false) {
    if (!Need(name, 4)) return false;
    uint64_t at = r_.abs_pos();
    *v = r_.U32();
    out_->push_back(Field{name, at, 4, hex ? Hex(*v) : Dec(*v), {}});
    return true;
  }
  bool U64(const char* name, uint64_t* v, bool hex = false) {
    if (!Need(name, 8)) return false;
    uint64_t at = r_.abs_pos();
    *v = r_.U64();
    out_->push_back(Field{name, at, 8, hex ? Hex(*v) : Dec(*v), {}});
    return true;
  }
  // A NUL-terminated string padded to a multiple of `align` bytes (counted
  // from the string's start), as simpleperf writes names.
  bool PaddedString(const char* name, size_t align, std::string* s) {
    if (failed_) return false;
    uint64_t at = r_.abs_pos();
    const char* p = reinterpret_cast<const char*>(r_.cursor());
    size_t left = r_.remaining();
    size_t len = strnlen(p, left);
    if (len == left) {
      out_->push_back(Field{name, at, left, "truncated: no NUL in the " + Dec(left) + " bytes left", {}});
      if (diags_) {
        diags_->Error(DiagCode::kBadString, at, left,
                      rec_name_ + " record at " + Hex(rec_off_) + ": " + name + " has no terminating NUL");
      }
      r_.Skip(left);
      failed_ = true;
      return false;
    }
    *s = std::string(p, len);
    size_t area = (len + 1 + align - 1) / align * align;
    if (area > left) area = left;
    r_.Skip(area);
    out_->push_back(Field{name, at, area, QuoteString(*s), {}});
    return true;
  }
  void Blob(const char* name, size_t n, const std::string& value) {
    if (!Need(name, n)) return;
    uint64_t at = r_.abs_pos();
    r_.Skip(n);
    out_->push_back(Field{name, at, n, value, {}});
  }
  // What no member describes.
  void Rest() {
    size_t n = r_.remaining();
    if (!n || failed_) return;
    uint64_t at = r_.abs_pos();
    bool zero = true;
    for (size_t i = 0; i < n; ++i)
      if (r_.cursor()[i]) { zero = false; break; }
    r_.Skip(n);
    out_->push_back(Field{zero ? "padding" : "unparsed", at, n, Dec(n) + " bytes", {}});
  }

 private:
  ByteReader r_;
  std::vector<Field>* out_;
  Diagnostics* diags_;
  std::string rec_name_;
  uint64_t rec_off_;
  bool failed_ = false;
};

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

}  // namespace

void SimpleperfRecordFields(ByteReader rec, std::vector<Field>& out, Diagnostics* diags, std::string* summary) {
  rec.Seek(0);
  uint32_t type = rec.size() >= 4 ? rec.PeekU32(0) : 0;
  const char* n = SimpleperfRecordTypeName(type);
  std::string name = *n ? n : "record type " + Dec(type);
  uint64_t declared = 0;
  {
    Field hdr{"header", rec.base(), rec.size() < 8 ? rec.size() : 8, "", {}};
    Walker h(rec.Slice(0, hdr.size), &hdr.children, diags, name, rec.base());
    uint32_t t = 0, hi = 0, lo = 0;
    if (h.U32("type", &t)) hdr.children.back().value += std::string(" (") + (*n ? n : "unknown") + ")";
    if (h.Need("size_hi", 2)) {
      uint64_t at = h.reader().abs_pos();
      hi = h.reader().U16();
      hdr.children.push_back(Field{"size_hi", at, 2, Dec(hi) + " (high 16 bits of the 32-bit record size)", {}});
    }
    if (h.Need("size_lo", 2)) {
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
  Walker c(rec.Slice(8, extent - 8), &out, diags, name, rec.base());
  std::string sum;
  switch (type) {
    case kSpKernelSymbol:
    case kSpTracingData: {
      uint32_t size = 0;
      const bool ks = type == kSpKernelSymbol;
      if (!c.U32(ks ? "kallsyms_size" : "data_size", &size)) break;
      if (!c.Need(ks ? "kallsyms" : "data", size)) break;
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
        if (*dn) c.out()->back().value += std::string(" (") + dn + ")";
      }
      c.U64("dso_id", &id);
      c.U64("min_vaddr", &minv, true);
      c.PaddedString("dso_name", 8, &s);
      sum = "dso_id " + Dec(id) + " " + s + " min_vaddr " + Hex(minv);
      break;
    }
    case kSpSymbol: {
      uint64_t addr = 0, len = 0, id = 0;
      std::string s;
      c.U64("addr", &addr, true);
      c.U64("len", &len, true);
      c.U64("dso_id", &id);
      c.PaddedString("name", 8, &s);
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
      Field arr{"entries", c.reader().abs_pos(), 0, "", {}};
      uint64_t k = 0;
      Walker e(c.reader().Slice(c.reader().pos(), c.remaining()), &arr.children, diags, name, rec.base());
      for (; k < count && !e.failed(); ++k) {
        uint64_t a = 0, id = 0;
        std::string an = "attr_id[" + Dec(k) + "]", en = "event_id[" + Dec(k) + "]";
        if (!e.U64(an.c_str(), &a)) break;
        e.U64(en.c_str(), &id);
      }
      size_t used = e.reader().pos();
      arr.size = used;
      arr.value = Dec(count) + " pairs";
      c.reader().Skip(used);
      out.push_back(std::move(arr));
      if (e.failed()) return;
      sum = "count " + Dec(count);
      break;
    }
    case kSpCallchain: {
      uint32_t pid = 0, tid = 0;
      uint64_t ct = 0, time = 0, nr = 0;
      c.U32("pid", &pid);
      c.U32("tid", &tid);
      if (c.U64("chain_type", &ct)) {
        const char* cn = SimpleperfChainTypeName(ct);
        if (*cn) c.out()->back().value += std::string(" (") + cn + ")";
      }
      c.U64("time", &time);
      if (!c.U64("ip_nr", &nr)) break;
      for (const char* what : {"ips", "sps"}) {
        Field arr{what, c.reader().abs_pos(), 0, Dec(nr) + " entries", {}};
        Walker e(c.reader().Slice(c.reader().pos(), c.remaining()), &arr.children, diags, name, rec.base());
        for (uint64_t k = 0; k < nr && !e.failed(); ++k) {
          uint64_t v;
          std::string fn = std::string(what, 2) + "[" + Dec(k) + "]";
          e.U64(fn.c_str(), &v, true);
        }
        arr.size = e.reader().pos();
        c.reader().Skip(arr.size);
        out.push_back(std::move(arr));
        if (e.failed()) return;
      }
      const char* cn = SimpleperfChainTypeName(ct);
      sum = Dec(pid) + "/" + Dec(tid) + " " + (*cn ? cn : Dec(ct).c_str()) + " time " + Dec(time) + " ip_nr " + Dec(nr);
      break;
    }
    case kSpUnwindingResult: {
      uint64_t time = 0, used = 0, reason = 0, info = 0, ss = 0, se = 0;
      c.U64("time", &time);
      c.U64("used_time", &used);
      if (c.U64("stop_reason", &reason)) {
        const char* rn = StopReasonName(reason);
        if (*rn) c.out()->back().value += std::string(" (") + rn + ")";
      }
      c.U64("stop_info", &info, true);
      c.U64("stack_start", &ss, true);
      c.U64("stack_end", &se, true);
      if (c.remaining()) c.Blob("extra", c.remaining(), Dec(c.remaining()) + " bytes (registers / callchain of newer versions)");
      sum = "time " + Dec(time) + " used_time " + Dec(used) + " stop_reason " + Dec(reason);
      break;
    }
    case kSpDebug: {
      uint64_t time = 0;
      std::string s;
      c.U64("time", &time);
      c.PaddedString("message", 8, &s);
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
  ByteReader r = rec.Slice(8, rec.size() - 8);
  out->pid = r.U32();
  out->tid = r.U32();
  out->chain_type = r.U64();
  out->time = r.U64();
  uint64_t nr = r.U64();
  if (!r.ok() || nr > r.remaining() / 16) return false;
  out->ips.resize(static_cast<size_t>(nr));
  out->sps.resize(static_cast<size_t>(nr));
  for (auto& v : out->ips) v = r.U64();
  for (auto& v : out->sps) v = r.U64();
  return r.ok();
}

}  // namespace profscope::perf
