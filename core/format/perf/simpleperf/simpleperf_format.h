// Android simpleperf's additions to the PERFILE2 container: its own record
// types (32769 and up, with a 32-bit size whose high 16 bits sit where perf
// keeps `misc`) and its feature ids (128 and up).
// Layout sources: AOSP platform/system/extras simpleperf/record.h,
// record.cpp (simpleperf_record_header, KernelSymbolRecord .. DebugRecord)
// and record_file_format.h (feature sections).
#pragma once

#include <cstdint>

namespace profscope::perf {

enum SimpleperfRecordType : uint32_t {
  kSimpleperfTypeStart = 32768,
  kSpKernelSymbol = 32769, kSpDso = 32770, kSpSymbol = 32771, kSpSplit = 32772,
  kSpSplitEnd = 32773, kSpEventId = 32774, kSpCallchain = 32775, kSpUnwindingResult = 32776,
  kSpTracingData = 32777, kSpDebug = 32778,
  kSimpleperfTypeMax = 32779,
};

enum SimpleperfFeature : uint32_t {
  kSpFeatFile = 128, kSpFeatMetaInfo = 129, kSpFeatDebugUnwind = 130, kSpFeatDebugUnwindFile = 131,
  kSpFeatFile2 = 132, kSpFeatEtmBranchList = 133, kSpFeatInitMap = 134,
};

// simpleperf's DsoType (dso.h).
enum SimpleperfDsoType : uint32_t {
  kDsoKernel = 0, kDsoKernelModule = 1, kDsoElfFile = 2, kDsoDexFile = 3, kDsoSymbolMapFile = 4,
  kDsoUnknownFile = 5,
};
const char* SimpleperfDsoTypeName(uint64_t type);  // "DSO_ELF_FILE" or ""

// "SIMPLEPERF_CALLCHAIN" ... or "" for a type outside simpleperf's range.
const char* SimpleperfRecordTypeName(uint32_t type);

// True for simpleperf record types (32769..32778).
inline bool IsSimpleperfType(uint32_t type) { return type > kSimpleperfTypeStart && type < kSimpleperfTypeMax; }

// The record size from the 8-byte header: for types above 32768 the u16 at
// offset 4 holds the high 16 bits (simpleperf_record_header.size1), the u16
// at offset 6 the low ones; below it is perf's plain u16 size.
inline uint64_t RecordSizeFromHeader(uint32_t type, uint16_t misc, uint16_t size16) {
  if (type > kSimpleperfTypeStart) return (static_cast<uint64_t>(misc) << 16) | size16;
  return size16;
}

// CallChainJoiner::ChainType of SIMPLEPERF_CALLCHAIN records.
const char* SimpleperfChainTypeName(uint64_t t);  // "ORIGINAL_OFFLINE" ... or ""

}  // namespace profscope::perf
