// One frame and one sample as `perf script` prints them: PerfDecoder::ScriptSamples
// resolves them, core/api/script_writer.h formats them (as script::Frame/Sample).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace profscope::perf {

struct ScriptFrameInfo {
  uint64_t ip = 0;           // as recorded
  bool has_map = false;      // the address fell in a map
  bool kernel_dso = false;   // that map's DSO is the kernel or a module (ip printed absolute)
  uint64_t map_addr = 0;     // map-relative address (map->map_ip(ip)), printed for user maps
  bool has_sym = false;
  std::string sym;           // symbol name
  uint64_t sym_offset = 0;   // map_addr - symbol start
  std::string dso;           // DSO name; ignored when !has_map ("[unknown]")
  bool inlined = false;      // an inlined function's frame (perf_inlines.h), perf's sym->inlined:
                             // printed without "(dso)", then " (inlined)"
};
struct ScriptSampleInfo {
  std::string comm;
  int32_t pid = 0, tid = 0;
  uint32_t cpu = 0;
  uint64_t time = 0, period = 0;
  std::string event;
  uint32_t attr_type = 0;                // PERF_TYPE_* and sample_type: which fields perf prints
  uint64_t sample_type = 0;
  bool callchain = false;                // frames are a resolved callchain (else frames[0] is the sample ip)
  std::vector<ScriptFrameInfo> frames;   // leaf first
  std::string trace;                     // the tracepoint's text (libtraceevent's TEP_PRINT_INFO)
};

}  // namespace profscope::perf
