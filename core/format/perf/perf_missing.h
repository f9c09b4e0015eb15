// What is missing to name every frame of a perf.data recording, and what a
// person should drop for it (issue 13's "what is missing" panel, issue 12's
// missing binaries and too small stack copies): DecodeResult::missing.
//
// A frame is unnamed when it lies in a mapping of a file (not //anon, [heap],
// ...) and kept its `path+0xoffset` name (no side file gave a symbol there).
// The advice follows what names such a mapping: a perf archive tarball when
// none was given (it holds every DSO with samples and the kernel's kallsyms),
// else the binary itself (perf archive leaves out DSOs seen only in
// callchains), else — the binary was given but has no .symtab — its separate
// debug file, named by its build-id (/usr/lib/debug/.build-id/xx/rest.debug)
// or its .gnu_debuglink.
#pragma once

#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_unwind.h"
#include "core/symbols/debug_file_search.h"

namespace profscope::perf {

// An ELF side file as the report needs it.
struct GivenElf {
  std::string name;  // as given (a path or a dropped file's name)
  symbols::DebugInfoRefs refs;
};

struct MissingInputs {
  std::vector<GivenElf> elves;
  bool archive_given = false;   // a perf archive tarball among the side files
  bool kallsyms_given = false;  // a kallsyms text among the side files
  std::vector<PerfUnwind::MissingBinary> unwind;  // from PerfUnwind
  uint64_t stack_short_samples = 0, stack_copy_bytes = 0, stack_needed_bytes = 0;
  // Mapping row -> perf's DSO path where it is not the mapping's (anonymous
  // executable memory: /tmp/perf-PID.map); kNone or past the end: its path.
  std::vector<int32_t> dso_paths;
};

MissingReport FindMissing(const Profile& p, const MissingInputs& in);

}  // namespace profscope::perf
