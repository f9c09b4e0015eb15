// simpleperf's feature sections (ids 128..134) and the symbol tables they,
// and simpleperf's DSO / SYMBOL records, carry. Layouts: AOSP simpleperf
// record_file_format.h (FILE, META_INFO, DEBUG_UNWIND_FILE, FILE2, INIT_MAP),
// record_file.proto (FileFeature, DebugUnwindFeature) and
// etm_branch_list.proto / branch_list.proto (ETM_BRANCH_LIST). Protobuf
// messages are read with protozero after a bounds check of their wire format
// (protozero throws on malformed input; profscope must not).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/io/byte_reader.h"
#include "core/io/keyed_hash.h"
#include "core/model/fields.h"

namespace profscope::perf {

struct SimpleperfSymbol {
  uint64_t vaddr = 0;
  uint64_t len = 0;
  std::string name;
};

// One file_struct of FILE, one FileFeature of FILE2, or a DSO record.
struct SimpleperfFile {
  std::string path;
  uint32_t type = 0;        // SimpleperfDsoType
  uint64_t min_vaddr = 0;
  std::vector<SimpleperfSymbol> symbols;  // sorted by vaddr once used for lookups
  std::vector<uint64_t> dex_file_offsets;
  bool has_file_offset_of_min_vaddr = false;
  uint64_t file_offset_of_min_vaddr = 0;
  bool has_memory_offset_of_min_vaddr = false;
  uint64_t memory_offset_of_min_vaddr = 0;
  uint32_t origin = 0;      // feature id (128 / 132) or record type (32770) it came from
};

struct SimpleperfInfo {
  std::vector<SimpleperfFile> files;
  std::vector<std::pair<std::string, std::string>> meta_info;   // META_INFO, in file order
  struct UnwindFile { std::string path; uint64_t size = 0; };
  std::vector<UnwindFile> debug_unwind_files;                    // DEBUG_UNWIND's list
  std::string kallsyms;                                           // KERNEL_SYMBOL record text
  std::unordered_map<uint64_t, size_t, KeyedIntHash> dso_ids;                  // DSO record id -> files index
  // SIMPLEPERF_CALLCHAIN records of JOINED_* type, by (tid, time), waiting for their sample.
  std::map<std::pair<uint32_t, uint64_t>, std::vector<uint64_t>> joined_callchains;
  bool present = false;  // the file has simpleperf features or records

  // Lookup state (built on first use, reset when files change).
  std::unordered_map<std::string, size_t, KeyedStringHash> by_path;
  bool indexed = false;
  std::vector<std::pair<uint64_t, std::string>> kernel_syms;      // parsed kallsyms, sorted

  const std::string* Meta(const std::string& key) const;
};

// Decodes feature `id` (128..255) into `top` (children with absolute offsets)
// and `info`. Returns false for ids it does not know (the caller then shows
// an opaque blob). Damage gives DiagCode::kBadFeature and whatever decoded.
bool DecodeSimpleperfFeature(uint32_t id, ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags);

// simpleperf writes the AUXTRACE feature (id 18) as bare (file_offset, size)
// u64 pairs, where perf writes a count first. True (and `top` filled) when
// the section is simpleperf's: a multiple of 16 bytes whose first u64, read
// as perf's count, would not fit and is a plausible file offset (>= 104).
bool SimpleperfAuxtraceIndex(ByteReader r, Field& top, std::vector<std::pair<uint64_t, uint64_t>>* out);

// Records that feed the symbol tables: SIMPLEPERF_DSO, SIMPLEPERF_SYMBOL,
// SIMPLEPERF_KERNEL_SYMBOL, and SIMPLEPERF_CALLCHAIN (joined callchains).
// `rec` covers one whole record.
void ProcessSimpleperfRecord(ByteReader rec, SimpleperfInfo& info);

// Names `addr` of a sample falling in a mapping of `path` (start, pgoff) the
// way simpleperf report does: the address becomes a vaddr in the file
// (IpToVaddrInFile for the file's DsoType) and is looked up in the file's
// symbol table. Returns false when the file carries no symbol for it;
// *vaddr is set whenever the file is known (for "dso[+vaddr]" names).
bool SimpleperfSymbolize(SimpleperfInfo& info, const std::string& path, uint64_t map_start, uint64_t map_pgoff,
                         uint64_t addr, bool kernel, std::string* name, uint64_t* vaddr, bool* known_file);

// One frame of a sample's callchain (leaf first) with the mapping it falls in
// (path == nullptr when none).
struct SimpleperfFrame {
  const std::string* path = nullptr;
  uint64_t map_start = 0, map_pgoff = 0, addr = 0;
  bool kernel = false;
};
// Which frames simpleperf's report (CallChainReportBuilder, the default of
// report_lib and so of stackcollapse.py) shows: ART runtime frames (libart.so,
// art_jni_trampoline) next to Java frames are hidden, except the JNI method a
// trampoline calls; a JIT frame whose method is also interpreted from a dex
// file right above it (its caller) is dropped. Returns one flag per frame.
std::vector<uint8_t> SimpleperfReportFrames(SimpleperfInfo& info, const std::vector<SimpleperfFrame>& frames);

// The event name META_INFO's event_type_info gives the attr at `index`
// ("cpu-cycles,0,0" lines: name,type,config), "" when it does not.
std::string SimpleperfEventName(const SimpleperfInfo& info, size_t index, uint32_t type, uint64_t config);

// The display name simpleperf report gives a dso ("[JIT app cache]" for the
// JIT symfiles simpleperf keeps under "..._jit_app_cache:..." names).
std::string SimpleperfDsoDisplayName(const std::string& path);

}  // namespace profscope::perf
