// On-disk constants of Linux perf.data (PERFILE2), file and pipe mode.
// Source of truth: the kernel's include/uapi/linux/perf_event.h (record types,
// sample_type bits, read_format), perf's tools/perf/util/header.h (feature ids)
// and tools/lib/perf/include/perf/event.h (user record types 64+).
#pragma once

#include <cstdint>
#include <string>

#include "core/model/record_table.h"

namespace profscope::perf {

inline constexpr uint64_t kMagic2 = 0x32454c4946524550ULL;  // "PERFILE2" read little-endian
inline constexpr uint64_t kMagic2Swapped = 0x50455246494c4532ULL;
inline constexpr uint64_t kMagic1 = 0x454c494646524550ULL;   // "PERFFILE" (version 1, not supported)
inline constexpr uint64_t kFileHeaderMinSize = 104;         // magic..flags1 (perf_file_header)
inline constexpr uint64_t kPipeHeaderSize = 16;             // magic, size
inline constexpr uint64_t kEventHeaderSize = 8;             // perf_event_header
inline constexpr uint64_t kAttrVer0Size = 64;

enum RecordType : uint32_t {
  kMmap = 1, kLost = 2, kComm = 3, kExit = 4, kThrottle = 5, kUnthrottle = 6, kFork = 7,
  kRead = 8, kSample = 9, kMmap2 = 10, kAux = 11, kItraceStart = 12, kLostSamples = 13,
  kSwitch = 14, kSwitchCpuWide = 15, kNamespaces = 16, kKsymbol = 17, kBpfEvent = 18,
  kCgroup = 19, kTextPoke = 20, kAuxOutputHwId = 21,
  kKernelMax = 22,
  // Records perf itself writes (tools/lib/perf/include/perf/event.h).
  kHeaderAttr = 64, kHeaderEventType = 65, kHeaderTracingData = 66, kHeaderBuildId = 67,
  kFinishedRound = 68, kIdIndex = 69, kAuxtraceInfo = 70, kAuxtrace = 71, kAuxtraceError = 72,
  kThreadMap = 73, kCpuMap = 74, kStatConfig = 75, kStat = 76, kStatRound = 77,
  kEventUpdate = 78, kTimeConv = 79, kHeaderFeature = 80, kCompressed = 81, kFinishedInit = 82,
  kCompressed2 = 83,
  kUserMax = 84,
};

// "MMAP", "SAMPLE", "HEADER_ATTR" ... or "" for an unknown type.
const char* RecordTypeName(uint32_t type);

// A record type perf or simpleperf writes (kernel 1..21, perf's 64..83, simpleperf's 32769..32778).
bool IsKnownRecordType(uint32_t type);

// The category of a record (or nested record) of this type: SAMPLE a sample;
// MMAP, MMAP2, COMM, FORK, EXIT, NAMESPACES, CGROUP task/mmap; other types
// below 64 kernel events; perf's own records (64+) and simpleperf's user/synthesized.
RecordCategory RecordCategoryOf(uint32_t type);

// perf_event_header.misc bits.
inline constexpr uint16_t kMiscCpumodeMask = 7;
inline constexpr uint16_t kMiscMmapData = 1 << 13;       // also COMM_EXEC, SWITCH_OUT
inline constexpr uint16_t kMiscForkExec = 1 << 13;       // FORK: perf synthesized it (a task running before the recording)
inline constexpr uint16_t kMiscSwitchOut = 1 << 13;
inline constexpr uint16_t kMiscSwitchOutPreempt = 1 << 14;  // SWITCH out while runnable
inline constexpr uint16_t kMiscMmapBuildId = 1 << 14;    // MMAP2 carries a build id
inline constexpr uint16_t kMiscExactIp = 1 << 14;

enum SampleType : uint64_t {
  kSampleIp = 1ULL << 0, kSampleTid = 1ULL << 1, kSampleTime = 1ULL << 2, kSampleAddr = 1ULL << 3,
  kSampleRead = 1ULL << 4, kSampleCallchain = 1ULL << 5, kSampleId = 1ULL << 6,
  kSampleCpu = 1ULL << 7, kSamplePeriod = 1ULL << 8, kSampleStreamId = 1ULL << 9,
  kSampleRaw = 1ULL << 10, kSampleBranchStack = 1ULL << 11, kSampleRegsUser = 1ULL << 12,
  kSampleStackUser = 1ULL << 13, kSampleWeight = 1ULL << 14, kSampleDataSrc = 1ULL << 15,
  kSampleIdentifier = 1ULL << 16, kSampleTransaction = 1ULL << 17, kSampleRegsIntr = 1ULL << 18,
  kSamplePhysAddr = 1ULL << 19, kSampleAux = 1ULL << 20, kSampleCgroup = 1ULL << 21,
  kSampleDataPageSize = 1ULL << 22, kSampleCodePageSize = 1ULL << 23,
  kSampleWeightStruct = 1ULL << 24,
  kSampleMax = 1ULL << 25,
};
// "IP|TID|TIME|..." with unknown bits as hex.
std::string SampleTypeString(uint64_t sample_type);

enum ReadFormat : uint64_t {
  kReadTotalTimeEnabled = 1, kReadTotalTimeRunning = 2, kReadId = 4, kReadGroup = 8,
  kReadLost = 16,
};
std::string ReadFormatString(uint64_t read_format);

enum BranchSampleType : uint64_t { kBranchCallStack = 1ULL << 11, kBranchHwIndex = 1ULL << 17, kBranchCounters = 1ULL << 19 };

// Callchain context markers.
inline constexpr uint64_t kContextHv = static_cast<uint64_t>(-32);
inline constexpr uint64_t kContextKernel = static_cast<uint64_t>(-128);
inline constexpr uint64_t kContextUser = static_cast<uint64_t>(-512);
inline constexpr uint64_t kContextGuest = static_cast<uint64_t>(-2048);
inline constexpr uint64_t kContextGuestKernel = static_cast<uint64_t>(-2176);
inline constexpr uint64_t kContextGuestUser = static_cast<uint64_t>(-2560);
inline constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);
const char* ContextName(uint64_t marker);  // "KERNEL", "USER", ... or nullptr

