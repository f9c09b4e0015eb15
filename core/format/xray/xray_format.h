// LLVM XRay log layouts (compiler-rt's xray_records.h / xray_fdr_log_records.h,
// LLVM's lib/XRay readers): the 32-byte file header, basic ("naive") mode's
// 32-byte records, FDR mode's 16-byte metadata and 8-byte function records.
#pragma once

#include <cstddef>
#include <cstdint>

namespace profscope::xray {

inline constexpr size_t kFileHeaderSize = 32;
inline constexpr size_t kBasicRecordSize = 32;
inline constexpr size_t kMetadataSize = 16;
inline constexpr size_t kFunctionRecordSize = 8;

// XRayFileHeader.Type
inline constexpr uint16_t kNaiveLog = 0;
inline constexpr uint16_t kFdrLog = 1;

// FDR metadata record kinds (first byte = kind << 1 | 1).
enum MetadataKind : uint8_t {
  kNewBuffer = 0,
  kEndOfBuffer = 1,
  kNewCPUId = 2,
  kTSCWrap = 3,
  kWalltimeMarker = 4,
  kCustomEventMarker = 5,
  kCallArgument = 6,
  kBufferExtents = 7,
  kTypedEventMarker = 8,
  kPid = 9,
  kMetadataKinds = 10,
};

// Function record actions (FDR bits 1..3, basic-mode type byte).
enum Action : uint8_t { kEnter = 0, kExit = 1, kTailExit = 2, kEnterArg = 3 };

// RecordTable.type values used by the XRay decoder.
inline constexpr uint32_t kTypeFileHeader = 0;
inline constexpr uint32_t kTypeMetadataBase = 16;   // + MetadataKind
inline constexpr uint32_t kTypeFunctionBase = 32;   // + Action (FDR function record)
inline constexpr uint32_t kTypeBasicBase = 48;      // + Action (basic-mode record)
inline constexpr uint32_t kTypeBasicArg = 56;       // basic-mode argument payload record
inline constexpr uint32_t kTypeEventPayload = 60;   // custom/typed event data following its metadata record
inline constexpr uint32_t kTypePadding = 61;        // bytes skipped between buffers

const char* MetadataKindName(uint8_t kind);
// Function record actions are CallAction's (core/model/call_log.h): CallActionName names them.

}  // namespace profscope::xray
