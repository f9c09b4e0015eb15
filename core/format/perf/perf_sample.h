// PERF_RECORD_SAMPLE payload and the sample_id trailer of other records,
// decoded bit by bit from the attr's sample_type (kernel order: see
// perf_output_sample() in kernel/events/core.c and evsel__parse_sample() in
// tools/perf/util/evsel.c).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/format/perf/perf_attr.h"
#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope::perf {

struct SampleData {
  uint64_t sample_type = 0;  // which of the members below are valid
  uint64_t id = 0, ip = 0, time = 0, addr = 0, stream_id = 0, period = 0;
  uint32_t pid = 0, tid = 0, cpu = 0;
  uint64_t weight = 0, data_src = 0, transaction = 0, phys_addr = 0, cgroup = 0;
  uint64_t data_page_size = 0, code_page_size = 0;
  uint32_t raw_size = 0;
  uint64_t raw_offset = 0;       // absolute
  uint64_t branch_nr = 0;
  // LBR call stack (branch_sample_type CALL_STACK, perf record --call-graph lbr): the
  // entries' from addresses (call sites, innermost first) and the first entry's to.
  std::vector<uint64_t> lbr_from;
  uint64_t lbr_to0 = 0;
  // perf record --call-graph dwarf: REGS_USER's ABI (0 none, 1 32-bit, 2 64-bit) and one value per
  // set bit of the attr's sample_regs_user, lowest bit first; STACK_USER's copy of the user stack
  // (bytes at stack_user_offset, of which dyn_size hold stack; an unwinder reads them from the record).
  uint64_t regs_user_abi = 0;
  std::vector<uint64_t> regs_user;
  uint64_t stack_user_size = 0;
  // attr.sample_regs_user and the absolute offset of REGS_USER's abi word.
  uint64_t regs_user_mask = 0;
  uint64_t regs_user_offset = 0;
  // PERF_SAMPLE_STACK_USER: absolute offset of the copied bytes (stack_user_size
  // of them) and how many the kernel filled from sp up (dyn_size).
  uint64_t stack_user_offset = 0;
  uint64_t stack_user_dyn_size = 0;
  // PERF_SAMPLE_READ: each counter's (value, id) -- the group's members with
  // PERF_FORMAT_GROUP, else one; id 0 when the read_format has no PERF_FORMAT_ID.
  std::vector<std::pair<uint64_t, uint64_t>> read_values;
  std::vector<uint64_t> callchain;  // as stored, including context markers
  uint64_t callchain_offset = 0;    // absolute offset of callchain[0]
};

// Reads the id of a record without decoding it, to find its attr:
// SAMPLE with IDENTIFIER: first u64 of the payload; other records with
// sample_id_all + IDENTIFIER: last u64. Returns false when not determinable.

// Parses a SAMPLE payload (the reader covers the record after its 8-byte
// header). With `fields` set, appends one Field per sample member.
// Returns false (with a diagnostic) when the payload does not hold what
// sample_type says; members read before the problem stay valid.
bool ParseSample(ByteReader r, const PerfEventAttr& attr, SampleData* out, FieldList* fields,
                 Diagnostics* diags);

// Parses the sample_id trailer at the end of a non-SAMPLE record's payload
// (reader covers the whole payload). Fills pid/tid/time/id/stream_id/cpu.
bool ParseSampleId(ByteReader payload, const PerfEventAttr& attr, SampleData* out,
                   FieldList* fields);

// Where the sample id sits, for attr lookup before the attr is known
// (all attrs of a file share the id position; perf_evlist__id_pos()).
struct IdPos {
  int sample_pos = -1;  // u64 index from payload start in SAMPLE, -1 = none
  int trailer_pos = -1; // u64 index from payload end in other records (1 = last), -1 = none
};
IdPos ComputeIdPos(uint64_t sample_type);

}  // namespace profscope::perf
