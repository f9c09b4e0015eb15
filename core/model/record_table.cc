#include "core/model/record_table.h"

namespace profscope {

const char* RecordCategoryName(RecordCategory c) {
  switch (c) {
    case RecordCategory::kMetadata: return "metadata";
    case RecordCategory::kSample: return "sample";
    case RecordCategory::kTask: return "task/mmap";
    case RecordCategory::kKernelEvent: return "kernel event";
    case RecordCategory::kUserEvent: return "user/synthesized";
    case RecordCategory::kPayload: return "payload";
    case RecordCategory::kUnparsed: return "unparsed";
  }
  return "unparsed";
}

}  // namespace profscope
