// `perf script`'s default output, byte for byte (perf 6.1's builtin-script.c
// process_event / perf_sample__fprintf_start and util/evsel_fprintf.c
// sample__fprintf_callchain / sample__fprintf_sym): per sample
//   "comm tid [cpu] time: period event: " + tracepoint text, then either
//   one line per callchain frame "\t%16x sym+0xoff (dso)" and an empty line,
//   or, without a callchain, " %16x sym+0xoff (dso)" on the same line.
// The caller resolves every frame (map, DSO, symbol: the symbol store does)
// in perf's order (samples sorted by time as perf's ordered-events queue
// delivers them); this file only formats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/format/perf/perf_script_sample.h"

namespace profscope::script {

// Which fields perf prints for an event (the default `output[type]` table
// and the sample_type checks that drop absent fields).
struct Fields {
  bool comm = true, tid = true, pid = false, cpu = false, time = false, period = false;
  bool event = true, trace = false, ip = false, sym = false, symoff = false, dso = false;
};

// perf's defaults for an event of attr.type `type` (PERF_TYPE_*) and
// `sample_type`; `callchain_printed`: a callchain is printed for it
// (sample_type has CALLCHAIN and perf's use_callchain holds).
Fields DefaultFields(uint32_t type, uint64_t sample_type, bool any_event_has_callchain);

// A frame and a sample as PerfDecoder::ScriptSamples resolves them.
using Frame = perf::ScriptFrameInfo;
using Sample = perf::ScriptSampleInfo;

// Appends one sample. `name_width`: perf's evlist__max_name_len (the longest
// event name of the file). `comm_padded`: false when perf prints the comm
// unpadded (the ip is printed and the event has a callchain).
void AppendSample(const Fields& f, const Sample& s, int name_width, std::string& out);

// "1234.567890" as perf's timestamp__scnprintf_usec prints a ns time.
std::string Usec(uint64_t ns);

}  // namespace profscope::script
