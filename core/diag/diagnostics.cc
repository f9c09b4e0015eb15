#include "core/diag/diagnostics.h"

namespace profscope {

const char* DiagCodeName(DiagCode code) {
  switch (code) {
    case DiagCode::kUnknownFormat: return "unknown_format";
    case DiagCode::kTruncatedHeader: return "truncated_header";
    case DiagCode::kBadHeader: return "bad_header";
    case DiagCode::kSectionOutOfBounds: return "section_out_of_bounds";
    case DiagCode::kRecordTooSmall: return "record_too_small";
    case DiagCode::kRecordTruncated: return "record_truncated";
    case DiagCode::kRecordFieldOverrun: return "record_field_overrun";
    case DiagCode::kUnknownRecordType: return "unknown_record_type";
    case DiagCode::kUnknownSampleId: return "unknown_sample_id";
    case DiagCode::kBadAttr: return "bad_attr";
    case DiagCode::kBadFeature: return "bad_feature";
    case DiagCode::kUnknownFeature: return "unknown_feature";
    case DiagCode::kDecompressFailed: return "decompress_failed";
    case DiagCode::kNoDecompressor: return "no_decompressor";
    case DiagCode::kCallchainTooDeep: return "callchain_too_deep";
    case DiagCode::kTrailingBytes: return "trailing_bytes";
    case DiagCode::kLimitExceeded: return "limit_exceeded";
    case DiagCode::kMissingPayload: return "missing_payload";
    case DiagCode::kBadString: return "bad_string";
    case DiagCode::kUnmatchedMapping: return "unmatched_mapping";
    case DiagCode::kSideFileUnused: return "side_file_unused";
    case DiagCode::kSideFileMismatch: return "side_file_mismatch";
    case DiagCode::kClockMismatch: return "clock_mismatch";
    case DiagCode::kStackRepaired: return "stack_repaired";
    case DiagCode::kMemoryBudget: return "memory_budget";
    case DiagCode::kOutOfMemory: return "out_of_memory";
    case DiagCode::kDecodeStopped: return "decode_stopped";
    case DiagCode::kUnwindMissingBinary: return "unwind_missing_binary";
    case DiagCode::kUnwindStackTooSmall: return "unwind_stack_too_small";
    case DiagCode::kUnwindStopped: return "unwind_stopped";
    case DiagCode::kDebugFileFound: return "debug_file_found";
    case DiagCode::kDebugInfoDamaged: return "debug_info_damaged";
    case DiagCode::kFileChanged: return "file_changed";
  }
  return "unknown";
}

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
    case Severity::kFatal: return "fatal";
  }
  return "error";
}

namespace {

// A message's shape: its code and severity, and its text with every number in
// it (a run of decimal or hex digits, "0x" included) as one '#'. Digits inside
// a name are kept: a word of name characters (letters, digits, '_', '.', '-',
// '/', '~') that starts with no digit and holds a letter that is no hex digit
// names something (lib1.so, jit-4242.dump, perf.data.3, /tmp/perf-77.map), so
// two messages about lib1.so and lib2.so stay two; "12ms", "0x1f", "ffff8100"
// and "1,024" (Thousands()) are numbers. A file_changed names a file (data.1, data.2: one
// each), so its text is its shape.
bool NameChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
         c == '-' || c == '/' || c == '~';
}

bool IsName(const std::string& m, size_t begin, size_t end) {
  if (m[begin] >= '0' && m[begin] <= '9') return false;
  for (size_t i = begin; i < end; ++i) {
    char c = static_cast<char>(m[i] | 0x20);
    if (c >= 'g' && c <= 'z' && c != 'x') return true;
  }
  return false;
}

std::string Shape(DiagCode code, Severity sev, const std::string& m) {
  std::string k;
  k.reserve(m.size() + 4);
  k += static_cast<char>('A' + static_cast<int>(code) % 64);
  k += static_cast<char>('0' + static_cast<int>(sev));
  if (code == DiagCode::kFileChanged) return k + m;
  bool in_num = false;
  for (size_t i = 0; i < m.size(); ++i) {
    char c = m[i];
    if (NameChar(c) && (i == 0 || !NameChar(m[i - 1]))) {  // a word starts
      size_t e = i;
      while (e < m.size() && NameChar(m[e])) ++e;
      if (IsName(m, i, e)) {
        k.append(m, i, e - i);
        i = e - 1;
        in_num = false;
        continue;
      }
    }
    bool digit = c >= '0' && c <= '9';
    bool hex_cont = in_num && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'x');
    bool thousands = in_num && c == ',' && i + 1 < m.size() && m[i + 1] >= '0' && m[i + 1] <= '9';  // 1,024
    if (digit || hex_cont || thousands) {
      if (!in_num) k += '#';
      in_num = true;
      continue;
    }
    in_num = false;
    k += c;
  }
  return k;
}

}  // namespace

void Diagnostics::Add(DiagCode code, Severity sev, uint64_t offset, uint64_t length,
                      std::string message) {
  if (sev == Severity::kFatal) has_fatal_ = true;
  std::string shape = Shape(code, sev, message);
  auto it = same_.find(shape);
  if (it != same_.end()) {
    Diagnostic& d = items_[it->second];
    ++d.count;
    d.last_offset = offset;
    return;
  }
  size_t idx = static_cast<size_t>(code);
  if (per_code_.size() <= idx) per_code_.resize(idx + 1, 0);
  if (per_code_[idx] >= kMaxPerCode && sev != Severity::kFatal) {
    ++suppressed_;
    return;
  }
  ++per_code_[idx];
  same_.emplace(std::move(shape), items_.size());
  items_.push_back(Diagnostic{code, sev, offset, length, std::move(message), 1, offset});
}

}  // namespace profscope
