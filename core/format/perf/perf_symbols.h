// Names perf.data frames from the side files a person gives: ELF binaries
// and separate debug files, perf archive tarballs (any compression), build-id
// cache entries, kallsyms text, a vmlinux, kernel modules. Everything goes
// through the symbol store (core/symbols/symbol_store.h), which matches each
// mapping's DSO by build-id (MMAP2 or the BUILD_ID feature) else by path or
// file name, and names by perf 6.1's rules; a side file that matches nothing
// or has another build-id is reported, never used.
//
// The frames keep the mapping the decoder resolved (in perf's time order:
// perf_ordered_events.h).
#pragma once

#include <vector>

#include "core/format/decoder.h"
#include "core/model/profile.h"

namespace profscope::perf {

struct FeatureContext;

// Renames the funcs of frames whose mapping's DSO has symbols to perf's
// name for them (frames outside any symbol keep their `path+0xoffset`
// name). Side files of kind "elf", "archive" and "kallsyms" are consumed
// (`used[i]` set); the others are left alone.
void NameFramesFromElf(std::vector<SideFile>& files, std::vector<bool>& used, StackBuilder& sb, DecodeResult& out);

}  // namespace profscope::perf
