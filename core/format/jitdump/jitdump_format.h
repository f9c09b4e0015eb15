// jitdump (jit-PID.dump): the file a JIT runtime (V8 --perf-prof, Julia/LLVM,
// .NET, the JVM agents) writes so `perf inject --jit` can name JIT code.
// Layout source of truth: tools/perf/Documentation/jitdump-specification.txt
// (shared/specs/jitdump-specification.txt) and perf's tools/perf/util/jitdump.{h,c}
// (the reader) plus genelf.c (UNWINDING_INFO: the eh_frame bytes come first,
// the eh_frame_hdr is the last eh_frame_hdr_size bytes of the unwinding data).
//
// File: header (40 bytes, u32 magic 'JiTD' = 0x4A695444 in the producer's byte
// order), then records: u32 id, u32 total_size (header included), u64 timestamp,
// payload. Records are not aligned (V8's CODE_LOAD sizes are arbitrary).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/diag/diagnostics.h"
#include "core/io/byte_reader.h"
#include "core/io/byte_source.h"
#include "core/model/profile.h"
#include "core/model/memory_budget.h"
#include "core/model/record_table.h"

namespace profscope {
class PauseCheck;  // core/format/decoder.h
}

namespace profscope::jitdump {

inline constexpr uint32_t kMagic = 0x4A695444;         // 'JiTD' read in the producer's order
inline constexpr uint32_t kMagicSwapped = 0x4454694A;  // ... read in the other order
inline constexpr uint32_t kHeaderMinSize = 40;
inline constexpr uint32_t kRecordHeaderSize = 16;
inline constexpr uint64_t kFlagArchTimestamp = 1;      // JITDUMP_FLAGS_ARCH_TIMESTAMP

enum RecordId : uint32_t {
  kCodeLoad = 0,
  kCodeMove = 1,
  kCodeDebugInfo = 2,
  kCodeClose = 3,
  kCodeUnwindingInfo = 4,
};
inline constexpr uint32_t kKnownRecordIds = 5;

// "CODE_LOAD", ... ; "UNKNOWN" for other ids.
const char* RecordName(uint32_t id);
// CODE_LOAD and CODE_MOVE place code (task/mmap); the others are the runtime's own records.
RecordCategory RecordCategoryOf(uint32_t id);

// True when the first bytes carry the jitdump magic in either byte order.
bool Sniff(const uint8_t* head, size_t n);

struct Header {
  uint32_t magic = 0, version = 0, total_size = 0, elf_mach = 0, pad1 = 0, pid = 0;
  uint64_t timestamp = 0, flags = 0;
  ByteOrder order = ByteOrder::kLittle;
};

struct DebugEntry {
  uint64_t addr = 0;
  uint32_t line = 0, discrim = 0;
  std::string file;
};

struct CodeLoad {
  uint64_t time = 0;
  uint32_t pid = 0, tid = 0;
  uint64_t vma = 0, code_addr = 0, code_size = 0, code_index = 0;
  std::string name;
  int32_t row = -1;       // record-table row (when rows were made)
  uint64_t offset = 0;    // file offset of the record
};

struct CodeMove {
  uint64_t time = 0;
  uint32_t pid = 0, tid = 0;
  uint64_t vma = 0, old_code_addr = 0, new_code_addr = 0, code_size = 0, code_index = 0;
  int32_t row = -1;
  uint64_t offset = 0;
};

struct DebugInfo {
  uint64_t time = 0;
  uint64_t code_addr = 0;
  std::vector<DebugEntry> entries;
  int32_t row = -1;
  uint64_t offset = 0;
};

// A JIT_CODE_UNWINDING_INFO record: where its .eh_frame and .eh_frame_hdr
// bytes are in the file. perf hands it to the next CODE_LOAD (jitdump.c).
struct UnwindingInfo {
  uint64_t time = 0;
  uint64_t offset = 0;           // file offset of the record
  uint64_t eh_frame_offset = 0;  // file offset of the .eh_frame bytes
  uint64_t eh_frame_size = 0;
  uint64_t hdr_size = 0;         // the .eh_frame_hdr follows the .eh_frame
  uint64_t mapped_size = 0;
};

// Everything a full walk of one dump yields.
struct Dump {
  Header header;
  bool header_ok = false;      // magic found and the 40-byte header read
  std::vector<CodeLoad> loads;
  std::vector<CodeMove> moves;
  std::vector<DebugInfo> debug;
  std::vector<UnwindingInfo> unwinding;
  uint64_t counts[kKnownRecordIds] = {};
  uint64_t unknown = 0;        // records with ids >= kKnownRecordIds
  uint64_t records = 0;        // all records walked
  uint64_t end_offset = 0;     // where the walk stopped
  uint64_t file_size = 0;
  bool garbled_header = false; // implausible header values (see ReadDump)
  // Where a walk in steps is (ReadDump with a PauseCheck): the next record, what is kept so far (for the
  // budget), paused before that record.
  struct Walk {
    uint64_t off = 0, kept = 0;
    bool paused = false;
  } walk;
};

// Timeline marker labels (Profile::markers) of code loads and moves:
// "name (123 bytes)" and "name 7f00..-> 7f80.." (name of the code's load, may be empty).
std::string LoadMarkerLabel(const CodeLoad& l);
// The code loads and moves of a dump in file order (their timestamps are the
// runtime's clock); a move comes with the name of the latest load of its code
// index ("" when none).
void ForEachCode(const Dump& d, const std::function<void(const CodeLoad* load, const CodeMove* move,
                                                         const std::string& move_name)>& fn);
std::string MoveMarkerLabel(const std::string& name, const CodeMove& m);

// One "code load" / "code move" marker per record of `d`, in file order (a move named by the
// latest load of its code_index), on the thread row `thread(pid, tid, time)` gives. With
// `own_rows` the markers point at the records' rows (the dump is the file shown), else at none
// (the dump is a side file of a perf.data).
void AddCodeMarkers(const Dump& d, Profile& p, const std::function<int32_t(uint32_t pid, uint32_t tid, uint64_t time)>& thread,
                    bool own_rows);

// Walks the whole dump. Adds one row per piece to `rows` when non-null
// (header: kFileHeader; record: kRecord with type = id; bytes that form no
// record: kUnparsed), reports damage to `diags`. Returns false only when the
// file is not a jitdump at all (no magic / shorter than its header).
// `budget` (optional): the decode's memory budget; what the dump and `rows`
// keep is counted with fixed bytes per record (the same natively and in WASM),
// and reaching it stops the walk there (one error diagnostic in `diags`).
// `pause` (optional): asked before each record (the page's worker decodes in steps); when it says so the
// walk returns with out->walk.paused, and ContinueDump goes on from there.
bool ReadDump(Window& w, Dump* out, RecordTable* rows, Diagnostics* diags, MemoryBudget* budget = nullptr,
              PauseCheck* pause = nullptr);
void ContinueDump(Window& w, Dump* out, RecordTable* rows, Diagnostics* diags, MemoryBudget* budget, PauseCheck* pause);

}  // namespace profscope::jitdump
