// Facts a decoder adds to `profscope info` beyond the ones every format has
// (jitdump: its header, record counts and end offset), as a tree of named
// values in the order they were added; core/api writes it as JSON.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace profscope {

struct InfoValue {
  enum class Kind : uint8_t { kObject, kNumber, kText, kBool };
  Kind kind = Kind::kObject;
  uint64_t number = 0;
  std::string text;
  bool flag = false;
  std::vector<std::pair<std::string, InfoValue>> members;  // kObject

  static InfoValue Number(uint64_t v) { InfoValue x; x.kind = Kind::kNumber; x.number = v; return x; }
  static InfoValue Text(std::string v) { InfoValue x; x.kind = Kind::kText; x.text = std::move(v); return x; }
  static InfoValue Bool(bool v) { InfoValue x; x.kind = Kind::kBool; x.flag = v; return x; }
  // Adds a member to an object and returns it.
  InfoValue& Add(std::string key, InfoValue v) {
    members.emplace_back(std::move(key), std::move(v));
    return members.back().second;
  }
};

}  // namespace profscope
