#include "core/model/call_log.h"

namespace profscope {

const char* CallActionName(CallAction a) {
  switch (a) {
    case CallAction::kEnter: return "enter";
    case CallAction::kExit: return "exit";
    case CallAction::kTailExit: return "tail-exit";
    case CallAction::kEnterArg: return "enter-arg";
  }
  return "unknown";
}

const std::string& CallLog::Name(int32_t func) const {
  static const std::string kEmpty;
  auto it = names.find(func);
  return it == names.end() ? kEmpty : it->second;
}

}  // namespace profscope