// Feature ids (bits of the 256-bit header flags bitmap); tools/perf/util/header.h.
enum Feature : uint32_t {
  kFeatReserved = 0, kFeatTracingData = 1, kFeatBuildId = 2, kFeatHostname = 3,
  kFeatOsRelease = 4, kFeatVersion = 5, kFeatArch = 6, kFeatNrCpus = 7, kFeatCpuDesc = 8,
  kFeatCpuId = 9, kFeatTotalMem = 10, kFeatCmdline = 11, kFeatEventDesc = 12,
  kFeatCpuTopology = 13, kFeatNumaTopology = 14, kFeatBranchStack = 15, kFeatPmuMappings = 16,
  kFeatGroupDesc = 17, kFeatAuxtrace = 18, kFeatStat = 19, kFeatCache = 20,
  kFeatSampleTime = 21, kFeatMemTopology = 22, kFeatClockId = 23, kFeatDirFormat = 24,
  kFeatBpfProgInfo = 25, kFeatBpfBtf = 26, kFeatCompressed = 27, kFeatCpuPmuCaps = 28,
  kFeatClockData = 29, kFeatHybridTopology = 30, kFeatPmuCaps = 31,
  kFeatLastKnown = 32,
};
// "HOSTNAME", "BUILD_ID" ... (simpleperf's 128+ too) or "" when unknown.
const char* FeatureName(uint32_t feature);

// PERF_TYPE_* for perf_event_attr.type.
enum AttrType : uint32_t {
  kTypeHardware = 0, kTypeSoftware = 1, kTypeTracepoint = 2, kTypeHwCache = 3, kTypeRaw = 4,
  kTypeBreakpoint = 5,
};

}  // namespace profscope::perf
