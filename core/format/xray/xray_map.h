// The names of an XRay log's function ids, from side files: the
// instrumented program's ELF file (its xray_instr_map section and symbols)
// or `llvm-xray extract` YAML. A side file that does not fit the log (no
// instrumentation map, fewer functions than the log names) is reported and
// not used.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/format/decoder.h"

namespace profscope::xray {

class XRayFunctionMap {
 public:
  // Takes what it can from the side files; `max_id` is the largest function id the log names.
  void UseSideFiles(std::vector<SideFile>& files, int32_t max_id, DecodeResult& out);
  // The function's name, else "@(ADDRESS)" when only its address is known, else "#ID" (llvm-xray's forms).
  std::string Name(int32_t id) const;
  // The function's address when known, else the id itself.
  uint64_t Address(int32_t id) const;

 private:
  void LoadYaml(Window& w, const std::string& name, DecodeResult& out);
  std::map<int32_t, std::string> names_;
  std::map<int32_t, uint64_t> addresses_;
};

}  // namespace profscope::xray
