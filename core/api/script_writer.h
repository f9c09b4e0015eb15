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

struct Frame {
  uint64_t ip = 0;           // as recorded
  bool has_map = false;      // the address fell in a map
  bool kernel_dso = false;   // that map's DSO is the kernel or a module (ip printed absolute)
  uint64_t map_addr = 0;     // map-relative address (map->map_ip(ip)), printed for user maps
  bool has_sym = false;
  std::string_view sym;      // symbol name
  uint64_t sym_offset = 0;   // map_addr - symbol start
  std::string_view dso;      // DSO name; ignored when !has_map ("[unknown]")
  bool inlined = false;      // perf's sym->inlined: no "(dso)", then " (inlined)"
};

struct Sample {
  std::string_view comm;
  int32_t pid = 0, tid = 0;
  uint32_t cpu = 0;
  uint64_t time = 0;
  uint64_t period = 0;
  std::string_view event;
  bool callchain = false;    // frames are a resolved callchain (else frames[0] is the sample ip)
  std::vector<Frame> frames;
  std::string_view trace;    // the tracepoint's text (libtraceevent's TEP_PRINT_INFO)
};

// Appends one sample. `name_width`: perf's evlist__max_name_len (the longest
// event name of the file). `comm_padded`: false when perf prints the comm
// unpadded (the ip is printed and the event has a callchain).
void AppendSample(const Fields& f, const Sample& s, int name_width, std::string& out);

// "1234.567890" as perf's timestamp__scnprintf_usec prints a ns time.
std::string Usec(uint64_t ns);

}  // namespace profscope::script
