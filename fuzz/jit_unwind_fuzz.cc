// libFuzzer target for the JIT unwind tables of a jit dump (core/format/perf/
// perf_jit_unwind): one input = one jit-PID.dump given beside a perf.data.
// Its JIT_CODE_UNWINDING_INFO records become unwind modules, looked up by
// address and time (the recorded perf.data) and by perf inject --jit's
// jitted-PID-N.so names, and every module's FDE search runs over its code.
// Seeded with tests/data/jitdump (fuzz/run.sh); built with ASan + UBSan.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/format/jitdump/jitdump_format.h"
#include "core/format/perf/perf_jit_unwind.h"
#include "core/io/byte_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  profscope::MemorySource src(data, size);
  profscope::Window win(src);
  profscope::jitdump::Dump d;
  if (!profscope::jitdump::ReadDump(win, &d, nullptr, nullptr) || !d.header_ok) return 0;
  profscope::perf::JitUnwind jit;
  jit.Add({profscope::SideFile{"jit-" + std::to_string(d.header.pid) + ".dump", "jitdump", &win}});
  const auto pid = static_cast<int32_t>(d.header.pid);
  jit.Mapped(static_cast<int32_t>(d.header.pid + 1u), "/tmp/jit-" + std::to_string(d.header.pid) + ".dump");
  size_t n = 0;
  for (const auto& l : d.loads) {
    if (++n > 64) break;
    for (uint64_t pc : {l.code_addr, l.code_addr + l.code_size / 2, l.code_addr + l.code_size}) {
      profscope::perf::JitUnwind::Hit h;
      for (bool mono : {true, false}) {
        if (jit.Find(pid, pc, l.time, mono, &h) && h.module) {
          profscope::unwind::UnwindModule::FdeHit fde;
          profscope::unwind::CfiError e{};
          uint64_t at = 0;
          h.module->FindFde(pc - h.bias, false, &fde, &e, &at);
          h.module->FindFde(pc - h.bias, true, &fde, &e, &at);
        }
      }
      const std::string so = "jitted-" + std::to_string(d.header.pid) + "-" + std::to_string(l.code_index) + ".so";
      if (jit.FindInjected(so, l.code_addr, profscope::perf::kJitTextOffset, &h) && h.module) {
        profscope::unwind::UnwindModule::FdeHit fde;
        profscope::unwind::CfiError e{};
        uint64_t at = 0;
        h.module->FindFde(pc - h.bias, false, &fde, &e, &at);
      }
    }
  }
  return 0;
}
