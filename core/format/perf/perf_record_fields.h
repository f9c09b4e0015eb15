// Field-by-field decoding of one perf.data record, for the record tree and the
// hex view (each Field carries the absolute offset and size of its bytes).
// Covers every kernel record type (PERF_RECORD_MMAP .. AUX_OUTPUT_HW_ID, with
// the sample_id_all trailer) and every record perf itself writes
// (HEADER_ATTR .. COMPRESSED2). Layouts: the kernel's
// include/uapi/linux/perf_event.h and perf's tools/lib/perf/include/perf/event.h.
#pragma once

#include <string>

#include "core/diag/diagnostics.h"
#include "core/format/perf/perf_attr.h"
#include "core/io/byte_reader.h"
#include "core/model/fields.h"

namespace profscope::perf {

// `rec` covers exactly one whole record (8-byte header + payload, as declared
// by header.size; base() = its absolute offset). `attr` is the attr the record
// belongs to (nullptr if unknown); used for SAMPLE (ParseSample), READ
// (read_format) and for the sample_id_all trailer of the other kernel records
// (types 1..21 except SAMPLE; only when attr->sample_id_all()).
//
// Appends: a "header" field (children type/misc/size; misc names the cpumode
// and the type-specific bits), then one field per payload member (arrays as a
// parent field with one child per element), then the "sample_id.*" fields of
// the trailer. Strings are shown with QuoteString and their field covers the
// whole (padded) area. Bytes no member describes are shown as "padding" (all
// zero) or "unparsed". Unknown types: one "payload" blob field.
//
// Never reads outside `rec` (nor past header.size). A member that does not fit
// gives one DiagCode::kRecordFieldOverrun (when diags != nullptr) and a field
// covering the bytes that are there, named after the member, value
// "truncated: ..."; decoding of the record stops there (the trailer is still
// decoded when present). Strings without a NUL in their area give kBadString.
//
// `features` (optional) is what the file's other feature records/sections
// said; HEADER_FEATURE payloads that depend on another feature (CPU_TOPOLOGY
// needs NRCPUS, ...) are decoded with it. Without it they are decoded
// standalone (DecodeFeature may then warn that it had to guess).
struct FeatureContext;
void DecodeRecordFields(ByteReader rec, const PerfEventAttr* attr, FieldList& out,
                        Diagnostics* diags, const FeatureContext* features = nullptr);

// A one-line summary: what `perf report -D` prints after PERF_RECORD_<NAME> on
// the record's line, without the leading separator and with runs of blanks
// collapsed, e.g.
//   MMAP2  "21809/21809: [0x55743e196000(0x1000) @ 0x1000 fe:00 1384455 3549031507]: r-xp /path"
//   COMM   "perf-exec:21809/21809" or, with the exec misc bit, "exec: calltree:21809/21809"
//   EXIT   "(21809:21809):(21808:21808)"
//   SAMPLE "21809/21809: 0x55743e196164 period: 1000000" (+ " addr: 0x..." when
//          sample_type has ADDR)
// For records perf prints on several lines (ID_INDEX entries, TIME_CONV,
// EVENT_UPDATE, STAT...) or not at all, a compact equivalent of the same
// values. Empty for records without content (FINISHED_ROUND, FINISHED_INIT).
std::string RecordSummary(ByteReader rec, const PerfEventAttr* attr);

}  // namespace profscope::perf
