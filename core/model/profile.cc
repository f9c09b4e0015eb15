#include "core/model/profile.h"

namespace profscope {

int32_t StringTable::Intern(std::string_view s) {
  auto it = index_.find(std::string(s));
  if (it != index_.end()) return it->second;
  int32_t id = static_cast<int32_t>(strings_.size());
  strings_.emplace_back(s);
  index_.emplace(strings_.back(), id);
  return id;
}

int32_t StackBuilder::Func(int32_t name_id, int32_t mapping) {
  auto [it, added] = funcs_.try_emplace({name_id, mapping}, static_cast<int32_t>(p_.funcs.name.size()));
  if (added) {
    p_.funcs.name.push_back(name_id);
    p_.funcs.mapping.push_back(mapping);
  }
  return it->second;
}

int32_t StackBuilder::Frame(uint64_t address, int32_t func, int32_t mapping) {
  auto [it, added] = frames_.try_emplace({static_cast<int64_t>(address), func},
                                         static_cast<int32_t>(p_.frames.address.size()));
  if (added) {
    p_.frames.address.push_back(address);
    p_.frames.func.push_back(func);
    p_.frames.mapping.push_back(mapping);
  }
  return it->second;
}

int32_t StackBuilder::Stack(int32_t prefix, int32_t frame) {
  auto [it, added] = stacks_.try_emplace({prefix, frame}, static_cast<int32_t>(p_.stacks.frame.size()));
  if (added) {
    p_.stacks.frame.push_back(frame);
    p_.stacks.prefix.push_back(prefix);
  }
  return it->second;
}

}  // namespace profscope
