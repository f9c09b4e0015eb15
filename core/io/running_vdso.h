// The running kernel's vdso, as this process maps it ("[vdso]" in
// /proc/self/maps): perf reads [vdso] frames with its own copy (util/vdso.c),
// and so do the command line's hosts (cli/main.cc; wasm/load-node.mjs reads
// the same bytes through /proc/self/mem). Empty where there is none (not
// Linux, WebAssembly).
#pragma once

#include <cstdint>
#include <vector>

namespace profscope {

std::vector<uint8_t> RunningVdsoBytes();

}  // namespace profscope
