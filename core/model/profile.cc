#include "core/model/profile.h"

namespace profscope {

int32_t StringTable::Intern(std::string_view s) {
  bool added = false;
  int32_t next = static_cast<int32_t>(strings_.size());
  // (keyed: names a file chose to collide cannot be made without the key)
  int32_t id = index_.FindOrInsert(
      KeyedHash(s),
      [&](int32_t row) { return strings_[static_cast<size_t>(row)] == s; }, next, &added);
  if (added) strings_.emplace_back(s);
  return id;
}

namespace {

uint64_t FuncHash(int32_t name_id, int32_t mapping) {
  return FlatIndex::Mix(static_cast<uint32_t>(name_id), static_cast<uint32_t>(mapping));
}
uint64_t FrameHash(uint64_t address, int32_t func) { return FlatIndex::Mix(address, static_cast<uint32_t>(func)); }
uint64_t StackHash(int32_t prefix, int32_t frame) {
  return FlatIndex::Mix(static_cast<uint32_t>(prefix), static_cast<uint32_t>(frame));
}

}  // namespace

void StackBuilder::CatchUpFuncs() {
  for (size_t n = p_.funcs.name.size(); funcs_indexed_ < n; ++funcs_indexed_)
    funcs_.Insert(FuncHash(p_.funcs.name[funcs_indexed_], p_.funcs.mapping[funcs_indexed_]),
                  static_cast<int32_t>(funcs_indexed_));
}

void StackBuilder::CatchUpFrames() {
  for (size_t n = p_.frames.address.size(); frames_indexed_ < n; ++frames_indexed_)
    frames_.Insert(FrameHash(p_.frames.address[frames_indexed_], p_.frames.func[frames_indexed_]),
                   static_cast<int32_t>(frames_indexed_));
}

void StackBuilder::CatchUpStacks() {
  for (size_t n = p_.stacks.frame.size(); stacks_indexed_ < n; ++stacks_indexed_)
    stacks_.Insert(StackHash(p_.stacks.prefix[stacks_indexed_], p_.stacks.frame[stacks_indexed_]),
                   static_cast<int32_t>(stacks_indexed_));
}

void StackBuilder::ReleaseIndexes() {
  funcs_.Clear();
  frames_.Clear();
  stacks_.Clear();
  funcs_indexed_ = frames_indexed_ = stacks_indexed_ = 0;
}

int32_t StackBuilder::NewFunc(int32_t name_id, int32_t mapping) {
  p_.funcs.name.push_back(name_id);
  p_.funcs.mapping.push_back(mapping);
  return static_cast<int32_t>(p_.funcs.name.size() - 1);
}

int32_t StackBuilder::NewFrame(uint64_t address, int32_t func, int32_t mapping) {
  p_.frames.address.push_back(address);
  p_.frames.func.push_back(func);
  p_.frames.mapping.push_back(mapping);
  return static_cast<int32_t>(p_.frames.address.size() - 1);
}

int32_t StackBuilder::Func(int32_t name_id, int32_t mapping) {
  CatchUpFuncs();
  bool added = false;
  int32_t next = static_cast<int32_t>(p_.funcs.name.size());
  int32_t id = funcs_.FindOrInsert(
      FuncHash(name_id, mapping),
      [&](int32_t r) {
        return p_.funcs.name[static_cast<size_t>(r)] == name_id && p_.funcs.mapping[static_cast<size_t>(r)] == mapping;
      },
      next, &added);
  if (added) {
    NewFunc(name_id, mapping);
    ++funcs_indexed_;
  }
  return id;
}

int32_t StackBuilder::Frame(uint64_t address, int32_t func, int32_t mapping) {
  CatchUpFrames();
  bool added = false;
  int32_t next = static_cast<int32_t>(p_.frames.address.size());
  int32_t id = frames_.FindOrInsert(
      FrameHash(address, func),
      [&](int32_t r) {
        return p_.frames.address[static_cast<size_t>(r)] == address && p_.frames.func[static_cast<size_t>(r)] == func;
      },
      next, &added);
  if (added) {
    NewFrame(address, func, mapping);
    ++frames_indexed_;
  }
  return id;
}

int32_t StackBuilder::Stack(int32_t prefix, int32_t frame) {
  CatchUpStacks();
  bool added = false;
  int32_t next = static_cast<int32_t>(p_.stacks.frame.size());
  int32_t id = stacks_.FindOrInsert(
      StackHash(prefix, frame),
      [&](int32_t r) {
        return p_.stacks.prefix[static_cast<size_t>(r)] == prefix && p_.stacks.frame[static_cast<size_t>(r)] == frame;
      },
      next, &added);
  if (added) {
    p_.stacks.frame.push_back(frame);
    p_.stacks.prefix.push_back(prefix);
    ++stacks_indexed_;
  }
  return id;
}

}  // namespace profscope
