#include "core/format/perf/perf_format.h"

#include <cstdio>

#include "core/format/perf/simpleperf/simpleperf_format.h"

namespace profscope::perf {

bool IsKnownRecordType(uint32_t t) {
  return (t >= 1 && t < kKernelMax) || (t >= kHeaderAttr && t < kUserMax) || IsSimpleperfType(t);
}

RecordCategory RecordCategoryOf(uint32_t type) {
  switch (type) {
    case kSample: return RecordCategory::kSample;
    case kMmap: case kMmap2: case kComm: case kFork: case kExit: case kNamespaces: case kCgroup:
      return RecordCategory::kTask;
    default:
      return type < kHeaderAttr ? RecordCategory::kKernelEvent : RecordCategory::kUserEvent;
  }
}

const char* RecordTypeName(uint32_t type) {
  switch (type) {
    case kMmap: return "MMAP";
    case kLost: return "LOST";
    case kComm: return "COMM";
    case kExit: return "EXIT";
    case kThrottle: return "THROTTLE";
    case kUnthrottle: return "UNTHROTTLE";
    case kFork: return "FORK";
    case kRead: return "READ";
    case kSample: return "SAMPLE";
    case kMmap2: return "MMAP2";
    case kAux: return "AUX";
    case kItraceStart: return "ITRACE_START";
    case kLostSamples: return "LOST_SAMPLES";
    case kSwitch: return "SWITCH";
    case kSwitchCpuWide: return "SWITCH_CPU_WIDE";
    case kNamespaces: return "NAMESPACES";
    case kKsymbol: return "KSYMBOL";
    case kBpfEvent: return "BPF_EVENT";
    case kCgroup: return "CGROUP";
    case kTextPoke: return "TEXT_POKE";
    case kAuxOutputHwId: return "AUX_OUTPUT_HW_ID";
    case kHeaderAttr: return "HEADER_ATTR";
    case kHeaderEventType: return "HEADER_EVENT_TYPE";
    case kHeaderTracingData: return "HEADER_TRACING_DATA";
    case kHeaderBuildId: return "HEADER_BUILD_ID";
    case kFinishedRound: return "FINISHED_ROUND";
    case kIdIndex: return "ID_INDEX";
    case kAuxtraceInfo: return "AUXTRACE_INFO";
    case kAuxtrace: return "AUXTRACE";
    case kAuxtraceError: return "AUXTRACE_ERROR";
    case kThreadMap: return "THREAD_MAP";
    case kCpuMap: return "CPU_MAP";
    case kStatConfig: return "STAT_CONFIG";
    case kStat: return "STAT";
    case kStatRound: return "STAT_ROUND";
    case kEventUpdate: return "EVENT_UPDATE";
    case kTimeConv: return "TIME_CONV";
    case kHeaderFeature: return "HEADER_FEATURE";
    case kCompressed: return "COMPRESSED";
    case kFinishedInit: return "FINISHED_INIT";
    case kCompressed2: return "COMPRESSED2";
    default: return SimpleperfRecordTypeName(type);  // simpleperf's 32769+ or ""
  }
}

static const char* const kSampleBitNames[] = {
    "IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID",
    "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER",
    "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
    "CODE_PAGE_SIZE", "WEIGHT_STRUCT"};

static std::string BitsString(uint64_t v, const char* const* names, int n) {
  std::string out;
  for (int bit = 0; bit < 64; ++bit) {
    if (!(v & (1ULL << bit))) continue;
    if (!out.empty()) out += '|';
    if (bit < n) {
      out += names[bit];
    } else {
      char buf[24];
      std::snprintf(buf, sizeof buf, "0x%llx", 1ULL << bit);
      out += buf;
    }
  }
  return out.empty() ? "0" : out;
}

std::string SampleTypeString(uint64_t v) {
  return BitsString(v, kSampleBitNames, sizeof(kSampleBitNames) / sizeof(*kSampleBitNames));
}

std::string ReadFormatString(uint64_t v) {
  static const char* const names[] = {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP",
                                      "LOST"};
  return BitsString(v, names, 5);
}

const char* ContextName(uint64_t m) {
  switch (m) {
    case kContextHv: return "HV";
    case kContextKernel: return "KERNEL";
    case kContextUser: return "USER";
    case kContextGuest: return "GUEST";
    case kContextGuestKernel: return "GUEST_KERNEL";
    case kContextGuestUser: return "GUEST_USER";
    default: return nullptr;
  }
}

const char* FeatureName(uint32_t f) {
  static const char* const names[] = {
      "RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
      "NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY",
      "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
      "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO",
      "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS"};
  if (f < sizeof(names) / sizeof(*names)) return names[f];
  switch (f) {
    case 128: return "SIMPLEPERF_FILE";
    case 129: return "SIMPLEPERF_META_INFO";
    case 130: return "SIMPLEPERF_DEBUG_UNWIND";
    case 131: return "SIMPLEPERF_DEBUG_UNWIND_FILE";
    case 132: return "SIMPLEPERF_FILE2";
    case 133: return "SIMPLEPERF_ETM_BRANCH_LIST";
    case 134: return "SIMPLEPERF_INIT_MAP";
    default: return "";
  }
}

}  // namespace profscope::perf
