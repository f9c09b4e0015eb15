#include "core/format/perf/perf_sample.h"

#include <cstring>
#include <string>

#include "core/format/perf/perf_format.h"
#include "core/model/field_reader.h"

namespace profscope::perf {

namespace {

int Popcount(uint64_t v) {
  int n = 0;
  while (v) { v &= v - 1; ++n; }
  return n;
}

// Reads a REGS_USER / REGS_INTR block: abi, then one u64 per mask bit when abi != 0.
// The abi and values go to *abi_out / *values when given.
void Regs(FieldReader& w, const char* name, uint64_t mask, uint64_t* abi_out, std::vector<uint64_t>* values) {
  ByteReader& r = w.reader();
  uint64_t at = r.abs_pos();
  uint64_t abi = r.U64();
  size_t n = abi ? static_cast<size_t>(Popcount(mask)) : 0;
  if (abi_out) *abi_out = abi;
  Field* f = w.Add(name, at, 8 + 8 * n, w.fielding() ? "abi " + std::to_string(abi) + ", " + std::to_string(n) + " registers" : std::string());
  if (values && n <= r.remaining() / 8) values->reserve(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t rat = r.abs_pos();
    uint64_t v = r.U64();
    if (!r.ok()) break;
    if (values) values->push_back(v);
    if (f) f->children.push_back(Field{"reg[" + std::to_string(i) + "]", rat, 8, Hex(v), {}});
  }
}

// The members the fast path reads: fixed u64/u32 members and the callchain.
constexpr uint64_t kFastBits = kSampleIdentifier | kSampleIp | kSampleTid | kSampleTime | kSampleAddr | kSampleId |
                               kSampleStreamId | kSampleCpu | kSamplePeriod | kSampleCallchain | kSampleWeight |
                               kSampleWeightStruct | kSampleDataSrc | kSampleTransaction | kSamplePhysAddr |
                               kSampleCgroup | kSampleDataPageSize | kSampleCodePageSize;

// A SAMPLE of the usual kinds (those members only, the host's byte order, no field list), read
// straight from its bytes: what the general parser below gives it. False when the sample is of
// another kind or any member does not fit: the general parser then reads it (and says what is
// wrong), from the same members this one may have set to the same values.
bool FastSample(ByteReader payload, uint64_t st, SampleData* s) {
  if (payload.swapped() || (st & ~kFastBits)) return false;
  const uint8_t* const p = payload.data();
  const size_t n = payload.size();
  size_t at = 0;
  auto u64 = [&](uint64_t* v) {
    if (n - at < 8) return false;
    std::memcpy(v, p + at, 8);
    at += 8;
    return true;
  };
  auto u32 = [&](uint32_t* v) {
    if (n - at < 4) return false;
    std::memcpy(v, p + at, 4);
    at += 4;
    return true;
  };
  uint32_t skip32;
  if ((st & kSampleIdentifier) && !u64(&s->id)) return false;
  if ((st & kSampleIp) && !u64(&s->ip)) return false;
  if ((st & kSampleTid) && (!u32(&s->pid) || !u32(&s->tid))) return false;
  if ((st & kSampleTime) && !u64(&s->time)) return false;
  if ((st & kSampleAddr) && !u64(&s->addr)) return false;
  if ((st & kSampleId) && !u64(&s->id)) return false;
  if ((st & kSampleStreamId) && !u64(&s->stream_id)) return false;
  if ((st & kSampleCpu) && (!u32(&s->cpu) || !u32(&skip32))) return false;
  if ((st & kSamplePeriod) && !u64(&s->period)) return false;
  if (st & kSampleCallchain) {
    uint64_t nr;
    if (!u64(&nr) || nr > (n - at) / 8) return false;
    s->callchain_offset = payload.base() + at;
    s->callchain.resize(static_cast<size_t>(nr));
    if (nr) std::memcpy(s->callchain.data(), p + at, static_cast<size_t>(nr) * 8);
    at += static_cast<size_t>(nr) * 8;
  }
  if ((st & (kSampleWeight | kSampleWeightStruct)) && !u64(&s->weight)) return false;
  if ((st & kSampleDataSrc) && !u64(&s->data_src)) return false;
  if ((st & kSampleTransaction) && !u64(&s->transaction)) return false;
  if ((st & kSamplePhysAddr) && !u64(&s->phys_addr)) return false;
  if ((st & kSampleCgroup) && !u64(&s->cgroup)) return false;
  if ((st & kSampleDataPageSize) && !u64(&s->data_page_size)) return false;
  if ((st & kSampleCodePageSize) && !u64(&s->code_page_size)) return false;
  return true;
}

}  // namespace

IdPos ComputeIdPos(uint64_t st) {
  IdPos p;
  if (st & kSampleIdentifier) {
    p.sample_pos = 0;
    p.trailer_pos = 1;
    return p;
  }
  if (st & kSampleId) {
    int i = 0;
    if (st & kSampleIp) ++i;
    if (st & kSampleTid) ++i;
    if (st & kSampleTime) ++i;
    if (st & kSampleAddr) ++i;
    p.sample_pos = i;
    int j = 1;
    if (st & kSampleCpu) ++j;
    if (st & kSampleStreamId) ++j;
    p.trailer_pos = j;
  }
  return p;
}

bool ParseSample(ByteReader payload, const PerfEventAttr& attr, SampleData* s, FieldList* fields,
                 Diagnostics* diags) {
  const uint64_t st = attr.sample_type;
  s->sample_type = st;
  // (a callchain is resized to its entries: clearing it first would fill them with zeros too)
  if (!(st & kSampleCallchain)) s->callchain.clear();
  s->lbr_from.clear();
  s->read_values.clear();
  s->regs_user.clear();
  s->regs_user_abi = 0;
  s->regs_user_mask = attr.sample_regs_user;
  s->stack_user_size = 0;
  s->stack_user_dyn_size = 0;
  if (!fields && FastSample(payload, st, s)) return true;
  s->callchain.clear();
  FieldReader w(payload, fields ? &fields->items() : nullptr);
  ByteReader& r = w.reader();
  constexpr Fmt kHex = Fmt::kHex;
  auto fail = [&](const char* what) {
    if (diags) {
      diags->Error(DiagCode::kRecordFieldOverrun, r.abs_pos(), 0,
                   std::string("SAMPLE record ends inside its ") + what + " field at " + Hex(r.abs_pos()) +
                       " (record payload is " + std::to_string(r.size()) + " bytes; sample_type " +
                       SampleTypeString(st) + ")");
    }
    return false;
  };
  if (st & kSampleIdentifier) { w.U64("identifier", &s->id); if (!w.ok()) return fail("IDENTIFIER"); }
  if (st & kSampleIp) { w.U64("ip", &s->ip, kHex); if (!w.ok()) return fail("IP"); }
  if (st & kSampleTid) { w.U32("pid", &s->pid); w.U32("tid", &s->tid); if (!w.ok()) return fail("TID"); }
  if (st & kSampleTime) { w.U64("time", &s->time); if (!w.ok()) return fail("TIME"); }
  if (st & kSampleAddr) { w.U64("addr", &s->addr, kHex); if (!w.ok()) return fail("ADDR"); }
  if (st & kSampleId) { w.U64("id", &s->id); if (!w.ok()) return fail("ID"); }
  if (st & kSampleStreamId) { w.U64("stream_id", &s->stream_id); if (!w.ok()) return fail("STREAM_ID"); }
  if (st & kSampleCpu) { w.U32("cpu", &s->cpu); w.U32("cpu_reserved", nullptr); if (!w.ok()) return fail("CPU"); }
  if (st & kSamplePeriod) { w.U64("period", &s->period); if (!w.ok()) return fail("PERIOD"); }
  if (st & kSampleRead) {
    uint64_t at = r.abs_pos();
    std::vector<Field> sub;
    std::vector<Field>* outer = w.Target(fields ? &sub : nullptr);
    FieldReader& rw = w;
    const uint64_t rf = attr.read_format;
    if (rf & kReadGroup) {
      uint64_t nr = 0;
      rw.U64("nr", &nr);
      if (rf & kReadTotalTimeEnabled) rw.U64("time_enabled", nullptr);
      if (rf & kReadTotalTimeRunning) rw.U64("time_running", nullptr);
      uint64_t per = 8 + ((rf & kReadId) ? 8 : 0) + ((rf & kReadLost) ? 8 : 0);
      if (!w.ok() || nr > r.remaining() / per) { w.Target(outer); return fail("READ"); }
      for (uint64_t i = 0; i < nr; ++i) {
        uint64_t value = 0, id = 0;
        rw.U64("value", &value);
        if (rf & kReadId) rw.U64("id", &id);
        if (rf & kReadLost) rw.U64("lost", nullptr);
        if (w.ok()) s->read_values.emplace_back(value, id);
      }
    } else {
      uint64_t value = 0, id = 0;
      rw.U64("value", &value);
      if (rf & kReadTotalTimeEnabled) rw.U64("time_enabled", nullptr);
      if (rf & kReadTotalTimeRunning) rw.U64("time_running", nullptr);
      if (rf & kReadId) rw.U64("id", &id);
      if (rf & kReadLost) rw.U64("lost", nullptr);
      if (w.ok()) s->read_values.emplace_back(value, id);
    }
    w.Target(outer);
    if (!w.ok()) return fail("READ");
    if (fields) {
      Field& f = fields->Add("read", at, r.abs_pos() - at, ReadFormatString(rf));
      f.children = std::move(sub);
    }
  }
  if (st & kSampleCallchain) {
    uint64_t at = r.abs_pos();
    uint64_t nr = r.U64();
    if (!w.ok()) return fail("CALLCHAIN");
    if (nr > r.remaining() / 8) {
      if (diags) {
        diags->Error(DiagCode::kCallchainTooDeep, at, 8,
                     "callchain at " + Hex(at) + " declares " + std::to_string(nr) +
                         " entries but only " + std::to_string(r.remaining() / 8) +
                         " fit in the rest of the SAMPLE record");
      }
      return false;
    }
    s->callchain_offset = r.abs_pos();
    s->callchain.resize(static_cast<size_t>(nr));
    if (!r.swapped() && nr) {  // the file's order is the host's: the entries as they are
      std::memcpy(s->callchain.data(), r.data() + r.pos(), static_cast<size_t>(nr) * 8);
      r.Skip(static_cast<size_t>(nr) * 8);
    } else {
      for (uint64_t i = 0; i < nr; ++i) s->callchain[i] = r.U64();
    }
    if (fields) {
      Field& f = fields->Add("callchain", at, 8 + 8 * nr, std::to_string(nr) + " entries");
      f.children.reserve(static_cast<size_t>(nr));
      for (uint64_t i = 0; i < nr; ++i) {
        uint64_t v = s->callchain[i];
        const char* ctx = v >= kContextMax ? ContextName(v) : nullptr;
        f.children.push_back(Field{"[" + std::to_string(i) + "]", s->callchain_offset + 8 * i, 8,
                                   ctx ? Hex(v) + " (context " + ctx + ")" : Hex(v), {}});
      }
    }
  }
  if (st & kSampleRaw) {
    uint64_t at = r.abs_pos();
    uint32_t size = r.U32();
    if (!w.ok() || !r.Has(size)) return fail("RAW");
    s->raw_size = size;
    s->raw_offset = r.abs_pos();
    r.Skip(size);
    if (fields) fields->Add("raw", at, 4 + size, std::to_string(size) + " bytes");
    // The u32 size plus data is padded to a multiple of 8 by the kernel and
    // accounted for in `size` (size includes the padding).
  }
  if (st & kSampleBranchStack) {
    uint64_t at = r.abs_pos();
    uint64_t nr = r.U64();
    bool hw_idx = attr.branch_sample_type & kBranchHwIndex;
    uint64_t hw = 0;
    if (hw_idx) hw = r.U64();
    if (!w.ok() || nr > r.remaining() / 24) return fail("BRANCH_STACK");
    s->branch_nr = nr;
    const bool call_stack = attr.branch_sample_type & kBranchCallStack;
    Field* f = nullptr;
    if (fields) f = &fields->Add("branch_stack", at, (hw_idx ? 16 : 8) + 24 * nr,
                                 std::to_string(nr) + " entries" + (hw_idx ? ", hw_idx " + std::to_string(hw) : ""));
    for (uint64_t i = 0; i < nr; ++i) {
      uint64_t eat = r.abs_pos();
      uint64_t from = r.U64(), to = r.U64(), flags = r.U64();
      if (call_stack) {
        if (i == 0) s->lbr_to0 = to;
        s->lbr_from.push_back(from);
      }
      if (f) f->children.push_back(Field{"[" + std::to_string(i) + "]", eat, 24,
                                         Hex(from) + " -> " + Hex(to) + " flags " + Hex(flags), {}});
    }
    // Linux 6.8+: PERF_SAMPLE_BRANCH_COUNTERS adds one u64 of counters per entry.
    if (attr.branch_sample_type & kBranchCounters) {
      uint64_t cat = r.abs_pos();
      if (nr > r.remaining() / 8) return fail("BRANCH_STACK counters");
      r.Skip(static_cast<size_t>(8 * nr));
      if (fields) fields->Add("branch_counters", cat, 8 * nr, std::to_string(nr) + " counters");
    }
  }
  if (st & kSampleRegsUser) {
    s->regs_user_offset = r.abs_pos();
    Regs(w, "regs_user", attr.sample_regs_user, &s->regs_user_abi, &s->regs_user);
    if (!w.ok()) return fail("REGS_USER");
  }
  if (st & kSampleStackUser) {
    uint64_t at = r.abs_pos();
    uint64_t size = r.U64();
    if (!w.ok() || size > r.remaining()) return fail("STACK_USER");
    s->stack_user_offset = r.abs_pos();
    r.Skip(static_cast<size_t>(size));
    uint64_t dyn = 0;
    if (size) dyn = r.U64();
    if (!w.ok()) return fail("STACK_USER");
    s->stack_user_size = size;
    s->stack_user_dyn_size = dyn;
    if (fields) fields->Add("stack_user", at, r.abs_pos() - at,
                            std::to_string(size) + " bytes" + (size ? ", dyn_size " + std::to_string(dyn) : ""));
  }
  if (st & (kSampleWeight | kSampleWeightStruct)) { w.U64("weight", &s->weight); if (!w.ok()) return fail("WEIGHT"); }
  if (st & kSampleDataSrc) { w.U64("data_src", &s->data_src, kHex); if (!w.ok()) return fail("DATA_SRC"); }
  if (st & kSampleTransaction) { w.U64("transaction", &s->transaction, kHex); if (!w.ok()) return fail("TRANSACTION"); }
  if (st & kSampleRegsIntr) { Regs(w, "regs_intr", attr.sample_regs_intr, nullptr, nullptr); if (!w.ok()) return fail("REGS_INTR"); }
  if (st & kSamplePhysAddr) { w.U64("phys_addr", &s->phys_addr, kHex); if (!w.ok()) return fail("PHYS_ADDR"); }
  if (st & kSampleCgroup) { w.U64("cgroup", &s->cgroup); if (!w.ok()) return fail("CGROUP"); }
  if (st & kSampleDataPageSize) { w.U64("data_page_size", &s->data_page_size); if (!w.ok()) return fail("DATA_PAGE_SIZE"); }
  if (st & kSampleCodePageSize) { w.U64("code_page_size", &s->code_page_size); if (!w.ok()) return fail("CODE_PAGE_SIZE"); }
  if (st & kSampleAux) {
    uint64_t at = r.abs_pos();
    uint64_t size = r.U64();
    if (!w.ok() || size > r.remaining()) return fail("AUX");
    r.Skip(static_cast<size_t>(size));
    if (fields) fields->Add("aux", at, 8 + size, std::to_string(size) + " bytes");
  }
  if (fields && !r.at_end()) {
    fields->Add("unparsed", r.abs_pos(), r.remaining(), std::to_string(r.remaining()) + " bytes not described by sample_type");
  }
  return true;
}

bool ParseSampleId(ByteReader payload, const PerfEventAttr& attr, SampleData* s, FieldList* fields) {
  const uint64_t st = attr.sample_type;
  uint32_t size = SampleIdSize(st);
  if (!attr.sample_id_all() || size == 0) return true;
  if (payload.size() < size) return false;
  FieldReader w(payload.Slice(payload.size() - size, size), fields ? &fields->items() : nullptr);
  if (st & kSampleTid) { w.U32("sample_id.pid", &s->pid); w.U32("sample_id.tid", &s->tid); }
  if (st & kSampleTime) w.U64("sample_id.time", &s->time);
  if (st & kSampleId) w.U64("sample_id.id", &s->id);
  if (st & kSampleStreamId) w.U64("sample_id.stream_id", &s->stream_id);
  if (st & kSampleCpu) { w.U32("sample_id.cpu", &s->cpu); w.U32("sample_id.reserved", nullptr); }
  if (st & kSampleIdentifier) w.U64("sample_id.identifier", &s->id);
  s->sample_type = st;
  return w.ok();
}

}  // namespace profscope::perf
