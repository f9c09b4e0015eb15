// What each file of a session was to the decoder, for the embedding API's
// answer (docs/EMBEDDING.md): "profile" (the main file and perf --threads
// data.N files), "symbols" (an ELF binary of a perf or gperftools profile, a
// perf archive tarball, kallsyms; kind "folder": one entry per side folder),
// "jitdump", "instr-map" (the XRay
// instrumentation map: the instrumented binary or `llvm-xray extract` YAML),
// "unused" (a kind the decoder cannot use, or one it reported as unused:
// DiagCode::kSideFileUnused naming the file).
#pragma once

#include <string>
#include <vector>

#include "core/diag/diagnostics.h"

namespace profscope {

struct SideFileRole {
  std::string name, kind, role;
};

// `kind` is SniffSideFile's answer, `format` the main file's (DecodeResult::format).
std::string SideFileRoleOf(const std::string& name, const std::string& kind, const std::string& format,
                           const std::vector<Diagnostic>& diags);

// [{"name": "...", "kind": "elf", "role": "symbols"}, ...] in the order the files were added.
std::string SideFileRolesJson(const std::vector<SideFileRole>& roles);

}  // namespace profscope
