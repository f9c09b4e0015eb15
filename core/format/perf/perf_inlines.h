// The inlined frames perf 6.1 adds to `--call-graph dwarf` stacks
// (util/machine.c unwind_entry -> append_inlines): each unwound user frame
// whose address has a symbol in its DSO becomes one frame per record
// `addr2line -i -f` gives on the DSO's symbol file (util/srcline.c, cached
// per DSO address), innermost first, all with the frame's address; the
// records are named as perf names them (symbols/inline_resolver.h). A frame
// without any record stays as it is. perf 6.1 adds none to frame-pointer
// (or LBR) callchains, to kernel frames, or to frames without a symbol.
//
// Runs after the frames were named (perf_symbols.h), before anything reads
// the stacks: it rewrites the stack table's affected nodes and the samples'
// stack rows. Records are looked up in perf's order (samples in time order,
// each leaf first) because addr2line's names depend on what it was asked
// before (bfd's is_linkage caching).
#pragma once

#include <cstdint>
#include <vector>

#include "core/format/decoder.h"
#include "core/model/profile.h"
#include "core/symbols/symbol_store.h"

namespace profscope::perf {

struct InlineCounts {
  uint64_t frames = 0;          // distinct unwound frames looked up
  uint64_t expanded = 0;        // ... that became more than one frame or were renamed
  uint64_t inline_frames = 0;   // frames added
  uint64_t samples = 0;         // samples whose stack changed
};

// `unwound`: per frame row, whether it was an unwound user frame
// (PerfStacks::unwound_frames). `dso`: per mapping row its DSO in `store`.
// Problems of the debug information read are added to `out.diags`.
// `inlined` (if given) gets 1 per frame row perf marks as inlined (a record
// whose name is not the frame symbol's: perf script prints "(inlined)").
InlineCounts AddInlineFrames(const std::vector<uint8_t>& unwound, const std::vector<int32_t>& dso,
                             symbols::SymbolStore& store, StackBuilder& sb, DecodeResult& out,
                             std::vector<uint8_t>* inlined = nullptr);

}  // namespace profscope::perf
