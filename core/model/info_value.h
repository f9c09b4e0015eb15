// Facts a decoder adds to `profscope info` beyond the ones every format has
// (jitdump: its header, record counts and end offset), as a tree of named
// values in the order they were added; core/api writes it as JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace profscope {

struct InfoMember;

struct InfoValue {
  enum class Kind : uint8_t { kObject, kNumber, kText, kBool };
  Kind kind = Kind::kObject;
  uint64_t number = 0;
  std::string text;
  bool flag = false;
  std::vector<InfoMember> members;  // kObject (a pair would need InfoValue complete: clang refuses it)

  // (defined below, where InfoMember is complete)
  static InfoValue Number(uint64_t v);
  static InfoValue Text(std::string v);
  static InfoValue Bool(bool v);
  // Adds a member to an object and returns it.
  inline InfoValue& Add(std::string key, InfoValue v);
};

struct InfoMember {
  std::string first;  // the key
  InfoValue second;   // its value
};

inline InfoValue InfoValue::Number(uint64_t v) { InfoValue x; x.kind = Kind::kNumber; x.number = v; return x; }
inline InfoValue InfoValue::Text(std::string v) { InfoValue x; x.kind = Kind::kText; x.text = std::move(v); return x; }
inline InfoValue InfoValue::Bool(bool v) { InfoValue x; x.kind = Kind::kBool; x.flag = v; return x; }

inline InfoValue& InfoValue::Add(std::string key, InfoValue v) {
  members.push_back(InfoMember{std::move(key), std::move(v)});
  return members.back().second;
}

}  // namespace profscope
