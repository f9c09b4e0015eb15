#include "core/format/perf/simpleperf/simpleperf_format.h"

namespace profscope::perf {

const char* SimpleperfRecordTypeName(uint32_t type) {
  switch (type) {
    case kSpKernelSymbol: return "SIMPLEPERF_KERNEL_SYMBOL";
    case kSpDso: return "SIMPLEPERF_DSO";
    case kSpSymbol: return "SIMPLEPERF_SYMBOL";
    case kSpSplit: return "SIMPLEPERF_SPLIT";
    case kSpSplitEnd: return "SIMPLEPERF_SPLIT_END";
    case kSpEventId: return "SIMPLEPERF_EVENT_ID";
    case kSpCallchain: return "SIMPLEPERF_CALLCHAIN";
    case kSpUnwindingResult: return "SIMPLEPERF_UNWINDING_RESULT";
    case kSpTracingData: return "SIMPLEPERF_TRACING_DATA";
    case kSpDebug: return "SIMPLEPERF_DEBUG";
    default: return "";
  }
}

const char* SimpleperfDsoTypeName(uint64_t type) {
  switch (type) {
    case kDsoKernel: return "DSO_KERNEL";
    case kDsoKernelModule: return "DSO_KERNEL_MODULE";
    case kDsoElfFile: return "DSO_ELF_FILE";
    case kDsoDexFile: return "DSO_DEX_FILE";
    case kDsoSymbolMapFile: return "DSO_SYMBOL_MAP_FILE";
    case kDsoUnknownFile: return "DSO_UNKNOWN_FILE";
    default: return "";
  }
}

const char* SimpleperfChainTypeName(uint64_t t) {
  switch (t) {
    case 0: return "ORIGINAL_OFFLINE";
    case 1: return "ORIGINAL_REMOTE";
    case 2: return "JOINED_OFFLINE";
    case 3: return "JOINED_REMOTE";
    default: return "";
  }
}

}  // namespace profscope::perf
