// Field-by-field decoding of simpleperf's own record types (32769 and up):
// KERNEL_SYMBOL, DSO, SYMBOL, SPLIT, SPLIT_END, EVENT_ID, CALLCHAIN,
// UNWINDING_RESULT, TRACING_DATA, DEBUG. Layouts: AOSP simpleperf record.cpp
// (the constructors that read each record from its binary form).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope::perf {

// `rec` covers one whole record (its 8-byte header + payload; base() = its
// absolute offset). Appends a "header" field (type, size_hi, size_lo), then
// one field per member, each with its absolute offset and size; bytes left
// over are shown as "padding" (zeros) or "unparsed". A member that does not
// fit gives DiagCode::kRecordFieldOverrun (when diags != nullptr) and a field
// "truncated: ..."; decoding stops there. `summary` (optional) receives a
// one-line description like RecordSummary's.
void SimpleperfRecordFields(ByteReader rec, std::vector<Field>& out, Diagnostics* diags,
                            std::string* summary);

// A SIMPLEPERF_CALLCHAIN record's values (false when it does not hold them).
struct SimpleperfCallchain {
  uint32_t pid = 0, tid = 0;
  uint64_t chain_type = 0, time = 0;
  std::vector<uint64_t> ips, sps;
  bool nr_read = false, ips_read = false;  // how far it got
};
bool ParseSimpleperfCallchain(ByteReader rec, SimpleperfCallchain* out);

}  // namespace profscope::perf
