#include "core/format/perf/perf_sample.h"

#include <string>

#include "core/format/perf/perf_format.h"

namespace profscope::perf {

namespace {

int Popcount(uint64_t v) {
  int n = 0;
  while (v) { v &= v - 1; ++n; }
  return n;
}

struct Walker {
  ByteReader& r;
  FieldList* fields;
  uint64_t U64(const char* name, bool hex = false) {
    uint64_t at = r.abs_pos();
    uint64_t v = r.U64();
    if (fields && r.ok()) fields->Add(name, at, 8, hex ? Hex(v) : std::to_string(v));
    return v;
  }
  uint32_t U32(const char* name) {
    uint64_t at = r.abs_pos();
    uint32_t v = r.U32();
    if (fields && r.ok()) fields->Add(name, at, 4, std::to_string(v));
    return v;
  }
};

// Reads a REGS_USER / REGS_INTR block: abi, then one u64 per mask bit when abi != 0.
// With `values`, keeps the registers (and the abi in *abi_out).
void Regs(Walker& w, const char* name, uint64_t mask, uint64_t* abi_out = nullptr,
          std::vector<uint64_t>* values = nullptr) {
  uint64_t at = w.r.abs_pos();
  uint64_t abi = w.r.U64();
  size_t n = abi ? static_cast<size_t>(Popcount(mask)) : 0;
  if (abi_out) *abi_out = abi;
  Field* f = nullptr;
  if (w.fields) f = &w.fields->Add(name, at, 8 + 8 * n, "abi " + std::to_string(abi) + ", " + std::to_string(n) + " registers");
  if (values && n <= w.r.remaining() / 8) values->reserve(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t rat = w.r.abs_pos();
    uint64_t v = w.r.U64();
    if (!w.r.ok()) break;
    if (values) values->push_back(v);
    if (f) f->children.push_back(Field{"reg[" + std::to_string(i) + "]", rat, 8, Hex(v), {}});
  }
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

bool ParseSample(ByteReader r, const PerfEventAttr& attr, SampleData* s, FieldList* fields,
                 Diagnostics* diags) {
  const uint64_t st = attr.sample_type;
  s->sample_type = st;
  s->callchain.clear();
  s->lbr_from.clear();
  s->regs_user.clear();
  s->regs_user_abi = 0;
  s->regs_user_mask = attr.sample_regs_user;
  s->stack_user_size = 0;
  s->stack_user_dyn_size = 0;
  Walker w{r, fields};
  auto fail = [&](const char* what) {
    if (diags) {
      diags->Error(DiagCode::kRecordFieldOverrun, r.abs_pos(), 0,
                   std::string("SAMPLE record ends inside its ") + what + " field at " + Hex(r.abs_pos()) +
                       " (record payload is " + std::to_string(r.size()) + " bytes; sample_type " +
                       SampleTypeString(st) + ")");
    }
    return false;
  };
  if (st & kSampleIdentifier) { s->id = w.U64("identifier"); if (!r.ok()) return fail("IDENTIFIER"); }
  if (st & kSampleIp) { s->ip = w.U64("ip", true); if (!r.ok()) return fail("IP"); }
  if (st & kSampleTid) { s->pid = w.U32("pid"); s->tid = w.U32("tid"); if (!r.ok()) return fail("TID"); }
  if (st & kSampleTime) { s->time = w.U64("time"); if (!r.ok()) return fail("TIME"); }
  if (st & kSampleAddr) { s->addr = w.U64("addr", true); if (!r.ok()) return fail("ADDR"); }
  if (st & kSampleId) { s->id = w.U64("id"); if (!r.ok()) return fail("ID"); }
  if (st & kSampleStreamId) { s->stream_id = w.U64("stream_id"); if (!r.ok()) return fail("STREAM_ID"); }
  if (st & kSampleCpu) { s->cpu = w.U32("cpu"); w.U32("cpu_reserved"); if (!r.ok()) return fail("CPU"); }
  if (st & kSamplePeriod) { s->period = w.U64("period"); if (!r.ok()) return fail("PERIOD"); }
  if (st & kSampleRead) {
    uint64_t at = r.abs_pos();
    FieldList sub;
    Walker rw{r, fields ? &sub : nullptr};
    const uint64_t rf = attr.read_format;
    if (rf & kReadGroup) {
      uint64_t nr = rw.U64("nr");
      if (rf & kReadTotalTimeEnabled) rw.U64("time_enabled");
      if (rf & kReadTotalTimeRunning) rw.U64("time_running");
      uint64_t per = 8 + ((rf & kReadId) ? 8 : 0) + ((rf & kReadLost) ? 8 : 0);
      if (!r.ok() || nr > r.remaining() / per) return fail("READ");
      for (uint64_t i = 0; i < nr; ++i) {
        rw.U64("value");
        if (rf & kReadId) rw.U64("id");
        if (rf & kReadLost) rw.U64("lost");
      }
    } else {
      rw.U64("value");
      if (rf & kReadTotalTimeEnabled) rw.U64("time_enabled");
      if (rf & kReadTotalTimeRunning) rw.U64("time_running");
      if (rf & kReadId) rw.U64("id");
      if (rf & kReadLost) rw.U64("lost");
    }
    if (!r.ok()) return fail("READ");
    if (fields) {
      Field& f = fields->Add("read", at, r.abs_pos() - at, ReadFormatString(rf));
      f.children = std::move(sub.items());
    }
  }
  if (st & kSampleCallchain) {
    uint64_t at = r.abs_pos();
    uint64_t nr = r.U64();
    if (!r.ok()) return fail("CALLCHAIN");
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
    for (uint64_t i = 0; i < nr; ++i) s->callchain[i] = r.U64();
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
    if (!r.ok() || !r.Has(size)) return fail("RAW");
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
    if (!r.ok() || nr > r.remaining() / 24) return fail("BRANCH_STACK");
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
    if (!r.ok()) return fail("REGS_USER");
  }
  if (st & kSampleStackUser) {
    uint64_t at = r.abs_pos();
    uint64_t size = r.U64();
    if (!r.ok() || size > r.remaining()) return fail("STACK_USER");
    s->stack_user_offset = r.abs_pos();
    r.Skip(static_cast<size_t>(size));
    uint64_t dyn = 0;
    if (size) dyn = r.U64();
    if (!r.ok()) return fail("STACK_USER");
    s->stack_user_size = size;
    s->stack_user_dyn_size = dyn;
    if (fields) fields->Add("stack_user", at, r.abs_pos() - at,
                            std::to_string(size) + " bytes" + (size ? ", dyn_size " + std::to_string(dyn) : ""));
  }
  if (st & (kSampleWeight | kSampleWeightStruct)) { s->weight = w.U64("weight"); if (!r.ok()) return fail("WEIGHT"); }
  if (st & kSampleDataSrc) { s->data_src = w.U64("data_src", true); if (!r.ok()) return fail("DATA_SRC"); }
  if (st & kSampleTransaction) { s->transaction = w.U64("transaction", true); if (!r.ok()) return fail("TRANSACTION"); }
  if (st & kSampleRegsIntr) { Regs(w, "regs_intr", attr.sample_regs_intr); if (!r.ok()) return fail("REGS_INTR"); }
  if (st & kSamplePhysAddr) { s->phys_addr = w.U64("phys_addr", true); if (!r.ok()) return fail("PHYS_ADDR"); }
  if (st & kSampleCgroup) { s->cgroup = w.U64("cgroup"); if (!r.ok()) return fail("CGROUP"); }
  if (st & kSampleDataPageSize) { s->data_page_size = w.U64("data_page_size"); if (!r.ok()) return fail("DATA_PAGE_SIZE"); }
  if (st & kSampleCodePageSize) { s->code_page_size = w.U64("code_page_size"); if (!r.ok()) return fail("CODE_PAGE_SIZE"); }
  if (st & kSampleAux) {
    uint64_t at = r.abs_pos();
    uint64_t size = r.U64();
    if (!r.ok() || size > r.remaining()) return fail("AUX");
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
  ByteReader r = payload.Slice(payload.size() - size, size);
  Walker w{r, fields};
  if (st & kSampleTid) { s->pid = w.U32("sample_id.pid"); s->tid = w.U32("sample_id.tid"); }
  if (st & kSampleTime) s->time = w.U64("sample_id.time");
  if (st & kSampleId) s->id = w.U64("sample_id.id");
  if (st & kSampleStreamId) s->stream_id = w.U64("sample_id.stream_id");
  if (st & kSampleCpu) { s->cpu = w.U32("sample_id.cpu"); w.U32("sample_id.reserved"); }
  if (st & kSampleIdentifier) s->id = w.U64("sample_id.identifier");
  s->sample_type = st;
  return r.ok();
}

}  // namespace profscope::perf
