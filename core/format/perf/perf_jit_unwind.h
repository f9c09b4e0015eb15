// JIT code's unwind tables for `--call-graph dwarf` samples: a jit dump's
// JIT_CODE_UNWINDING_INFO records carry an .eh_frame and .eh_frame_hdr for
// the CODE_LOAD that follows them (V8 --perf-prof-unwinding-info, .NET).
// perf unwinds through JIT frames only after `perf inject --jit`, which
// writes each load as a jitted-PID-N.so holding those tables (genelf.c) and
// maps it at the code's address from the load's time on. profscope unwinds
// the same way from the dump itself, for either file:
// - the perf.data as recorded, with the dump: an address of a process the
//   dump belongs to that no file mapping covers is looked up among the code
//   placed at the sample's time (the newest load or move covering it);
// - perf inject --jit's output: a jitted-PID-N.so mapping is code N of the
//   dump of process PID (the .so files themselves are deleted by then).
// The tables are read from the dump's bytes when first needed; one module per
// unwinding record, in the .so's layout (perf_jit.h JitEhFrameAddress).
//
// The dump's times must be perf's: CLOCK_MONOTONIC dumps need samples
// recorded with clockid CLOCK_MONOTONIC (perf record -k 1), ARCH_TIMESTAMP
// dumps the recording's TIME_CONV (the caller passes the session's). Dumps
// that fail this are not used here; UseJitDumps (perf_jit.h) says why.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/jitdump/jitdump_format.h"
#include "core/format/perf/perf_jit.h"
#include "core/unwind/unwind_module.h"

namespace profscope::perf {

class JitUnwind {
 public:
  // Side files of kind "jitdump" (read now: headers, code loads, unwinding
  // records; their windows must outlive this object).
  void Add(const std::vector<SideFile>& files);
  bool empty() const { return dumps_.empty(); }
  // The TIME_CONV of the recording, for ARCH_TIMESTAMP dumps (may be set later).
  void SetTimeConv(const TimeConv* tc) { time_conv_ = tc; }

  // Process `pid` mapped `path`: a mapping of jit-N.dump ties this dump to it
  // (perf inject --jit keys on that MMAP), besides the dump's header pid.
  void Mapped(int32_t pid, const std::string& path);
  // True when some dump with unwinding records belongs to `pid`.
  bool Unwinds(int32_t pid) const;

  struct Hit {
    unwind::UnwindModule* module = nullptr;  // null: the code has no unwinding info
    uint64_t bias = 0;
    std::string dump;                        // the dump's file name
  };
  // JIT code of process `pid` placed over `address` at `time` (perf's clock;
  // `monotonic`: the sample's event uses CLOCK_MONOTONIC). False: no JIT code there.
  bool Find(int32_t pid, uint64_t address, uint64_t time, bool monotonic, Hit* out);
  // A jitted-PID-N.so mapping of perf inject --jit at `map_start` / `pgoff`:
  // code N of PID's dump. False when the path is not such a file or no dump
  // of PID was given.
  bool FindInjected(const std::string& path, uint64_t map_start, uint64_t pgoff, Hit* out);
  // "jitted-12629-7.so" -> pid 12629 (and code index 7 when asked; also
  // InjectedGroup's "jitted-12629-*.so"); -1 when the name is not of that form.
  static int64_t InjectedPid(const std::string& path, uint64_t* code_index);
  // "/dir/jitted-12629-7.so" -> "/dir/jitted-12629-*.so" (all code of that
  // dump, for what-is-missing reports); "" for other paths.
  static std::string InjectedGroup(const std::string& path);

 private:
  struct Dump {
    std::string name, base;
    Window* window = nullptr;
    jitdump::Dump dump;
    bool arch_timestamp = false;
    bool built = false, usable = false;  // Ready(): times in perf's clock, index built
    bool indexed = false;                 // index built (maybe with unconverted times)
    JitIndex index;
    std::vector<int32_t> pids;
    std::map<int32_t, std::unique_ptr<unwind::UnwindModule>> modules;  // by unwinding record
  };
  bool Ready(Dump& d);
  unwind::UnwindModule* Module(Dump& d, const JitFunc& f);
  Dump* ForPid(int32_t pid, bool monotonic_or_any);

  std::vector<std::unique_ptr<Dump>> dumps_;
  const TimeConv* time_conv_ = nullptr;
};

}  // namespace profscope::perf
