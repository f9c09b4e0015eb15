// Names perf.data frames from ELF binaries given as side files (the program
// that was recorded, a shared library): each binary is matched to mappings
// of the recording by build id (MMAP2 or the BUILD_ID feature), else by file
// name; a binary that matches nothing is reported, never used.
#pragma once

#include <vector>

#include "core/format/decoder.h"
#include "core/model/profile.h"

namespace profscope::perf {

// Renames the funcs of frames that fall in a matched mapping to the
// demangled name of the function symbol covering them (frames outside any
// symbol keep their `path+0xoffset` name). Side files of other kinds are left
// alone; `used[i]` is set for every files[i] this consumed.
void NameFramesFromElf(std::vector<SideFile>& files, std::vector<bool>& used, StackBuilder& sb, DecodeResult& out);

}  // namespace profscope::perf
