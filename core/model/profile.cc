#include "core/model/profile.h"

#include <functional>

namespace profscope {

int32_t StringTable::Intern(std::string_view s) {
  bool added = false;
  int32_t next = static_cast<int32_t>(strings_.size());
  int32_t id = index_.FindOrInsert(
      std::hash<std::string_view>()(s), [&](int32_t row) { return strings_[static_cast<size_t>(row)] == s; },
      next, &added);
  if (added) strings_.emplace_back(s);
  return id;
}

int32_t StackBuilder::Func(int32_t name_id, int32_t mapping) {
  bool added = false;
  int32_t next = static_cast<int32_t>(p_.funcs.name.size());
  int32_t id = funcs_.FindOrInsert(
      FlatIndex::Mix(static_cast<uint32_t>(name_id), static_cast<uint32_t>(mapping)),
      [&](int32_t r) {
        return p_.funcs.name[static_cast<size_t>(r)] == name_id && p_.funcs.mapping[static_cast<size_t>(r)] == mapping;
      },
      next, &added);
  if (added) {
    p_.funcs.name.push_back(name_id);
    p_.funcs.mapping.push_back(mapping);
  }
  return id;
}

int32_t StackBuilder::Frame(uint64_t address, int32_t func, int32_t mapping) {
  bool added = false;
  int32_t next = static_cast<int32_t>(p_.frames.address.size());
  int32_t id = frames_.FindOrInsert(
      FlatIndex::Mix(address, static_cast<uint32_t>(func)),
      [&](int32_t r) {
        return p_.frames.address[static_cast<size_t>(r)] == address && p_.frames.func[static_cast<size_t>(r)] == func;
      },
      next, &added);
  if (added) {
    p_.frames.address.push_back(address);
    p_.frames.func.push_back(func);
    p_.frames.mapping.push_back(mapping);
  }
  return id;
}

int32_t StackBuilder::Stack(int32_t prefix, int32_t frame) {
  bool added = false;
  int32_t next = static_cast<int32_t>(p_.stacks.frame.size());
  int32_t id = stacks_.FindOrInsert(
      FlatIndex::Mix(static_cast<uint32_t>(prefix), static_cast<uint32_t>(frame)),
      [&](int32_t r) {
        return p_.stacks.prefix[static_cast<size_t>(r)] == prefix && p_.stacks.frame[static_cast<size_t>(r)] == frame;
      },
      next, &added);
  if (added) {
    p_.stacks.frame.push_back(frame);
    p_.stacks.prefix.push_back(prefix);
  }
  return id;
}

}  // namespace profscope
