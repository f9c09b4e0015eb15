// Diagnostics: what is wrong with a file, where, and how bad it is.
// A diagnostic never stops decoding except when severity is kFatal
// ("this is not a file we can read at all").
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/io/keyed_hash.h"

namespace profscope {

enum class Severity : uint8_t { kInfo, kWarning, kError, kFatal };

// Stable codes: tests, the UI and users refer to these names. Add, never renumber.
enum class DiagCode : uint16_t {
  kUnknownFormat = 1,      // no decoder recognises the content
  kTruncatedHeader,        // file too short for its header
  kBadHeader,              // header fields inconsistent (sizes, magic)
  kSectionOutOfBounds,     // a {offset,size} points outside the file
  kRecordTooSmall,         // record header declares a size below the minimum
  kRecordTruncated,        // record extends past the end of its section/file
  kRecordFieldOverrun,     // record's fields do not fit its declared size
  kUnknownRecordType,      // record type not known; kept as opaque
  kUnknownSampleId,        // sample id matches no attr
  kBadAttr,                // perf_event_attr inconsistent
  kBadFeature,             // feature section malformed
  kUnknownFeature,         // feature bit not known; kept as opaque blob
  kDecompressFailed,       // compressed payload could not be decompressed
  kNoDecompressor,         // build lacks the decompressor
  kCallchainTooDeep,       // callchain nr exceeds what fits
  kTrailingBytes,          // bytes after the last record that form no record
  kLimitExceeded,          // a count in the file exceeds what we agree to allocate
  kMissingPayload,         // payload promised after a record (AUXTRACE) is missing
  kBadString,              // string not terminated / length past end
  kUnmatchedMapping,       // address falls in no mapping (informational)
  kSideFileUnused,         // a side file (binary, jit dump, map) the decoder has no use for
  kSideFileMismatch,       // a side file that does not belong to this profile (build id, pid, ...)
  kClockMismatch,          // timestamps of two sources cannot be on the same clock
  kStackRepaired,          // call stack repaired: exit without a matching entry, or inner calls never exited (XRay)
  kMemoryBudget,           // the decode reached its memory budget (--max-memory) and stopped there
  kOutOfMemory,            // an allocation failed; the decode stopped there
  kDecodeStopped,          // the decode was stopped on request (the page's Cancel); what was read is kept
  kUnwindMissingBinary,    // --call-graph dwarf: a mapping's binary was not given, so its samples' stacks stop there
  kUnwindStackTooSmall,    // --call-graph dwarf: the stack copies ended before the root (a larger dwarf,SIZE fixes it)
  kUnwindStopped,          // --call-graph dwarf: unwinding stopped early for another reason (no CFI, damaged CFI, ...)
  kDebugFileFound,         // a side file's separate debug file was found where perf looks for it (CLI only)
  kDebugInfoDamaged,       // a side file's DWARF debug information is damaged (inlined frames from it may be missing)
  kFileChanged,            // the file could not be read to the size it had when opened (cut or changed since, an I/O error)
};

const char* DiagCodeName(DiagCode code);
const char* SeverityName(Severity s);

struct Diagnostic {
  DiagCode code;
  Severity severity;
  uint64_t offset;   // absolute file offset of the damage
  uint64_t length;   // bytes concerned (0 if a point)
  std::string message;  // the first occurrence's
  // The same diagnostic repeated (same code, severity and message but for
  // its numbers) is kept once: how often it occurred and the last offset.
  uint64_t count = 1;
  uint64_t last_offset = 0;
};

class Diagnostics {
 public:
  // Caps how many diagnostics are stored for one code (a fully corrupt file
  // would otherwise store millions); further ones are counted only.
  static constexpr size_t kMaxPerCode = 1000;

  void Add(DiagCode code, Severity sev, uint64_t offset, uint64_t length, std::string message);
  void Error(DiagCode code, uint64_t offset, uint64_t length, std::string message) {
    Add(code, Severity::kError, offset, length, std::move(message));
  }
  void Warning(DiagCode code, uint64_t offset, uint64_t length, std::string message) {
    Add(code, Severity::kWarning, offset, length, std::move(message));
  }
  void Fatal(DiagCode code, uint64_t offset, uint64_t length, std::string message) {
    Add(code, Severity::kFatal, offset, length, std::move(message));
  }
  const std::vector<Diagnostic>& items() const { return items_; }
  bool has_fatal() const { return has_fatal_; }
  uint64_t suppressed() const { return suppressed_; }

 private:
  std::vector<Diagnostic> items_;
  std::unordered_map<std::string, size_t, KeyedStringHash> same_;  // message shape -> item
  std::vector<uint32_t> per_code_;
  uint64_t suppressed_ = 0;
  bool has_fatal_ = false;
};

}  // namespace profscope
