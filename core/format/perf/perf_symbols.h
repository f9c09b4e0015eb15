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
#include "core/symbols/symbol_store.h"

namespace profscope::perf {

// The DSO (in `store`) of every mapping row of `p`; the kernel and module
// maps are given to the store as perf's machine does.
// `dso_paths` (optional): a mapping row's DSO path where perf's is not the
// mapping's own (kNone, or past its end: the mapping's path).
std::vector<int32_t> BindMappings(const Profile& p, symbols::SymbolStore& store,
                                  const std::vector<int32_t>* dso_paths = nullptr);
// perf's map__map_ip: the address `a` of mapping row `mk` as the store looks it up in `dso`.
uint64_t MapIp(symbols::SymbolStore& store, int32_t dso, const MappingTable& m, size_t mk, uint64_t a);

// The side files that feed the symbol store: ELF files, tarballs, kallsyms,
// and every file of a folder but jit dumps and XRay maps.
bool IsSymbolInput(const SideFile& f);
// Gives those to `store` (read lazily: headers now, bytes when a DSO matches),
// before the decode, so the DWARF unwinder finds its binaries where the names
// come from (a perf archive, a build-id cache folder...). True when any.
bool AddSymbolInputs(const std::vector<SideFile>& files, symbols::SymbolStore& store);

// Renames the funcs of frames whose mapping's DSO has symbols to perf's
// name for them (frames outside any symbol keep their `path+0xoffset`
// name), from `store`, which AddSymbolInputs filled (kept by the caller: perf
// script resolves through it later). The symbol inputs are marked used
// (`used[i]`) and `dso` is set to BindMappings' answer.
void NameFramesFromElf(const std::vector<SideFile>& files, std::vector<bool>& used, StackBuilder& sb, DecodeResult& out,
                       symbols::SymbolStore& store, std::vector<int32_t>& dso,
                       const std::vector<int32_t>* dso_paths = nullptr);

}  // namespace profscope::perf
